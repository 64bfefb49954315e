// External-game results over HTTP: reports (with optional evidence), no-show claims, the match
// chat, dispute statements, evidence files, and the results timer job.
import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RESULTS } from '@versus/domain/messages';
import {
  EVIDENCE_RULES,
  chatListSchema,
  chatMessageSchema,
  chatRequestSchema,
  noShowResponseSchema,
  okResponseSchema,
  playNowResponseSchema,
  reportRequestSchema,
  reportResponseSchema,
  resultStateSchema,
  statementRequestSchema,
  statementResponseSchema,
} from '@versus/domain/results';
import type { App, AppContext } from '../context.ts';
import { requireUser } from '../auth/auth.plugin.ts';
import { badRequest } from '../http/errors.ts';
import { PRIVATE_IMMUTABLE, sendStoredFile } from '../http/files.ts';
import { acceptUploads, readImageForm, uploadBodyLimit, type ImageForm } from '../http/uploads.ts';
import { scheduleJob } from '../jobs/scheduler.ts';
import * as service from './results.service.ts';

const idParams = z.object({ id: z.string().max(64) });
const evidenceParams = z.object({ id: z.string().max(64), evidenceId: z.string().max(64) });
const tags = ['results'];
// The image plus its form fields; a larger file is cut at the multipart limit and refused.
const UPLOAD_BODY_LIMIT = uploadBodyLimit(EVIDENCE_RULES.maxBytes);
const security = [{ bearer: [] }];

/** A JSON body or a multipart form (fields + one `evidence` image, under whatever part name). */
const readEvidenceForm = (request: FastifyRequest): Promise<ImageForm> => readImageForm(request, { field: 'evidence', onlyField: false });

export async function resultsFeature(app: App, ctx: AppContext): Promise<void> {
  const store = ctx.files;
  ctx.topics.authorize('match-chat', ({ user, id }) => service.canFollowChat(ctx.db, user, id));
  const options = service.resultsOptions();
  scheduleJob(app, ctx, {
    name: 'results-timers',
    everyMs: 30_000,
    runAtStart: true,
    run: () => service.sweepResults(ctx, new Date(), options),
  });

  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    await acceptUploads(scope, {
      maxBytes: EVIDENCE_RULES.maxBytes,
      fields: 10,
      fieldSize: 4096,
      field: 'evidence',
      tooLarge: RESULTS.fileTooLarge,
    });

    scope.get(
      '/api/matches/:id/result',
      {
        schema: {
          tags,
          security,
          summary:
            'An external match: reports, evidence links, confirmation deadline, no-show claim, ' +
            'dispute id, transitions (players and admins)',
          params: idParams,
          response: { 200: resultStateSchema },
        },
      },
      async (request) => service.resultState(ctx, requireUser(request), request.params.id, options),
    );

    scope.post(
      '/api/matches/:id/report',
      {
        bodyLimit: UPLOAD_BODY_LIMIT,
        schema: {
          tags,
          security,
          summary:
            "Report an external match's result: JSON {outcome: 'win'|'loss'} or multipart " +
            '(outcome field + optional `evidence` image, jpeg/png/gif/webp/avif ≤ 5 MB)',
          description:
            'Only its two players, after the scheduled start (or once both are ready to play now), once each (409 already_reported). ' +
            'Agreeing reports settle at once; ' +
            'conflicting ones open a dispute (status disputed; `match.disputed` on both user topics). An unanswered report settles ' +
            'for its reporter after RESULT_CONFIRM_WINDOW_MS (default 1 h). Answers {status: waiting|settled|disputed, disputeId}.',
          params: idParams,
          response: { 200: reportResponseSchema },
        },
      },
      async (request) => {
        const user = requireUser(request);
        const form = await readEvidenceForm(request);
        const parsed = reportRequestSchema.safeParse(form.fields);
        if (!parsed.success) throw badRequest('invalid_input', RESULTS.outcomeRequired, 'outcome');
        return service.report(ctx, store, user, request.params.id, { outcome: parsed.data.outcome, evidence: form.image });
      },
    );

    scope.post(
      '/api/matches/:id/play-now',
      {
        schema: {
          tags,
          security,
          summary:
            'Ready to play an external match now: once both players are, it starts at once ' +
            '(in progress, reports open) instead of at its scheduled start',
          description:
            'Only its two players, while it waits to start; again changes nothing. ' +
            "`match.ready` on the opponent's topic, then `match.started` on both.",
          params: idParams,
          response: { 200: playNowResponseSchema },
        },
      },
      async (request) => service.readyNow(ctx, requireUser(request), request.params.id),
    );

    scope.post(
      '/api/matches/:id/no-show',
      {
        schema: {
          tags,
          security,
          summary:
            'Claim the opponent did not show up (from 10 minutes after the start; refused once they have reported); ' +
            'they have 5 minutes to answer or forfeit',
          params: idParams,
          response: { 200: noShowResponseSchema },
        },
      },
      async (request) => service.claimNoShow(ctx, requireUser(request), request.params.id),
    );

    scope.post(
      '/api/matches/:id/no-show/answer',
      {
        schema: {
          tags,
          security,
          summary: 'Answer a no-show claim against me (within its 5 minutes)',
          params: idParams,
          response: { 200: okResponseSchema },
        },
      },
      async (request) => {
        await service.answerNoShow(ctx, requireUser(request), request.params.id);
        return { ok: true as const };
      },
    );

    scope.get(
      '/api/matches/:id/chat',
      {
        schema: {
          tags,
          security,
          summary: 'The match chat, oldest first (players and admins); live on `match-chat:{id}` (chat.message)',
          params: idParams,
          response: { 200: chatListSchema },
        },
      },
      async (request) => ({ messages: await service.listChat(ctx, requireUser(request), request.params.id) }),
    );

    scope.post(
      '/api/matches/:id/chat',
      {
        schema: {
          tags,
          security,
          summary: 'Write in the match chat (players; 1-500 characters)',
          params: idParams,
          response: { 200: chatMessageSchema },
        },
      },
      async (request) => {
        const user = requireUser(request);
        const parsed = chatRequestSchema.safeParse(request.body ?? {});
        if (!parsed.success) throw badRequest('invalid_input', parsed.error.issues[0]?.message ?? RESULTS.chatEmpty, 'body');
        return service.postChat(ctx, user, request.params.id, parsed.data.body);
      },
    );

    scope.post(
      '/api/matches/:id/dispute/statements',
      {
        bodyLimit: UPLOAD_BODY_LIMIT,
        schema: {
          tags,
          security,
          summary:
            'Add a statement and/or evidence to the open dispute of my match: JSON {body} or multipart (body field + `evidence` image)',
          params: idParams,
          response: { 200: statementResponseSchema },
        },
      },
      async (request) => {
        const user = requireUser(request);
        const form = await readEvidenceForm(request);
        let body: string | null = null;
        if (form.fields.body !== undefined || !form.image) {
          const parsed = statementRequestSchema.safeParse(form.fields);
          if (!parsed.success) throw badRequest('invalid_input', parsed.error.issues[0]?.message ?? RESULTS.statementEmpty, 'body');
          body = parsed.data.body;
        }
        return service.addStatement(ctx, store, user, request.params.id, { body, evidence: form.image });
      },
    );

    scope.get(
      '/api/matches/:id/evidence/:evidenceId',
      {
        schema: {
          tags,
          security,
          summary: 'An evidence image (players of the match and admins); cached privately, never changes',
          params: evidenceParams,
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        const file = await service.evidenceFile(ctx, store, user, request.params.id, request.params.evidenceId);
        return sendStoredFile(request, reply, file, { etag: `"${file.id}"`, cacheControl: PRIVATE_IMMUTABLE });
      },
    );
  });
}
