// Verification over HTTP: the player's gamertags and identity check, and the admin review queue
// (admin-only: 401 signed out, 403 for anyone else).
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  gamertagRequestSchema,
  identityRequestSchema,
  queueQuerySchema,
  queueResponseSchema,
  reviewRequestSchema,
  reviewResponseSchema,
  verificationStateSchema,
} from '@versus/domain/verification';
import type { App, AppContext } from '../context.ts';
import { requireRole, requireUser } from '../auth/auth.plugin.ts';
import { errorResponses as errors } from '../http/errors.ts';
import * as service from './verification.service.ts';
import { parseOrReject } from '../http/validation.ts';

const tags = ['verification'];
const security = [{ bearer: [] }];
const platformParams = z.object({ platform: z.string().max(32) });
const idParams = z.object({ id: z.string().max(64) });

const admin = (request: FastifyRequest) => requireRole(request, 'admin');

export function verificationFeature(app: App, ctx: AppContext): void {
  app.get(
    '/api/verification',
    {
      schema: {
        tags,
        security,
        summary:
          'My verification: flags, verificationCompletedAt, linked gamertags, ' +
          "the latest request of each kind (provider 'manual': an admin reviews)",
        response: { 200: verificationStateSchema, ...errors(401) },
      },
    },
    async (request) => service.state(ctx, requireUser(request)),
  );

  app.put(
    '/api/verification/gamertags/:platform',
    {
      schema: {
        tags,
        security,
        summary:
          'Link or change my gamertag on xbox, playstation or steam {gamertag}; it goes to the review queue ' +
          '(the platform flag is cleared until approved)',
        params: platformParams,
        response: { 200: verificationStateSchema, ...errors(400, 401, 404, 409) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const platform = service.parsePlatform(request.params.platform);
      const body = parseOrReject(gamertagRequestSchema, request.body);
      return service.linkGamertag(ctx, user, platform, body.gamertag);
    },
  );

  app.delete(
    '/api/verification/gamertags/:platform',
    {
      schema: {
        tags,
        security,
        summary: 'Unlink my gamertag on a platform (its flag is cleared)',
        params: platformParams,
        response: { 200: verificationStateSchema, ...errors(401, 404) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return service.unlinkGamertag(ctx, user, service.parsePlatform(request.params.platform));
    },
  );

  app.post(
    '/api/verification/identity',
    {
      schema: {
        tags,
        security,
        summary:
          'Ask for the identity and age check {fullName, dateOfBirth (18 or older), documentType, documentLast4}; an admin reviews it',
        response: { 200: verificationStateSchema, ...errors(400, 401, 409) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return service.requestIdentity(ctx, user, parseOrReject(identityRequestSchema, request.body));
    },
  );

  app.get(
    '/api/admin/verification',
    {
      schema: {
        tags: ['admin'],
        security,
        summary: 'The verification review queue, oldest first (status: pending by default, approved, rejected, cancelled, all)',
        response: { 200: queueResponseSchema, ...errors(400, 401, 403) },
      },
    },
    async (request) => {
      admin(request);
      const query = parseOrReject(queueQuerySchema, request.query);
      return { requests: await service.listQueue(ctx, query.status) };
    },
  );

  for (const decision of ['approve', 'reject'] as const) {
    app.post(
      `/api/admin/verification/:id/${decision}`,
      {
        schema: {
          tags: ['admin'],
          security,
          summary:
            decision === 'approve'
              ? "Approve a pending request: the player's flag is set (and verificationCompletedAt when all holds); the player is notified"
              : 'Reject a pending request {reason} (shown to the player, who is notified)',
          params: idParams,
          response: { 200: reviewResponseSchema, ...errors(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const user = admin(request);
        const body = parseOrReject(reviewRequestSchema, request.body);
        return service.reviewRequest(ctx, user, request.params.id, decision, body.reason);
      },
    );
  }
}
