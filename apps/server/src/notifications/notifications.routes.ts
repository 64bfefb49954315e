// Notifications over HTTP, only ever the caller's own (another's id is "Notification not found"), and the jobs.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { NOTIFICATIONS } from '@versus/domain';
import {
  NOTIFICATION_RULES,
  listNotificationsQuerySchema,
  notificationListSchema,
  notificationPreferencesSchema,
  notificationResponseSchema,
  preferencesResponseSchema,
  readAllResponseSchema,
} from '@versus/domain/notifications';
import type { App } from '../context.ts';
import { requireUser } from '../auth/auth.plugin.ts';
import type { AccessClaims } from '../auth/claims.ts';
import type { AppContext } from '../context.ts';
import { errorResponses as errors } from '../http/errors.ts';
import { scheduleJob } from '../jobs/scheduler.ts';
import * as service from './notifications.service.ts';
import { rejectInvalid } from '../http/validation.ts';

const bearer = [{ bearer: [] }];
const tags = ['notifications'];
const idParams = z.object({ id: z.string().max(64) });

/** SPEC §2: signed out, it reads "Sign in to view notifications". */
const signedIn = (request: FastifyRequest): AccessClaims => requireUser(request, NOTIFICATIONS.signInToView);

/** Every 10 s, once across processes: players on the move for 30 s get "your turn". */
const TURN_SWEEP_MS = 10_000;
const DELIVERY_RECOVERY_MS = 60_000;

export async function notificationsFeature(app: App, ctx: AppContext): Promise<void> {
  const unlisten = await ctx.deliverers.listen(ctx.db, ctx.log, ctx.metrics.notificationLag);
  app.addHook('onClose', async () => unlisten());

  scheduleJob(app, ctx, {
    name: 'notifications.cleanup',
    everyMs: NOTIFICATION_RULES.cleanupEveryMs,
    runAtStart: true,
    async run() {
      const result = await service.cleanup(ctx);
      if (result.deleted + result.archived + result.expired + result.capped > 0) ctx.log.info(result, 'notifications cleanup');
      return result;
    },
  });
  scheduleJob(app, ctx, {
    name: 'notifications.turns',
    everyMs: TURN_SWEEP_MS,
    async run() {
      return { sent: await service.sweepTurns(ctx) };
    },
  });
  scheduleJob(app, ctx, {
    name: 'notifications.deliveries',
    everyMs: DELIVERY_RECOVERY_MS,
    async run() {
      return { recovered: await service.recoverDeliveries(ctx, ctx.log) };
    },
  });

  app.get(
    '/api/notifications',
    {
      attachValidation: true,
      schema: {
        tags,
        security: bearer,
        summary: 'My notifications, newest first (unread and read; not dismissed, archived or expired), with unread counts',
        description:
          `limit: 1 to ${NOTIFICATION_RULES.listMax}, default ${NOTIFICATION_RULES.listDefault}. ` +
          'urgentUnread counts unread high and critical ones.',
        querystring: listNotificationsQuerySchema,
        response: { 200: notificationListSchema, ...errors(400, 401) },
      },
    },
    async (request) => {
      const user = signedIn(request);
      rejectInvalid(request);
      return service.list(ctx, user, request.query.limit);
    },
  );

  app.post(
    '/api/notifications/read-all',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Mark every unread notification of mine as read',
        description: 'Publishes notification.read-all {count, at} on user:{id} when any changed.',
        response: { 200: readAllResponseSchema, ...errors(401) },
      },
    },
    async (request) => ({ count: await service.markAllRead(ctx, signedIn(request)) }),
  );

  app.post(
    '/api/notifications/:id/read',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Mark one notification of mine as read (idempotent)',
        description: '404 "Notification not found" for an unknown id or another user\'s. Publishes notification.updated.',
        params: idParams,
        response: { 200: notificationResponseSchema, ...errors(401, 404) },
      },
    },
    async (request) => ({ notification: await service.markRead(ctx, signedIn(request), request.params.id) }),
  );

  app.post(
    '/api/notifications/:id/dismiss',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Dismiss a notification of mine: it is read and leaves the list; a persistent one is only marked read',
        description: '404 "Notification not found" for an unknown id or another user\'s. Publishes notification.updated.',
        params: idParams,
        response: { 200: notificationResponseSchema, ...errors(401, 404) },
      },
    },
    async (request) => ({ notification: await service.dismiss(ctx, signedIn(request), request.params.id) }),
  );

  app.get(
    '/api/notifications/preferences',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'My notification preferences (the defaults until I save some)',
        response: { 200: preferencesResponseSchema, ...errors(401) },
      },
    },
    async (request) => ({ preferences: await service.getPreferences(ctx, signedIn(request)) }),
  );

  app.put(
    '/api/notifications/preferences',
    {
      attachValidation: true,
      schema: {
        tags,
        security: bearer,
        summary: 'Save my notification preferences (the whole object; one row per user, upserted)',
        description: '400 with the field for any invalid or unknown value; nothing is saved then.',
        body: notificationPreferencesSchema,
        response: { 200: preferencesResponseSchema, ...errors(400, 401) },
      },
    },
    // The service validates the raw body itself, so its message and field are the ones answered.
    async (request) => ({ preferences: await service.putPreferences(ctx, signedIn(request), request.body) }),
  );
}
