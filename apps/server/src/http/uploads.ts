// One multipart set-up and form reader for every image upload, so each refuses an oversized file
// or an unreadable form the same way.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { GENERIC } from '@versus/domain/messages';
import { checkEvidenceBytes, checkEvidenceFile } from '@versus/domain/results';
import { unstorablePath } from '@versus/domain/text';
import type { UploadedFile } from '../storage/file-store.ts';
import { badRequest, type AppError } from './errors.ts';
import { invalidCharacters } from './characters.ts';

const TOO_LARGE = new Set(['FST_ERR_CTP_BODY_TOO_LARGE', 'FST_REQ_FILE_TOO_LARGE']);

/** The request body limit for one image of `maxBytes` and its form fields. */
export const uploadBodyLimit = (maxBytes: number): number => maxBytes + 64 * 1024;

export interface UploadLimits {
  /** The largest image accepted. */
  maxBytes: number;
  /** Form fields besides the file, and the longest of them. */
  fields: number;
  fieldSize: number;
  /** The form field of the file, and the text for a file over the limit. */
  field: string;
  tooLarge: string;
}

/** Multipart for this scope: one file at most; over the limit, 400 invalid_file with `tooLarge` on `field`. */
export async function acceptUploads(scope: FastifyInstance, limits: UploadLimits): Promise<void> {
  await scope.register(multipart, { limits: { fileSize: limits.maxBytes, files: 1, fields: limits.fields, fieldSize: limits.fieldSize } });
  scope.setErrorHandler((error) => {
    if (TOO_LARGE.has(String((error as { code?: string }).code))) throw badRequest('invalid_file', limits.tooLarge, limits.field);
    throw error;
  });
}

export interface ImageForm {
  fields: Record<string, string>;
  image: UploadedFile | null;
}

/** How a form's image is checked: its declared type before its bytes are read, then its bytes. */
export interface ImageChecks<T> {
  type(declared: string): string | null;
  bytes(declared: string, data: Buffer): { ok: true; image: T } | { ok: false; message: string };
}

/** A form's text fields and its first image (with `onlyField`, the one so named) checked by `checks`; unreadable forms are 400. */
export async function readImageParts<T>(
  request: FastifyRequest,
  options: { field: string; onlyField: boolean; checks: ImageChecks<T> },
): Promise<{ fields: Record<string, string>; image: T | null }> {
  const fields: Record<string, string> = {};
  let image: T | null = null;
  let refusal: AppError | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        const at = unstorablePath({ [part.fieldname]: part.value });
        if (at !== null) refusal ??= invalidCharacters(at);
        else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      const typeProblem = options.checks.type(part.mimetype);
      if (refusal || image || typeProblem || (options.onlyField && part.fieldname !== options.field)) {
        if (typeProblem) refusal ??= badRequest('invalid_file', typeProblem, options.field);
        part.file.resume();
        continue;
      }
      // Over the size limit this throws FST_REQ_FILE_TOO_LARGE (the text of acceptUploads).
      const data = await part.toBuffer();
      const checked = options.checks.bytes(part.mimetype, data);
      if (checked.ok) image = checked.image;
      else refusal = badRequest('invalid_file', checked.message, options.field);
    }
  } catch (error) {
    if (TOO_LARGE.has(String((error as { code?: string }).code))) throw error;
    // The parser's own errors (500s, 413s with its text) say nothing a player can act on.
    throw badRequest('invalid_file', GENERIC.uploadUnreadable, options.field);
  }
  if (refusal) throw refusal;
  return { fields, image };
}

/** SPEC §5's evidence rules: the declared type must be what the bytes are. */
const evidenceChecks: ImageChecks<UploadedFile> = {
  type: (type) => checkEvidenceFile({ type, size: 0 }),
  bytes(type, data) {
    const message = checkEvidenceBytes(type, data);
    return message ? { ok: false, message } : { ok: true, image: { data, contentType: type.toLowerCase() } };
  },
};

/** A JSON body's string fields, or a multipart form's fields and its one image checked by SPEC §5's rules. */
export async function readImageForm(request: FastifyRequest, options: { field: string; onlyField: boolean }): Promise<ImageForm> {
  if (!request.isMultipart()) {
    const fields: Record<string, string> = {};
    const body = request.body;
    if (body && typeof body === 'object') {
      for (const [key, value] of Object.entries(body)) if (typeof value === 'string') fields[key] = value;
    }
    return { fields, image: null };
  }
  return readImageParts(request, { ...options, checks: evidenceChecks });
}
