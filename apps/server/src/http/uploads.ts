// Image uploads: one multipart set-up and one form reader for the features that take an image
// (match evidence, feedback screenshots, avatars), so each refuses a file too large the same way.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { checkEvidenceBytes, checkEvidenceFile } from '@versus/domain/results';
import type { UploadedFile } from '../storage/file-store.ts';
import { badRequest } from './errors.ts';

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

/**
 * Multipart for this scope: one file at most, and a request or file over the limit refused with
 * `tooLarge` (400 invalid_file on `field`); other errors go on to the app's handler.
 */
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

/**
 * A JSON body's string fields, or a multipart form's fields and its one image checked by SPEC
 * §5's rules (refused on `field`). With `onlyField`, a file under another name is skipped;
 * without it, the first file is the image whatever its name.
 */
export async function readImageForm(request: FastifyRequest, options: { field: string; onlyField: boolean }): Promise<ImageForm> {
  const fields: Record<string, string> = {};
  if (!request.isMultipart()) {
    const body = request.body;
    if (body && typeof body === 'object') {
      for (const [key, value] of Object.entries(body)) if (typeof value === 'string') fields[key] = value;
    }
    return { fields, image: null };
  }
  let image: UploadedFile | null = null;
  let problem: string | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      continue;
    }
    const typeProblem = checkEvidenceFile({ type: part.mimetype, size: 0 });
    if (problem || image || typeProblem || (options.onlyField && part.fieldname !== options.field)) {
      problem ??= typeProblem;
      part.file.resume();
      continue;
    }
    // Over the size limit this throws FST_REQ_FILE_TOO_LARGE (the text of acceptUploads).
    const data = await part.toBuffer();
    problem = checkEvidenceBytes(part.mimetype, data);
    if (!problem) image = { data, contentType: part.mimetype.toLowerCase() };
  }
  if (problem) throw badRequest('invalid_file', problem, options.field);
  return { fields, image };
}
