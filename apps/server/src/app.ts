import fs from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import staticFiles from '@fastify/static';
import swagger from '@fastify/swagger';
import websocket from '@fastify/websocket';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { GENERIC } from '@versus/domain/messages';
import type { ApiErrorBody } from '@versus/domain/errors';
import type { Config } from './config.ts';
import { isDatabaseUnavailable, type Database } from './db/database.ts';
import type { App, AppContext } from './context.ts';
import { AppError } from './http/errors.ts';
import { refuseUnstorableCharacters } from './http/characters.ts';
import { RetryLaterError } from './http/rate-limit.ts';
import { securityHeaders } from './http/security-headers.ts';
import { SecretCache } from './db/secrets.ts';
import { TopicRules } from './realtime/topic-rules.ts';
import { createHub, realtimeFeature } from './realtime/realtime.routes.ts';
import { ChallengeListCache } from './challenges/challenges.cache.ts';
import { NotificationDeliverers } from './notifications/notify.ts';
import { Arena } from './arena/arena.service.ts';
import { authFeature } from './auth/auth.routes.ts';
import { walletFeature } from './wallet/wallet.routes.ts';
import { virtualStatsFeature } from './wallet/virtual-stats.routes.ts';
import { challengesFeature } from './challenges/challenges.routes.ts';
import { arenaFeature } from './arena/arena.routes.ts';
import { roomsFeature } from './rooms/rooms.routes.ts';
import { resultsFeature } from './results/results.routes.ts';
import { adminFeature } from './admin/admin.routes.ts';
import { historyFeature } from './results/history.routes.ts';
import { notificationsFeature } from './notifications/notifications.routes.ts';
import { pushFeature } from './notifications/push/push.routes.ts';
import { remindersFeature } from './notifications/reminders/reminders.routes.ts';
import { profileFeature } from './profile/profile.routes.ts';
import { leaderboardsFeature } from './leaderboards/leaderboards.routes.ts';
import { socialFeature } from './social/social.routes.ts';
import { verificationFeature } from './verification/verification.routes.ts';
import { feedbackFeature } from './feedback/feedback.routes.ts';
import { tournamentsFeature } from './tournaments/tournaments.routes.ts';
import { Tournaments } from './tournaments/tournaments.service.ts';
import { createMetrics } from './observability/metrics.ts';
import { exposeMetrics, METRICS_PATH, timeRequests } from './observability/metrics.routes.ts';
import { openFileStore } from './storage/open-file-store.ts';
import { Lifecycle } from './lifecycle.ts';
import { probeDatabase, registerReadiness } from './readiness.ts';

export type { App } from './context.ts';

/** What buildApp made, for tests and benchmarks that drive the parts behind the routes. */
export interface AppServices extends AppContext {
  arena: Arena;
  /** Runs the tournaments (tests set its clock). */
  tournaments: Tournaments;
}

declare module 'fastify' {
  interface FastifyInstance {
    readonly services: AppServices;
  }
}

export interface BuildOptions {
  config: Config;
  db: Database;
  /** pino options; tests pass false to keep output quiet. */
  logger?: boolean | object;
  /** Serving, draining, closing: main.ts moves it on SIGTERM (default: a new one, serving). */
  lifecycle?: Lifecycle;
}

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** Built once per app, in the order they need; nothing starts here (the realtime feature starts the hub). */
export function createServices(base: Pick<AppContext, 'config' | 'db' | 'log' | 'files'>): AppServices {
  const { config, db, log } = base;
  const metrics = createMetrics({
    db,
    hub: () => hub,
    warn: (obj, msg) => log.warn(obj, msg),
    escrowEveryMs: config.metrics.escrowEveryMs,
    auditEveryMs: config.metrics.auditEveryMs,
    processMetrics: config.metrics.token !== undefined || config.metrics.listen !== undefined,
  });
  const shared = { ...base, metrics, topics: new TopicRules(), secrets: new SecretCache(db) };
  const hub = createHub(shared, { move: (user, move) => arena.socketMove(user, move) });
  const ctx: AppContext = { ...shared, hub, challengeList: new ChallengeListCache(), deliverers: new NotificationDeliverers() };
  const arena = new Arena(ctx);
  return { ...ctx, arena, tournaments: new Tournaments(ctx, arena) };
}

export async function buildApp({ config, db, logger, lifecycle = new Lifecycle() }: BuildOptions): Promise<App> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    logController: new OneLinePerRequest(),
    // A number of hops: the nearest n proxies (proxy-addr takes the count as a function).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 1024 * 1024,
    // On close, idle keep-alive sockets are dropped at once and busy ones finish first.
    forceCloseConnections: 'idle',
    // Requests that arrive while closing get our 503 with Retry-After (readiness.ts), not Fastify's bare one.
    return503OnClosing: false,
    // Slow clients are cut off (docs/security.md). A WebSocket leaves these behind once upgraded.
    connectionTimeout: config.timeouts.idleMs,
    requestTimeout: config.timeouts.requestMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    http: {
      headersTimeout: Math.min(config.timeouts.headersMs, config.timeouts.requestMs),
      requestTimeout: config.timeouts.requestMs,
      // Node checks the two above on this beat (30 s by default, longer than the header timeout).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(config.timeouts.headersMs / 4))),
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  // Before any route: a NUL or an unpaired surrogate in a body or query is a 400 (neither can be stored).
  refuseUnstorableCharacters(app);
  app.setNotFoundHandler((request, reply) => {
    if (request.method === 'GET' && config.webDir && !isApiPath(request.url) && fs.existsSync(indexHtml(config))) {
      // Client-side routes: the SPA decides what to show, including its own 404 page.
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
    }
    // The static plugin may already have typed the reply (a missing /assets file): say JSON.
    return reply.status(404).type('application/json; charset=utf-8').send(errorBody('not_found', GENERIC.routeNotFound));
  });

  await securityHeaders(app);
  // JSON (and any other text) over 1 KB is compressed; built assets come precompressed below.
  await app.register(compress, { threshold: 1024 });
  await app.register(cookie);
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Versus API', version: '0.1.0', description: 'Stake credits on head-to-head challenges.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  const files = await openFileStore(config, db);
  app.addHook('onClose', async () => files.close?.());
  const services = createServices({ config, db, log: app.log, files });
  const { arena, tournaments, ...ctx } = services;
  app.decorate('services', services);
  app.addHook('onClose', () => arena.close());
  timeRequests(app, ctx.metrics);
  exposeMetrics(app, ctx);

  app.get('/api/health', { schema: { hide: true } }, async (request, reply) => {
    const probe = await probeDatabase(db);
    if (probe.up) return { status: 'ok', database: { kind: db.kind, status: 'up', latencyMs: probe.latencyMs } };
    request.log.warn({ err: probe.error }, 'health: the database does not answer');
    return reply.status(503).send({ status: 'degraded', database: { kind: db.kind, status: 'down' } });
  });
  registerReadiness(app, db, lifecycle);

  authFeature(app, ctx);
  await realtimeFeature(app, ctx);
  walletFeature(app, ctx);
  virtualStatsFeature(app, ctx);
  await challengesFeature(app, ctx);
  arenaFeature(app, ctx, arena);
  await tournamentsFeature(app, ctx, tournaments);
  await roomsFeature(app, ctx);
  await resultsFeature(app, ctx);
  adminFeature(app, ctx);
  historyFeature(app, ctx);
  await notificationsFeature(app, ctx);
  await pushFeature(app, ctx);
  await remindersFeature(app, ctx);
  socialFeature(app, ctx);
  verificationFeature(app, ctx);
  await feedbackFeature(app, ctx);
  await profileFeature(app, ctx);
  leaderboardsFeature(app, ctx);

  if (config.webDir && fs.existsSync(config.webDir)) {
    await app.register(staticFiles, {
      root: config.webDir,
      wildcard: false,
      index: false,
      // app.js.br / app.js.gz made by the web build: sent as they are to a browser that takes them.
      preCompressed: true,
      setHeaders(res, filePath) {
        // Hashed build assets never change; everything else is revalidated.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.get('/', (_request, reply) => reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html'));
  }

  return app;
}

/** Each request as one log line when it is answered: the request, its status and its time (ms). */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

const indexHtml = (config: Config) => path.join(config.webDir ?? '', 'index.html');
// Paths the SPA must not answer: the API, and build assets (a missing chunk is a 404, not a page).
const isApiPath = (url: string) =>
  url.startsWith('/api/') ||
  url === '/api' ||
  url.startsWith('/auth/') ||
  url.startsWith('/realtime') ||
  url.startsWith('/assets/') ||
  url.split('?')[0] === METRICS_PATH;

export function errorBody(code: string, message: string, field?: string): ApiErrorBody {
  return { error: field ? { code, message, field } : { code, message } };
}

function errorHandler(this: FastifyInstance, error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    if (error instanceof RetryLaterError) reply.header('retry-after', String(error.retryAfterSeconds));
    return reply.status(error.status).send(errorBody(error.code, error.message, error.field));
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const [first] = error.validation;
    const field = first?.instancePath.replace(/^\//, '').replaceAll('/', '.') || undefined;
    const message = first?.message ?? GENERIC.other;
    return reply.status(400).send(errorBody('invalid_input', field ? `${field}: ${message}` : message, field));
  }
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (error instanceof SyntaxError && error.statusCode === 400)) {
    return reply.status(400).send(errorBody('malformed_json', GENERIC.malformedJson));
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return reply.status(error.statusCode).send(errorBody(error.code?.toLowerCase() ?? 'bad_request', error.message));
  }
  if (isDatabaseUnavailable(error)) {
    // A lost or refused connection: the work was rolled back (a COMMIT cut mid-way may have landed).
    request.log.warn({ err: error }, 'database unavailable');
    return reply.status(503).header('retry-after', '1').send(errorBody('unavailable', GENERIC.unavailable));
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send(errorBody('internal', GENERIC.other));
}
