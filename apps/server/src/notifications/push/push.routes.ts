// Web Push over HTTP (the notifications contract): the VAPID public key, and subscribing or
// unsubscribing this device. Every route is for the signed-in user and their own rows only.
import { z } from 'zod';
import { NOTIFICATION_RULES } from '@versus/domain/notifications';
import type { App } from '../../context.ts';
import { requireUser } from '../../auth/auth.plugin.ts';
import type { AppContext } from '../../context.ts';
import { scheduleJob } from '../../jobs/scheduler.ts';
import { endpointPolicyFromEnv } from './push.endpoints.ts';
import { preferencesOf } from '../notifications.service.ts';
import * as repo from './push.repository.ts';
import * as service from './push.service.ts';
import { errorResponses as errors } from '../../http/errors.ts';

const bearer = [{ bearer: [] }];
const tags = ['notifications'];

const endpointSchema = z.string().min(1).max(2048);
export const subscribeRequestSchema = z.object({
  endpoint: endpointSchema,
  // PushSubscription.toJSON() also carries expirationTime; it is accepted and not kept.
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: z.string().max(256), auth: z.string().max(64) }),
  userAgent: z.string().max(1000).optional(),
});
export const unsubscribeRequestSchema = z.object({ endpoint: endpointSchema });

export type PushFeatureOptions = Pick<service.PushContext, 'preferencesOf'> &
  Partial<Pick<service.PushContext, 'endpoints' | 'vapidSubject'>>;

export function pushContext(ctx: AppContext, options: PushFeatureOptions): service.PushContext {
  return {
    db: ctx.db,
    log: ctx.log,
    secrets: ctx.secrets,
    endpoints: options.endpoints ?? endpointPolicyFromEnv(),
    vapidSubject: options.vapidSubject ?? process.env.VAPID_SUBJECT ?? service.DEFAULT_VAPID_SUBJECT,
    preferencesOf: options.preferencesOf,
  };
}

export async function registerPushRoutes(app: App, push: service.PushContext, ctx: AppContext): Promise<void> {
  // Generated at start, not on the first request, so every process agrees before anyone asks.
  await service.vapidKeys(push.secrets);

  scheduleJob(app, ctx, {
    name: 'notifications.push-dedupe-prune',
    everyMs: NOTIFICATION_RULES.pushDedupeMs,
    async run() {
      return repo.pruneDedupe(push.db, new Date(), NOTIFICATION_RULES.pushDedupeMs);
    },
  });

  app.get(
    '/api/notifications/push/public-key',
    {
      schema: {
        tags,
        security: bearer,
        summary: "The server's VAPID public key (base64url), for PushManager.subscribe's applicationServerKey",
        response: { 200: z.object({ publicKey: z.string() }), ...errors(401) },
      },
    },
    async (request) => {
      requireUser(request);
      return { publicKey: (await service.vapidKeys(push.secrets)).publicKey };
    },
  );

  app.post(
    '/api/notifications/push/subscriptions',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Subscribe this device to Web Push (PushSubscription.toJSON()); upserted by endpoint',
        description:
          'The endpoint must be the https address of a known push service (FCM, Mozilla, WNS, Apple) or an origin the ' +
          'operator lists in PUSH_ENDPOINT_ORIGINS; keys.p256dh a P-256 point and keys.auth 16 bytes, base64url. An ' +
          'endpoint already subscribed by another account moves to the caller (one browser, one owner).',
        body: subscribeRequestSchema,
        response: { 201: z.object({ id: z.string() }), ...errors(400, 401) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { id } = await service.subscribe(push, user.userId, request.body);
      return reply.status(201).send({ id });
    },
  );

  app.delete(
    '/api/notifications/push/subscriptions',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Unsubscribe this device (its endpoint) from Web Push',
        description: '404 "Push subscription not found" unless the caller has a subscription with this endpoint.',
        body: unsubscribeRequestSchema,
        response: { 204: z.null(), ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      await service.unsubscribe(push, user.userId, request.body.endpoint);
      return reply.status(204).send(null);
    },
  );
}

/** The feature: routes, the dedupe prune job, and delivery of every committed notification. */
export async function pushFeature(app: App, ctx: AppContext): Promise<void> {
  const push = pushContext(ctx, { preferencesOf });
  await registerPushRoutes(app, push, ctx);
  const stop = ctx.deliverers.add(async (notification) => {
    const outcome = await service.deliver(push, notification);
    if ('sent' in outcome && (outcome.failed > 0 || outcome.removed > 0))
      ctx.log.info({ notificationId: notification.id, ...outcome }, 'push: delivered');
  });
  app.addHook('onClose', async () => {
    stop();
  });
}
