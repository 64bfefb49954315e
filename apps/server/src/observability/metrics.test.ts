// /metrics against real PostgreSQL: where it is served (nowhere by default, behind the token, on
// a listener of its own), its format, and that each figure moves with what it counts.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import type { Config } from '../config.ts';
import { createKit, type Kit } from '../arena/arena.test-kit.ts';
import { auditLedger } from '../ledger/ledger.audit.ts';
import { notify } from '../notifications/notify.ts';
import { topics } from '../realtime/publish.ts';
import { listen, TestSocket } from '../realtime/test-socket.ts';
import { createTestApp } from '../test/app.ts';
import { freePort } from '../test/free-port.ts';
import { UNMATCHED_ROUTE } from './metrics.ts';
import { sample } from './test-metrics.ts';

const TOKEN = crypto.randomBytes(24).toString('hex');
const exposure = (over: Partial<Config['metrics']> = {}): Config['metrics'] => ({
  token: TOKEN,
  listen: undefined,
  escrowEveryMs: 0,
  auditEveryMs: 0,
  ...over,
});

let kit: Kit;
const extraApps: App[] = [];
beforeAll(async () => {
  kit = await createKit({}, { metrics: exposure() });
});
afterAll(async () => {
  for (const app of extraApps) await app.close();
  await kit?.close();
});

async function scrape(app: App = kit.app): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

const figure = async (name: string, labels: Record<string, string> = {}) => sample(await scrape(), name, labels) ?? 0;

/** Another app on the kit's database with these metrics settings. */
async function appWith(metrics: Config['metrics'], overrides: Partial<Config> = {}): Promise<App> {
  const app = await buildApp({ config: { ...kit.test.config, ...overrides, metrics }, db: kit.test.database.db, logger: false });
  extraApps.push(app);
  return app;
}

async function closeApp(app: App): Promise<void> {
  extraApps.splice(extraApps.indexOf(app), 1);
  await app.close();
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('where /metrics is served', () => {
  it('nowhere by default: 404 on the public port, even where the web app answers other paths', async () => {
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'versus-web-'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Versus</title>');
    const t = await createTestApp({ webDir });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/some/page' })).statusCode).toBe(200);
      for (const url of ['/metrics', '/metrics?name=x']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${TOKEN}` } });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ error: { code: 'not_found' } });
      }
    } finally {
      await t.close();
      fs.rmSync(webDir, { recursive: true, force: true });
    }
  });

  it("labels the web app's files as one route, whatever the file", async () => {
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'versus-web-'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Versus</title>');
    fs.writeFileSync(path.join(webDir, 'robots.txt'), 'User-agent: *\n');
    try {
      const app = await appWith(exposure(), { webDir });
      for (const url of ['/robots.txt', '/index.html', '/']) expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
      const text = await scrape(app);
      expect(sample(text, 'versus_http_request_duration_seconds_count', { route: '(static)', status_code: '200' })).toBe(2);
      expect(sample(text, 'versus_http_request_duration_seconds_count', { route: '/', status_code: '200' })).toBe(1);
      expect(text).not.toContain('robots.txt');
      await closeApp(app);
    } finally {
      fs.rmSync(webDir, { recursive: true, force: true });
    }
  });

  it('refuses a request without the token, or with another one (401)', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, `Basic ${TOKEN}`, TOKEN, 'Bearer']) {
      const res = await kit.app.inject({ method: 'GET', url: '/metrics', headers: authorization === undefined ? {} : { authorization } });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json()).toMatchObject({ error: { code: 'unauthorized' } });
      expect(res.body).not.toContain('versus_');
    }
  });

  it('answers the token in the Prometheus text format', async () => {
    const res = await kit.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    const lines = res.body.split('\n');
    expect(lines).toContain('# TYPE versus_http_request_duration_seconds histogram');
    expect(lines).toContain('# TYPE versus_moves_total counter');
    expect(lines).toContain('# TYPE versus_realtime_sockets gauge');
    // Every sample line is `name{labels} value` with a number for the value.
    for (const line of lines.filter((l) => l !== '' && !l.startsWith('#')))
      expect(line).toMatch(/^[a-zA-Z_:][\w:]*(\{.*\})? (-?[\d.e+-]+|NaN|[+-]Inf)$/);
    // Node's own figures come along where metrics are served.
    expect(sample(res.body, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(res.body, 'nodejs_eventloop_lag_seconds')).toBeDefined();
  });

  it('on a listener of its own (METRICS_PORT), and then not on the public port', async () => {
    const port = await freePort();
    const app = await appWith(exposure({ token: undefined, listen: { host: '127.0.0.1', port } }));
    await app.ready();
    const url = `http://127.0.0.1:${port}`;
    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await res.text()).toContain('# TYPE versus_db_pool_in_use gauge');
    expect((await fetch(`${url}/api/health`)).status).toBe(404);
    expect((await fetch(`${url}/metrics`, { method: 'POST' })).status).toBe(405);
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    await closeApp(app);
    await expect(fetch(`${url}/metrics`)).rejects.toThrow();
  });

  it('asks for the token on the listener too when one is set', async () => {
    const port = await freePort();
    const app = await appWith(exposure({ listen: { host: '127.0.0.1', port } }));
    await app.ready();
    const url = `http://127.0.0.1:${port}/metrics`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: 'Bearer wrong-token-of-some-length' } })).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    await closeApp(app);
  });

  it('refuses to start when the metrics port is taken', async () => {
    const port = await freePort();
    const holder = await appWith(exposure({ listen: { host: '127.0.0.1', port } }));
    await holder.ready();
    const second = await appWith(exposure({ listen: { host: '127.0.0.1', port } }));
    await expect(second.ready()).rejects.toThrow(`metrics: cannot listen on 127.0.0.1:${port} (METRICS_HOST, METRICS_PORT): EADDRINUSE`);
    await closeApp(second);
    await closeApp(holder);
  });
});

describe('the figures move', () => {
  it('HTTP latency by route pattern and status, one label for unmatched URLs', async () => {
    const health = { method: 'GET', route: '/api/health', status_code: '200' };
    const unmatched = { method: 'GET', route: UNMATCHED_ROUTE, status_code: '404' };
    const match = { method: 'GET', route: '/api/matches/:id', status_code: '401' };
    const before = await scrape();
    expect((await kit.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await kit.app.inject({ method: 'GET', url: '/api/no/such/thing-8137' })).statusCode).toBe(404);
    const id = crypto.randomUUID();
    expect((await kit.app.inject({ method: 'GET', url: `/api/matches/${id}` })).statusCode).toBe(401);
    const after = await scrape();
    for (const labels of [health, unmatched, match]) {
      expect(sample(after, 'versus_http_request_duration_seconds_count', labels), labels.route).toBe(
        (sample(before, 'versus_http_request_duration_seconds_count', labels) ?? 0) + 1,
      );
    }
    expect(sample(after, 'versus_http_request_duration_seconds_bucket', { ...health, le: '+Inf' })).toBe(
      sample(after, 'versus_http_request_duration_seconds_count', health),
    );
    // URLs themselves never become labels.
    expect(after).not.toContain('thing-8137');
    expect(after).not.toContain(id);
  });

  it('moves played and refused, their latency, and the group commit batch sizes', async () => {
    const alice = await kit.player('alice');
    const bob = await kit.player('bob');
    const id = await kit.match('tic-tac-toe', alice, bob);
    const view = await kit.start(id, alice, bob);
    const before = await scrape();
    const mover = kit.mover(view, [alice, bob]);
    const played = await kit.move(id, mover, 4, { version: view.version });
    expect(played.status, played.raw).toBe(200);
    const after = await scrape();
    const count = (text: string, name: string, labels: Record<string, string> = {}) => sample(text, name, labels) ?? 0;
    expect(count(after, 'versus_moves_total', { outcome: 'played' })).toBe(count(before, 'versus_moves_total', { outcome: 'played' }) + 1);
    expect(count(after, 'versus_moves_total', { outcome: 'refused' })).toBe(count(before, 'versus_moves_total', { outcome: 'refused' }));
    expect(count(after, 'versus_move_duration_seconds_count')).toBe(count(before, 'versus_move_duration_seconds_count') + 1);
    expect(count(after, 'versus_move_duration_seconds_sum')).toBeGreaterThan(count(before, 'versus_move_duration_seconds_sum'));
    expect(count(after, 'versus_match_writer_batch_size_count')).toBe(count(before, 'versus_match_writer_batch_size_count') + 1);
    expect(count(after, 'versus_match_writer_batch_size_sum')).toBe(count(before, 'versus_match_writer_batch_size_sum') + 1);

    // The same player again: not their turn. Refused, timed, nothing written.
    const refused = await kit.move(id, mover, 0);
    expect(refused.status, refused.raw).toBe(409);
    const later = await scrape();
    expect(count(later, 'versus_moves_total', { outcome: 'refused' })).toBe(count(after, 'versus_moves_total', { outcome: 'refused' }) + 1);
    expect(count(later, 'versus_moves_total', { outcome: 'played' })).toBe(count(after, 'versus_moves_total', { outcome: 'played' }));
    expect(count(later, 'versus_move_duration_seconds_count')).toBe(count(after, 'versus_move_duration_seconds_count') + 1);
    expect(count(later, 'versus_match_writer_batch_size_count')).toBe(count(after, 'versus_match_writer_batch_size_count'));
  });

  it('escrow totals per currency match the ledger once a challenge locks its stakes; the audit is clean', async () => {
    const carol = await kit.player('carol');
    const dave = await kit.player('dave');
    await kit.match('rock-paper-scissors', carol, dave, { stake: 40 });
    const text = await scrape();
    const audit = await auditLedger(kit.test.database.db);
    const credits = audit.currencies.find((c) => c.currency === 'credits')!;
    expect(credits.escrow).toBeGreaterThanOrEqual(2 * 40 * 100);
    for (const { currency, escrow, heldInEscrow } of audit.currencies) {
      expect(sample(text, 'versus_ledger_escrow_minor_units', { currency }), currency).toBe(escrow);
      expect(escrow).toBe(heldInEscrow);
    }
    expect(sample(text, 'versus_ledger_audit_ok')).toBe(1);
    expect(sample(text, 'versus_ledger_audit_problems')).toBe(0);
    expect(Math.abs(sample(text, 'versus_ledger_audit_timestamp_seconds')! - Date.now() / 1000)).toBeLessThan(60);
  });

  it('the audit gauge falls to 0 when an invariant breaks, and escrow is read no more often than asked', async () => {
    const app = await appWith(exposure({ escrowEveryMs: 60_000, auditEveryMs: 60_000 }));
    await app.ready();
    const first = await scrape(app);
    expect(sample(first, 'versus_ledger_audit_ok')).toBe(1);
    const db = kit.test.database.db;
    // A stake of 1 minor unit appears from nowhere in one escrow account (its holds do not say so), then is put back.
    const [account] = await db.query<{ id: number }>(
      `SELECT id FROM ledger_accounts WHERE kind = 'escrow' AND currency = 'credits' ORDER BY id LIMIT 1`,
    );
    try {
      await db.query('UPDATE ledger_accounts SET balance = balance + 1 WHERE id = $1', [account!.id]);
      // Within the cadence, the cached figures stand.
      expect(sample(await scrape(app), 'versus_ledger_escrow_minor_units', { currency: 'credits' })).toBe(
        sample(first, 'versus_ledger_escrow_minor_units', { currency: 'credits' }),
      );
      // A fresh read sees it.
      const fresh = await scrape();
      expect(sample(fresh, 'versus_ledger_audit_ok')).toBe(0);
      expect(sample(fresh, 'versus_ledger_audit_problems')).toBeGreaterThan(0);
      expect(sample(fresh, 'versus_ledger_escrow_minor_units', { currency: 'credits' })).toBe(
        sample(first, 'versus_ledger_escrow_minor_units', { currency: 'credits' })! + 1,
      );
    } finally {
      await db.query('UPDATE ledger_accounts SET balance = balance - 1 WHERE id = $1', [account!.id]);
    }
    expect(await figure('versus_ledger_audit_ok')).toBe(1);
    await closeApp(app);
  });

  it('open sockets, authenticated ones, subscriptions and topics', async () => {
    const url = await listen(kit.app);
    const erin = await kit.player('erin');
    const socket = await TestSocket.signedIn(url, erin.token);
    const anonymous = await TestSocket.open(url);
    try {
      socket.send({ t: 'sub', d: { topic: topics.user(erin.id) } });
      await socket.next('subscribed');
      const text = await scrape();
      expect(sample(text, 'versus_realtime_sockets')).toBe(2);
      expect(sample(text, 'versus_realtime_sockets_authenticated')).toBe(1);
      expect(sample(text, 'versus_realtime_subscriptions')).toBe(1);
      expect(sample(text, 'versus_realtime_topics')).toBe(1);
    } finally {
      socket.close();
      anonymous.close();
    }
    await until(async () => (await figure('versus_realtime_sockets')) === 0, 'the sockets to be gone');
    expect(await figure('versus_realtime_subscriptions')).toBe(0);
  });

  it('the database pool, and the LISTEN connection going down and coming back', async () => {
    const text = await scrape();
    expect(sample(text, 'versus_db_pool_max')).toBe(20);
    const open = sample(text, 'versus_db_pool_in_use')! + sample(text, 'versus_db_pool_idle')!;
    expect(open).toBeGreaterThanOrEqual(0);
    expect(open).toBeLessThanOrEqual(20);
    expect(sample(text, 'versus_db_pool_waiting')).toBe(0);
    expect(sample(text, 'versus_db_listen_up')).toBe(1);

    // Its backend ended (a restart, a failover): down, then listening again by itself.
    const ended = await kit.test.database.db.query<{ ended: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'`,
    );
    expect(ended.length).toBeGreaterThan(0);
    await until(async () => (await figure('versus_db_listen_up')) === 0, 'the LISTEN connection to be seen down');
    await until(async () => (await figure('versus_db_listen_up')) === 1, 'the LISTEN connection to come back');
  });

  it('notification delivery lag, from creation to the deliverers done', async () => {
    const frank = await kit.player('frank');
    const delivered: string[] = [];
    const stop = kit.app.services.deliverers.add((n) => {
      if (n.userId === frank.id) delivered.push(n.id);
    });
    try {
      const before = await figure('versus_notification_delivery_lag_seconds_count');
      await kit.test.database.db.transaction((tx) =>
        notify(tx, { userId: frank.id, type: 'system_announcement', metadata: { message: 'lag' } }),
      );
      await until(async () => delivered.length === 1, 'the delivery');
      // The kit's app is the only one on this database listening: it claimed the delivery.
      await until(async () => (await figure('versus_notification_delivery_lag_seconds_count')) >= before + 1, 'the lag to be observed');
      expect(await figure('versus_notification_delivery_lag_seconds_bucket', { le: '60' })).toBeGreaterThanOrEqual(before + 1);
    } finally {
      stop();
    }
  });
});
