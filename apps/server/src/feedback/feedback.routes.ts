// Beta feedback over HTTP: the widget's message (JSON, or multipart with a `screenshot` image),
// the author's own messages, and the admin list and answer.
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminFeedbackListSchema,
  adminFeedbackQuerySchema,
  adminFeedbackResponseSchema,
  answerRequestSchema,
  feedbackListSchema,
  feedbackResponseSchema,
} from '@versus/domain/feedback';
import { RESULTS } from '@versus/domain/messages';
import { EVIDENCE_RULES } from '@versus/domain/results';
import type { App, AppContext } from '../context.ts';
import { requireRole, requireUser, signedInOnly } from '../auth/auth.plugin.ts';
import { errorResponses as errors } from '../http/errors.ts';
import { PRIVATE_IMMUTABLE, sendStoredFile } from '../http/files.ts';
import { parseOrReject } from '../http/validation.ts';
import { acceptUploads, readImageForm, uploadBodyLimit } from '../http/uploads.ts';
import * as service from './feedback.service.ts';

const tags = ['feedback'];
const security = [{ bearer: [] }];
const idParams = z.object({ id: z.string().max(64) });

export async function feedbackFeature(app: App, ctx: AppContext): Promise<void> {
  const store = ctx.files;
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    await acceptUploads(scope, {
      maxBytes: EVIDENCE_RULES.maxBytes,
      fields: 10,
      fieldSize: 8192,
      field: 'screenshot',
      tooLarge: RESULTS.fileTooLarge,
    });

    scope.post(
      '/api/feedback',
      {
        preValidation: signedInOnly,
        bodyLimit: uploadBodyLimit(EVIDENCE_RULES.maxBytes),
        schema: {
          tags,
          security,
          summary:
            'Send beta feedback: JSON {message, pageUrl, appVersion} or multipart ' +
            '(the same fields + an optional `screenshot` image, jpeg/png/gif/webp/avif ≤ 5 MB)',
          response: { 201: feedbackResponseSchema, ...errors(400, 401, 429) },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        // The widget's fields and its optional screenshot.
        const { fields, image } = await readImageForm(request, { field: 'screenshot', onlyField: true });
        const feedback = await service.send(ctx, store, user, { fields, screenshot: image, userAgent: request.headers['user-agent'] });
        return reply.status(201).send({ feedback });
      },
    );

    scope.get(
      '/api/feedback',
      {
        schema: {
          tags,
          security,
          summary: 'My feedback messages, newest first, with any answers',
          response: { 200: feedbackListSchema, ...errors(401) },
        },
      },
      async (request) => ({ feedback: await service.mine(ctx, requireUser(request)) }),
    );

    scope.get(
      '/api/feedback/:id',
      {
        schema: {
          tags,
          security,
          summary: 'One feedback message (its author and admins; 404 for anyone else)',
          params: idParams,
          response: { 200: feedbackResponseSchema, ...errors(401, 404) },
        },
      },
      async (request) => ({ feedback: await service.one(ctx, requireUser(request), request.params.id) }),
    );

    scope.get(
      '/api/feedback/:id/screenshot',
      {
        schema: {
          tags,
          security,
          summary: "A feedback message's screenshot (its author and admins); cached privately, never changes",
          params: idParams,
        },
      },
      async (request, reply) => {
        const file = await service.screenshot(ctx, store, requireUser(request), request.params.id);
        return sendStoredFile(request, reply, file, { etag: `"fb-${file.id}"`, cacheControl: PRIVATE_IMMUTABLE });
      },
    );

    scope.get(
      '/api/admin/feedback',
      {
        schema: {
          tags: ['admin'],
          security,
          summary: 'Beta feedback, newest first (status: open by default, answered, all)',
          response: { 200: adminFeedbackListSchema, ...errors(400, 401, 403) },
        },
      },
      async (request) => {
        requireRole(request, 'admin');
        const query = parseOrReject(adminFeedbackQuerySchema, request.query);
        return { feedback: await service.adminList(ctx, query.status) };
      },
    );

    scope.post(
      '/api/admin/feedback/:id/answer',
      {
        schema: {
          tags: ['admin'],
          security,
          summary: 'Answer open feedback {answer}, once; the author gets it as a notification',
          params: idParams,
          response: { 200: adminFeedbackResponseSchema, ...errors(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const admin = requireRole(request, 'admin');
        const body = parseOrReject(answerRequestSchema, request.body);
        return { feedback: await service.answer(ctx, admin, request.params.id, body.answer) };
      },
    );
  });
}
