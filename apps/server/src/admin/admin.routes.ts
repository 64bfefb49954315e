// The admin API: dashboard, dispute queue, resolution. Every route: 401 signed out, 403 not admin.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  dashboardSchema,
  disputeListQuerySchema,
  disputeListSchema,
  resolveRequestSchema,
  resolveResponseSchema,
  voidMatchRequestSchema,
  voidMatchResponseSchema,
} from '@versus/domain/results';
import type { App, AppContext } from '../context.ts';
import { requireRole, requireUser } from '../auth/auth.plugin.ts';
import { badRequest } from '../http/errors.ts';
import * as service from './admin.service.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];
const admin = (request: FastifyRequest) => requireRole(request, 'admin');

/** An admin request's body by its schema; the first problem as a 400 (after who may ask is settled). */
function bodyOf<T>(schema: z.ZodType<T>, request: FastifyRequest): T {
  const parsed = schema.safeParse(request.body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw badRequest('invalid_input', issue?.message ?? 'Invalid request', String(issue?.path[0] ?? ''));
}

export function adminFeature(app: App, ctx: AppContext): void {
  // The bare `admin` topic (dispute.opened, dispute.resolved): admins only.
  ctx.topics.authorize('admin', ({ user, id }) => id === undefined && user.role === 'admin');

  app.get(
    '/api/admin/dashboard',
    {
      schema: {
        tags,
        security,
        summary: 'Live counts (users, open challenges, active matches, open disputes, escrow held per currency) and the ledger audit',
        response: { 200: dashboardSchema },
      },
    },
    async (request) => {
      admin(request);
      return service.dashboard(ctx.db);
    },
  );

  app.get(
    '/api/admin/disputes',
    {
      schema: {
        tags,
        security,
        summary: "Dispute queue, oldest first: both reports, evidence links, statements, the match chat, both players' dispute records",
        description: 'Filters: game, minAgeMinutes, minStake, maxStake, status (open by default, resolved, all).',
        response: { 200: disputeListSchema },
      },
    },
    async (request) => {
      admin(request);
      const parsed = disputeListQuerySchema.safeParse(request.query ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw badRequest('invalid_input', `${issue?.path.join('.') ?? 'query'}: ${issue?.message ?? 'invalid'}`, issue?.path.join('.'));
      }
      return { disputes: await service.listDisputes(ctx.db, parsed.data) };
    },
  );

  app.get(
    '/api/disputes',
    {
      schema: {
        tags: ['results'],
        security,
        summary: 'My disputes (open and resolved, oldest first): both reports, statements, evidence links, the chat, the resolution',
        response: { 200: disputeListSchema },
      },
    },
    async (request) => ({ disputes: await service.myDisputes(ctx.db, requireUser(request)) }),
  );

  app.post(
    '/api/admin/disputes/:id/resolve',
    {
      schema: {
        tags,
        security,
        summary:
          "Resolve a dispute {outcome: 'player1'|'player2'|'draw'|'void', reason}: settled through the ledger, " +
          'both players notified (dispute.resolved); a second resolution is 409',
        params: z.object({ id: z.string().max(64) }),
        response: { 200: resolveResponseSchema },
      },
    },
    async (request) => {
      const user = admin(request);
      return { dispute: await service.resolveDispute(ctx, user, request.params.id, bodyOf(resolveRequestSchema, request)) };
    },
  );

  app.post(
    '/api/admin/matches/:id/void',
    {
      schema: {
        tags,
        security,
        summary:
          'Void a web match that cannot go on (its stored moves no longer replay, or it is stuck) {reason}: ' +
          'each stake back through the ledger, both players told; ' +
          '409 when it is over or changed meanwhile, 403 for an admin who plays in it',
        params: z.object({ id: z.string().max(64) }),
        response: { 200: voidMatchResponseSchema },
      },
    },
    async (request) => {
      const user = admin(request);
      return service.voidMatch(ctx, user, request.params.id, bodyOf(voidMatchRequestSchema, request));
    },
  );
}
