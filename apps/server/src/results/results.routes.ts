// External-game results over HTTP: reports (with optional evidence), no-show claims, the match
// chat, dispute statements, evidence files, and the results timer job.
import type { FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RESULTS } from '@versus/domain/messages';
import {
  EVIDENCE_RULES,
  checkEvidenceBytes,
  checkEvidenceFile,
  chatListSchema,
  chatMessageSchema,
  chatRequestSchema,
  noShowResponseSchema,
  okResponseSchema,
  reportRequestSchema,
  reportResponseSchema,
  resultStateSchema,
  statementRequestSchema,
  statementResponseSchema,
} from '@versus/domain/results';
import type { App } from '../app.ts';
import type { AppContext } from '../context.ts';
import { requireUser } from '../auth/auth.plugin.ts';
import { badRequest } from '../http/errors.ts';
import { scheduleJob } from '../jobs/scheduler.ts';
import { authorizeTopic } from '../realtime/authorize.ts';
import { diskStore, type FileStore } from '../storage/file-store.ts';
import * as service from './results.service.ts';

authorizeTopic('match-chat', ({ user, id, ctx }) => service.canFollowChat(ctx.db, user, id));

const idParams = z.object({ id: z.string().max(64) });
const evidenceParams = z.object({ id: z.string().max(64), evidenceId: z.string().max(64) });
const tags = ['results'];
// The image plus its form fields; a larger file is cut at the multipart limit and refused.
const UPLOAD_BODY_LIMIT = EVIDENCE_RULES.maxBytes + 64 * 1024;
const security = [{ bearer: [] }];

const TOO_LARGE = new Set(['FST_ERR_CTP_BODY_TOO_LARGE', 'FST_REQ_FILE_TOO_LARGE']);

interface Form {
  fields: Record<string, string>;
  file: service.UploadedFile | null;
}

/** A JSON body or a multipart form (fields + one `evidence` image checked by SPEC §5's rules). */
async function readForm(request: FastifyRequest): Promise<Form> {
  if (!request.isMultipart()) {
    const body = request.body;
    const fields: Record<string, string> = {};
    if (body && typeof body === 'object') {
      for (const [key, value] of Object.entries(body)) if (typeof value === 'string') fields[key] = value;
    }
    return { fields, file: null };
  }
  const fields: Record<string, string> = {};
  let file: service.UploadedFile | null = null;
  let problem: string | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      continue;
    }
    const typeProblem = checkEvidenceFile({ type: part.mimetype, size: 0 });
    if (problem || file || typeProblem) {
      problem ??= typeProblem;
      part.file.resume();
      continue;
    }
    // Over the size limit this throws FST_REQ_FILE_TOO_LARGE (SPEC's text, from the scope's error handler).
    const data = await part.toBuffer();
    problem = checkEvidenceBytes(part.mimetype, data);
    if (!problem) file = { data, contentType: part.mimetype.toLowerCase() };
  }
  if (problem) throw badRequest('invalid_file', problem, 'evidence');
  return { fields, file };
}

export async function resultsFeature(app: App, ctx: AppContext, store: FileStore = diskStore(ctx.config.dataDir)): Promise<void> {
  const options = service.resultsOptions();
  scheduleJob(app, ctx, {
    name: 'results-timers',
    everyMs: 30_000,
    runAtStart: true,
    run: () => service.sweepResults(ctx, new Date(), options),
  });

  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    await scope.register(multipart, { limits: { fileSize: EVIDENCE_RULES.maxBytes, files: 1, fields: 10, fieldSize: 4096 } });
    // A whole request far over the file limit is refused with SPEC's text too; the rest go to the app's handler.
    scope.setErrorHandler((error) => {
      if (TOO_LARGE.has(String((error as { code?: string }).code))) throw badRequest('invalid_file', RESULTS.fileTooLarge, 'evidence');
      throw error;
    });

    scope.get('/api/matches/:id/result', {
      schema: { tags, security, summary: 'An external match: reports, evidence links, confirmation deadline, no-show claim, dispute id, transitions (players and admins)', params: idParams, response: { 200: resultStateSchema } },
    }, async (request) => service.resultState(ctx, requireUser(request), request.params.id, options));

    scope.post('/api/matches/:id/report', {
      bodyLimit: UPLOAD_BODY_LIMIT,
      schema: {
        tags,
        security,
        summary: "Report an external match's result: JSON {outcome: 'win'|'loss'} or multipart (outcome field + optional `evidence` image, jpeg/png/gif/webp/avif ≤ 5 MB)",
        description:
          'Only its two players, after the scheduled start, once each (409 already_reported). Agreeing reports settle at once; ' +
          'conflicting ones open a dispute (status disputed; `match.disputed` on both user topics). An unanswered report settles ' +
          'for its reporter after RESULT_CONFIRM_WINDOW_MS (default 1 h). Answers {status: waiting|settled|disputed, disputeId}.',
        params: idParams, response: { 200: reportResponseSchema },
      },
    }, async (request) => {
      const user = requireUser(request);
      const form = await readForm(request);
      const parsed = reportRequestSchema.safeParse(form.fields);
      if (!parsed.success) throw badRequest('invalid_input', RESULTS.outcomeRequired, 'outcome');
      return service.report(ctx, store, user, request.params.id, { outcome: parsed.data.outcome, evidence: form.file });
    });

    scope.post('/api/matches/:id/no-show', {
      schema: { tags, security, summary: 'Claim the opponent did not show up (from 10 minutes after the start); they have 5 minutes to answer or forfeit', params: idParams, response: { 200: noShowResponseSchema } },
    }, async (request) => service.claimNoShow(ctx, requireUser(request), request.params.id));

    scope.post('/api/matches/:id/no-show/answer', {
      schema: { tags, security, summary: 'Answer a no-show claim against me (within its 5 minutes)', params: idParams, response: { 200: okResponseSchema } },
    }, async (request) => {
      await service.answerNoShow(ctx, requireUser(request), request.params.id);
      return { ok: true as const };
    });

    scope.get('/api/matches/:id/chat', {
      schema: { tags, security, summary: "The match chat, oldest first (players and admins); live on `match-chat:{id}` (chat.message)", params: idParams, response: { 200: chatListSchema } },
    }, async (request) => ({ messages: await service.listChat(ctx, requireUser(request), request.params.id) }));

    scope.post('/api/matches/:id/chat', {
      schema: { tags, security, summary: 'Write in the match chat (players; 1-500 characters)', params: idParams, response: { 200: chatMessageSchema } },
    }, async (request) => {
      const user = requireUser(request);
      const parsed = chatRequestSchema.safeParse(request.body ?? {});
      if (!parsed.success) throw badRequest('invalid_input', parsed.error.issues[0]?.message ?? RESULTS.chatEmpty, 'body');
      return service.postChat(ctx, user, request.params.id, parsed.data.body);
    });

    scope.post('/api/matches/:id/dispute/statements', {
      bodyLimit: UPLOAD_BODY_LIMIT,
      schema: { tags, security, summary: 'Add a statement and/or evidence to the open dispute of my match: JSON {body} or multipart (body field + `evidence` image)', params: idParams, response: { 200: statementResponseSchema } },
    }, async (request) => {
      const user = requireUser(request);
      const form = await readForm(request);
      let body: string | null = null;
      if (form.fields.body !== undefined || !form.file) {
        const parsed = statementRequestSchema.safeParse(form.fields);
        if (!parsed.success) throw badRequest('invalid_input', parsed.error.issues[0]?.message ?? RESULTS.statementEmpty, 'body');
        body = parsed.data.body;
      }
      return service.addStatement(ctx, store, user, request.params.id, { body, evidence: form.file });
    });

    scope.get('/api/matches/:id/evidence/:evidenceId', {
      schema: { tags, security, summary: 'An evidence image (players of the match and admins); cached privately, never changes', params: evidenceParams },
    }, async (request, reply) => {
      const user = requireUser(request);
      const file = await service.evidenceFile(ctx, store, user, request.params.id, request.params.evidenceId);
      const etag = `"${file.id}"`;
      reply.header('cache-control', 'private, max-age=31536000, immutable').header('etag', etag).header('x-content-type-options', 'nosniff');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.type(file.contentType).send(file.data);
    });
  });
}
