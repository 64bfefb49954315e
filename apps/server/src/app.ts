import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
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
import type { AppContext } from './context.ts';
import { AppError } from './http/errors.ts';
import { refuseUnstorableCharacters } from './http/characters.ts';
import { RetryLaterError } from './http/rate-limit.ts';
import { securityHeaders } from './http/security-headers.ts';
import { features } from './features.ts';
import { Lifecycle } from './lifecycle.ts';
import { probeDatabase, registerReadiness } from './readiness.ts';

export type App = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  import('fastify').FastifyBaseLogger,
  ZodTypeProvider
>;

export interface BuildOptions {
  config: Config;
  db: Database;
  /** pino options; tests pass false to keep output quiet. */
  logger?: boolean | object;
  /** Serving, draining, closing: main.ts moves it on SIGTERM (default: a new one, serving). */
  lifecycle?: Lifecycle;
}

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

export async function buildApp({ config, db, logger, lifecycle = new Lifecycle() }: BuildOptions): Promise<App> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
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

  const ctx: AppContext = { config, db, log: app.log };

  app.get('/api/health', { schema: { hide: true } }, async (request, reply) => {
    const probe = await probeDatabase(db);
    if (probe.up) return { status: 'ok', database: { kind: db.kind, status: 'up', latencyMs: probe.latencyMs } };
    request.log.warn({ err: probe.error }, 'health: the database does not answer');
    return reply.status(503).send({ status: 'degraded', database: { kind: db.kind, status: 'down' } });
  });
  registerReadiness(app, db, lifecycle);

  for (const feature of features) await feature(app, ctx);

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

const indexHtml = (config: Config) => path.join(config.webDir ?? '', 'index.html');
// Paths the SPA must not answer: the API, and build assets (a missing chunk is a 404, not a page).
const isApiPath = (url: string) =>
  url.startsWith('/api/') || url === '/api' || url.startsWith('/auth/') || url.startsWith('/realtime') || url.startsWith('/assets/');

export function errorBody(code: string, message: string, field?: string): ApiErrorBody {
  return { error: field ? { code, message, field } : { code, message } };
}

function errorHandler(this: FastifyInstance, error: FastifyError, request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) {
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
