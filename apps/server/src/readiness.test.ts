// Readiness apart from liveness, and the drain on SIGTERM: served through the grace, then sockets closed
// with 1012 and the rest refused with 503 and Retry-After.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALTIME_CLOSE } from '@versus/domain/realtime';
import { buildApp, type App } from './app.ts';
import type { Database } from './db/database.ts';
import { Lifecycle } from './lifecycle.ts';
import type { Readiness } from './readiness.ts';
import { signUp, TestSocket } from './realtime/test-socket.ts';
import { createTestApp, type TestApp } from './test/app.ts';
import { startChildServer, type ChildServer } from './test/child-server.ts';

describe('/api/ready', () => {
  let t: TestApp;
  let app: App;
  let lifecycle: Lifecycle;
  /** Flipped by the tests: the database's queries fail, its LISTEN connection is down. */
  const fault = { queries: false, listener: false };

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const faulty: Database = {
      ...db,
      query: (...args) => (fault.queries ? Promise.reject(new Error('Connection terminated unexpectedly')) : db.query(...args)),
      listenerUp: () => !fault.listener && (db.listenerUp?.() ?? true),
    };
    lifecycle = new Lifecycle();
    app = await buildApp({ config: t.config, db: faulty, logger: false, lifecycle });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  const ready = async () => {
    const res = await app.inject({ method: 'GET', url: '/api/ready' });
    return { status: res.statusCode, body: res.json<Readiness>(), cache: res.headers['cache-control'] };
  };

  it('is 200 with every check up, and never cached', async () => {
    expect(await ready()).toEqual({
      status: 200,
      body: { status: 'ready', failed: [], checks: { database: 'up', listen: 'up', migrations: 'applied', drain: 'serving' } },
      cache: 'no-store',
    });
  });

  it('is 503 naming the check that failed: the database, or the LISTEN connection', async () => {
    fault.queries = true;
    expect(await ready()).toMatchObject({
      status: 503,
      body: { status: 'not_ready', failed: ['database'], checks: { database: 'down', migrations: 'applied' } },
    });
    // Liveness says the same about the database, as it always has.
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503);
    fault.queries = false;
    fault.listener = true;
    expect(await ready()).toMatchObject({ status: 503, body: { failed: ['listen'], checks: { database: 'up', listen: 'down' } } });
    fault.listener = false;
    expect((await ready()).status).toBe(200);
  });

  it('is 503 while draining, when everything else is still served', async () => {
    lifecycle.drain();
    expect(await ready()).toMatchObject({ status: 503, body: { failed: ['drain'], checks: { drain: 'draining' } } });
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/openapi.json' })).statusCode).toBe(200);
  });

  it('refuses whatever arrives once closing with 503, Retry-After and the unavailable message', async () => {
    lifecycle.close();
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.headers.connection).toBe('close');
    expect(res.json()).toEqual({ error: { code: 'unavailable', message: 'Service temporarily unavailable, please retry' } });
  });
});

describe('/api/ready on a real PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('is 503 while a migration this build knows is not recorded as applied', async () => {
    const [last] = await t.database.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name DESC LIMIT 1');
    await t.database.db.query('DELETE FROM schema_migrations WHERE name = $1', [last!.name]);
    const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ failed: ['migrations'], checks: { migrations: 'pending' } });
    await t.database.db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [last!.name]);
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });

  it('is 503 from the moment its LISTEN connection is lost until it listens again', async () => {
    const seen = new Set<string>();
    const look = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
      seen.add(`${res.statusCode} ${res.json<Readiness>().failed.join(',')}`);
      return res.statusCode;
    };
    await t.database.db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
    );
    await expect.poll(look, { timeout: 2_000, interval: 5 }).toBe(503);
    await expect.poll(look, { timeout: 10_000, interval: 20 }).toBe(200);
    expect([...seen]).toContain('503 listen');
  });
});

describe('draining on SIGTERM (a real process)', () => {
  const GRACE_MS = 1500;
  let t: TestApp;
  let server: ChildServer;
  beforeAll(async () => {
    t = await createTestApp();
    server = await startChildServer(t.database.url, { DRAIN_GRACE_MS: String(GRACE_MS) }, { until: '/api/ready' });
  }, 60_000);
  afterAll(async () => {
    server?.kill();
    await t?.close();
  });

  it('fails readiness at once, serves through the grace, then closes its sockets with 1012 and exits 0', async () => {
    const player = await signUp(server.http, 'drain');
    const socket = await TestSocket.signedIn(server.ws, player.token);
    const closed = socket.waitClosed(GRACE_MS + 5_000);

    const term = performance.now();
    server.process.kill('SIGTERM');
    await expect.poll(async () => (await fetch(`${server.http}/api/ready`)).status, { timeout: 1000, interval: 20 }).toBe(503);
    const readyAnswer = await (await fetch(`${server.http}/api/ready`)).json();
    expect(readyAnswer).toMatchObject({ status: 'not_ready', failed: ['drain'] });

    // Still served: liveness, a signed-in API request, the socket.
    expect((await fetch(`${server.http}/api/health`)).status).toBe(200);
    const me = await fetch(`${server.http}/api/auth/user`, { headers: { authorization: `Bearer ${player.token}` } });
    expect(me.status).toBe(200);
    await socket.settle();
    expect(socket.closed).toBeUndefined();

    expect(await closed).toMatchObject({ code: REALTIME_CLOSE.restart });
    expect(performance.now() - term).toBeGreaterThanOrEqual(GRACE_MS - 50);
    expect(await server.exited).toBe(0);
  });
});
