// Where /metrics is served (nowhere by default; docs/operations.md), and every response's latency by route.
import crypto from 'node:crypto';
import http from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiErrorBody } from '@versus/domain/errors';
import type { App, AppContext } from '../context.ts';
import { UNMATCHED_ROUTE, type AppMetrics } from './metrics.ts';

export const METRICS_PATH = '/metrics';

// Not errorBody() from app.ts: importing a value from app.ts here would be an import cycle.
const UNAUTHORIZED: ApiErrorBody = { error: { code: 'unauthorized', message: 'Metrics need Authorization: Bearer <METRICS_TOKEN>.' } };

const digest = (value: string) => crypto.createHash('sha256').update(value).digest();

/** Whether the Authorization header carries the token (compared in constant time). */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match !== null && crypto.timingSafeEqual(digest(match[1]!), expected);
}

/** The route's pattern, one label for no route and one for the web app's files (a route each, marked config.file). */
function routeOf(request: FastifyRequest): string {
  const { url, config } = request.routeOptions;
  if (url === undefined) return UNMATCHED_ROUTE;
  return config && 'file' in config ? '(static)' : url;
}

/** Times every response by route and status. Registered before the routes. */
export function timeRequests(app: App, metrics: AppMetrics): void {
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    metrics.request(request.method, routeOf(request), reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/** Serves /metrics where ctx.config.metrics says (see the top of this file). */
export function exposeMetrics(app: App, ctx: AppContext): void {
  const { token, listen } = ctx.config.metrics;
  const expected = token === undefined ? undefined : digest(token);
  const allowed = (authorization: string | undefined) => expected === undefined || bearerMatches(authorization, expected);

  if (expected) {
    app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
      if (!allowed(request.headers.authorization)) return reply.status(401).header('www-authenticate', 'Bearer').send(UNAUTHORIZED);
      const text = await ctx.metrics.scrape();
      return reply.header('cache-control', 'no-store').type(ctx.metrics.contentType).send(text);
    });
  }

  if (!listen) return;
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== METRICS_PATH) return plain(response, 404, 'Not found: this listener serves /metrics only.\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(response, 405, 'Use GET.\n', { allow: 'GET, HEAD' });
    if (!allowed(request.headers.authorization))
      return plain(response, 401, `${UNAUTHORIZED.error.message}\n`, { 'www-authenticate': 'Bearer' });
    ctx.metrics.scrape().then(
      (text) => {
        response.writeHead(200, { 'content-type': ctx.metrics.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        ctx.log.error({ err: error }, 'metrics: scrape failed');
        plain(response, 500, 'The metrics could not be gathered; see the server log.\n');
      },
    );
  });
  // Opened with the app (app.listen, app.ready) and closed with it; a port taken refuses the start.
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      server.on('error', (error: NodeJS.ErrnoException) => {
        if (server.listening) ctx.log.error({ err: error }, 'metrics: listener error');
        else
          reject(
            new Error(
              `metrics: cannot listen on ${listen.host}:${listen.port} (METRICS_HOST, METRICS_PORT): ${error.code ?? error.message}`,
            ),
          );
      });
      server.listen(listen.port, listen.host, () => resolve());
    });
    ctx.log.info({ address: server.address() }, 'metrics: serving /metrics');
  });
  app.addHook('onClose', async () => {
    if (!server.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}

function plain(response: http.ServerResponse, status: number, text: string, headers: http.OutgoingHttpHeaders = {}): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  response.end(text);
}
