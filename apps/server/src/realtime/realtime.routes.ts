import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { REALTIME_LIMITS, REALTIME_PATH } from '@versus/domain/realtime';
import type { ApiErrorBody } from '@versus/domain/errors';
import { liveSessions } from '../auth/auth.repository.ts';
import { verifyAccessTokenDetailed } from '../auth/tokens.ts';
import type { App, AppContext } from '../context.ts';
import { addressKey } from '../http/rate-limit.ts';
import { scheduleJob } from '../jobs/scheduler.ts';
import { RealtimeHub, type HubOptions } from './hub.ts';
import { pruneEvents } from './realtime.repository.ts';

/** How often events older than the retention (24 h) are pruned. */
const PRUNE_EVERY_MS = 15 * 60 * 1000;

const UPGRADE_REQUIRED: ApiErrorBody = { error: { code: 'upgrade_required', message: 'Connect with a WebSocket' } };

/** Hub options tests may replace (a stand-in token verifier, shorter timeouts); the app passes none. */
export type RealtimeOptions = Partial<Omit<HubOptions, 'db' | 'log'>>;

/** This process's hub: tokens verified as every request's are, topics ruled by `ctx.topics`. */
export function createHub(
  ctx: Pick<AppContext, 'config' | 'db' | 'log' | 'topics' | 'secrets'>,
  options: RealtimeOptions = {},
): RealtimeHub {
  return new RealtimeHub({
    db: ctx.db,
    log: ctx.log,
    verify: async (token) => {
      const verified = await verifyAccessTokenDetailed(ctx, token);
      return (
        verified && {
          userId: verified.userId,
          role: verified.role,
          accountType: verified.accountType,
          expiresAt: verified.expiresAt,
          sessionId: verified.sessionId,
        }
      );
    },
    liveSessions: (sessions) => liveSessions(ctx.db, sessions),
    authorize: (user, topic) => ctx.topics.canFollow(user, topic),
    ownerVersion: (topic, follower) => ctx.topics.ownerVersion(topic, follower),
    presentOn: (user, topic) => ctx.topics.countsAsPresent(user, topic),
    limits: { socketsPerAccount: ctx.config.limits.socketsPerAccount, socketsPerAddress: ctx.config.limits.socketsPerAddress },
    ...options,
  });
}

/**
 * Lets the upgrade's HTTP request and response go (~3.5 KB a socket, bench/moves README "Scale"): the response stays on the TCP
 * socket and @fastify/websocket's error listener holds the request and reply for as long as the socket lives.
 */
function releaseUpgrade(socket: WebSocket, tcp: Socket, log: FastifyBaseLogger): void {
  (tcp as Socket & { _httpMessage?: ServerResponse | null })._httpMessage?.detachSocket(tcp);
  socket.removeAllListeners('error');
  // As @fastify/websocket's own handler: a protocol error (an unclean disconnect) ends the socket.
  socket.on('error', (error) => {
    log.debug({ err: error }, 'realtime: socket error');
    socket.terminate();
  });
}

/** Starts `ctx.hub`, mounts it at GET /realtime and prunes old events. */
export async function realtimeFeature(
  app: App,
  ctx: Pick<AppContext, 'config' | 'db' | 'log' | 'hub'> & Partial<Pick<AppContext, 'metrics'>>,
): Promise<void> {
  const { hub } = ctx;
  await hub.start();
  app.route({
    method: 'GET',
    url: REALTIME_PATH,
    schema: { hide: true },
    handler: (_request, reply) => reply.status(426).header('upgrade', 'websocket').send(UPGRADE_REQUIRED),
    wsHandler: (socket, request) => {
      // The hub closes its sockets itself, with 1012 so clients reconnect; @fastify/websocket's
      // own preClose would close them first with no code at all.
      app.websocketServer.clients.delete(socket);
      const tcp = request.raw.socket;
      releaseUpgrade(socket, tcp, ctx.log);
      hub.accept(socket, addressKey(request.ip), tcp);
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
}
