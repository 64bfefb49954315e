import { REALTIME_LIMITS, REALTIME_PATH } from '@versus/domain/realtime';
import type { ApiErrorBody } from '@versus/domain/errors';
import type { App } from '../app.ts';
import { liveSessions } from '../auth/auth.repository.ts';
import { verifyAccessTokenDetailed } from '../auth/tokens.ts';
import { addressKey } from '../http/rate-limit.ts';
import type { AppContext } from '../context.ts';
import { scheduleJob } from '../jobs/scheduler.ts';
import { canFollow, countsAsPresent, ownerVersion } from './authorize.ts';
import { playMove, setLocalHub } from './commands.ts';
import { RealtimeHub, type HubOptions } from './hub.ts';
import { pruneEvents } from './realtime.repository.ts';

/** How often events older than the retention (24 h) are pruned. */
const PRUNE_EVERY_MS = 15 * 60 * 1000;

// Not errorBody() from app.ts: importing a value from app.ts here would be an import cycle.
const UPGRADE_REQUIRED: ApiErrorBody = { error: { code: 'upgrade_required', message: 'Connect with a WebSocket' } };

export type RealtimeOptions = Partial<Omit<HubOptions, 'db' | 'log'>>;

/**
 * Mounts the hub at GET /realtime. Options exist for tests (a stand-in token verifier,
 * shorter timeouts); the app itself passes none.
 */
export async function registerRealtime(app: App, ctx: AppContext, options: RealtimeOptions = {}): Promise<RealtimeHub> {
  const hub = new RealtimeHub({
    db: ctx.db,
    log: ctx.log,
    verify: async (token) => {
      const verified = await verifyAccessTokenDetailed(ctx, token);
      return verified && { userId: verified.userId, role: verified.role, accountType: verified.accountType, expiresAt: verified.expiresAt, sessionId: verified.sessionId };
    },
    liveSessions: (sessions) => liveSessions(ctx.db, sessions),
    authorize: (user, topic) => canFollow(ctx, user, topic),
    ownerVersion: (topic, follower) => ownerVersion(ctx, topic, follower),
    presentOn: (user, topic) => countsAsPresent(ctx, user, topic),
    move: (user, move) => playMove(ctx, user, move),
    limits: { socketsPerAccount: ctx.config.limits.socketsPerAccount, socketsPerAddress: ctx.config.limits.socketsPerAddress },
    ...options,
  });
  await hub.start();
  setLocalHub(ctx, hub);

  app.route({
    method: 'GET',
    url: REALTIME_PATH,
    schema: { hide: true },
    handler: (_request, reply) =>
      reply.status(426).header('upgrade', 'websocket').send(UPGRADE_REQUIRED),
    wsHandler: (socket, request) => {
      // The hub closes its sockets itself, with 1012 so clients reconnect; @fastify/websocket's
      // own preClose would close them first with no code at all.
      app.websocketServer.clients.delete(socket);
      hub.accept(socket, addressKey(request.ip));
    },
  });
  app.addHook('preClose', () => hub.close());

  // Once per period across all processes (the DELETE would also be safe run concurrently).
  scheduleJob(app, ctx, {
    name: 'realtime.prune-events',
    everyMs: PRUNE_EVERY_MS,
    runAtStart: true,
    async run() {
      const deleted = await pruneEvents(ctx.db, REALTIME_LIMITS.retentionMs);
      if (deleted > 0) ctx.log.info({ deleted }, 'realtime: pruned old events');
      return deleted;
    },
  });
  return hub;
}

export const realtimeFeature = async (app: App, ctx: AppContext): Promise<void> => {
  await registerRealtime(app, ctx);
};
