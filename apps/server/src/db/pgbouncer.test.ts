// Through a transaction-mode PgBouncer (docs/operations.md, "Through PgBouncer"), the core loop plays to
// its payout.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../context.ts';
import { buildApp } from '../app.ts';
import { createKit, playTicTacToeGame, type Kit } from '../arena/arena.test-kit.ts';
import { TestSocket, listen } from '../realtime/test-socket.ts';
import { admin, createTestDatabase, urlFor, type TestDatabase } from '../test/database.ts';
import { pgbouncerUnavailable, startPgbouncer, type Bouncer } from '../test/pgbouncer.ts';
import { openPostgres, type Database, type PostgresOptions } from './database.ts';
import { BASELINE, migrate } from './migrate.ts';

const unavailable = pgbouncerUnavailable();
/** Fewer server connections than the pools have clients, so a client's queries change server connection. */
const SERVER_POOL = 3;

describe.skipIf(unavailable !== null)(`through PgBouncer in transaction mode${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let bouncer: Bouncer;
  let direct: TestDatabase;
  const opened: Database[] = [];

  /** The test database through the PgBouncer, LISTEN straight to PostgreSQL. */
  function through(url: string, options: PostgresOptions = {}): Database {
    const db = openPostgres(bouncer.url(url), { listenUrl: url, poolMode: 'transaction', ...options });
    opened.push(db);
    return db;
  }

  beforeAll(async () => {
    bouncer = await startPgbouncer({ poolSize: SERVER_POOL });
    direct = await createTestDatabase({ max: 2 });
  });
  afterAll(async () => {
    for (const db of opened) await db.close().catch(() => undefined);
    await direct?.drop();
    await bouncer?.stop();
  });

  /** `count` named-statement queries at once; the errors they met. */
  async function namedQueries(db: Database, count: number) {
    const results = await Promise.allSettled(
      Array.from({ length: count }, (_, i) => db.query<{ n: number }>('SELECT $1::int AS n', [i], 'versus_pgbouncer_probe')),
    );
    const errors = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as Error).message] : []));
    const right = results.filter((r, i) => r.status === 'fulfilled' && r.value[0]?.n === i).length;
    return { errors, right };
  }

  it('named statements break as connections rotate (PgBouncer < 1.21); in DATABASE_POOL_MODE=transaction unnamed ones work', async () => {
    // Session mode (the default) names them: PgBouncer 1.18 hands each client's statements to
    // whichever server connection is free, where the name is missing or already taken.
    const named = openPostgres(bouncer.url(direct.url), { max: 8, listenUrl: direct.url });
    opened.push(named);
    const broken = await namedQueries(named, 300);
    expect(broken.errors.length).toBeGreaterThan(0);
    for (const message of broken.errors)
      expect(message).toMatch(/^prepared statement "versus_pgbouncer_probe" (does not exist|already exists)$/);

    const unnamed = through(direct.url, { max: 8 });
    expect(await namedQueries(unnamed, 300)).toEqual({ errors: [], right: 300 });
  });

  it('keeps a pipelined transaction (BEGIN sent with its first statement) on one server connection', async () => {
    const db = through(direct.url, { max: 8 });
    const seen = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        db.transaction(async (tx) => {
          // BEGIN and this statement leave in one write; the next one must find the same transaction.
          const [first] = await tx.query<{ n: number; xid: string; pid: number }>(
            'SELECT $1::int AS n, txid_current()::text AS xid, pg_backend_pid() AS pid',
            [i],
          );
          await tx.query('SELECT pg_sleep(0.001)');
          const [second] = await tx.query<{ xid: string; pid: number }>('SELECT txid_current()::text AS xid, pg_backend_pid() AS pid');
          return { i, first: first!, second: second! };
        }),
      ),
    );
    for (const { i, first, second } of seen) {
      expect(first.n).toBe(i);
      expect(second).toEqual({ xid: first.xid, pid: first.pid });
    }
    // The transactions shared the few server connections, so PgBouncer did rotate them.
    expect(new Set(seen.map((s) => s.first.pid)).size).toBeLessThanOrEqual(SERVER_POOL);
  });

  it("leaves no session setting behind: the notifier's synchronous_commit is transaction-local", async () => {
    const db = through(direct.url, { max: 4 });
    await Promise.all(Array.from({ length: 20 }, () => db.query(`SELECT set_config('synchronous_commit', 'off', true)`)));
    const after = await Promise.all(Array.from({ length: 20 }, () => db.query<{ synchronous_commit: string }>('SHOW synchronous_commit')));
    expect(new Set(after.map(([row]) => row!.synchronous_commit))).toEqual(new Set(['on']));
  });

  it('LISTENs over DATABASE_LISTEN_URL, straight to PostgreSQL, and hears what the pool notifies through PgBouncer', async () => {
    const listenUrl = new URL(direct.url);
    listenUrl.searchParams.set('application_name', 'versus-listen-probe');
    const db = openPostgres(bouncer.url(direct.url), { listenUrl: listenUrl.toString(), poolMode: 'transaction', max: 4 });
    opened.push(db);
    const heard: string[] = [];
    await db.listen('versus_pgbouncer_probe', (payload) => heard.push(payload));
    // Only the LISTEN connection carries this name, and it is on PostgreSQL itself.
    const [listener] = await direct.db.query<{ query: string }>(
      `SELECT query FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'versus-listen-probe'`,
    );
    expect(listener?.query).toMatch(/^LISTEN /);
    for (let i = 0; i < 5; i++) db.notifyAfterCommit('versus_pgbouncer_probe', `n${i}`);
    await expect.poll(() => heard, { timeout: 5_000 }).toEqual(['n0', 'n1', 'n2', 'n3', 'n4']);
  });

  it('migrates an empty database through it (its lock is transaction-scoped), and again from two processes at once', async () => {
    const name = `versus_t_bouncer_${process.pid}`;
    await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    await admin((client) => client.query(`CREATE DATABASE ${name}`));
    try {
      const url = urlFor(name);
      const files = fs.readdirSync(path.join(import.meta.dirname, 'migrations')).filter((f) => /^\d{3}_.+\.sql$/.test(f));
      const applied = await migrate(through(url, { max: 2 }));
      expect(applied.filter((step) => !step.startsWith('functions/'))).toEqual([BASELINE, ...files.sort()]);
      expect(await Promise.all([migrate(through(url, { max: 2 })), migrate(through(url, { max: 2 }))])).toEqual([[], []]);
    } finally {
      for (const db of opened.splice(-3)) await db.close();
      await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    }
  });

  describe('the core loop', () => {
    let kit: Kit;
    let other: App;
    let otherUrl: string;
    const sockets: TestSocket[] = [];

    beforeAll(async () => {
      kit = await createKit({ open: (url) => through(url) });
      // A second server process on its own connections: it hears the match only through LISTEN.
      other = await buildApp({ config: kit.test.config, db: through(kit.test.database.url), logger: false });
      await other.ready();
      otherUrl = await listen(other);
    });
    afterAll(async () => {
      for (const socket of sockets) socket.close();
      await other?.close();
      await kit?.close();
    });

    it('signs up, escrows, plays a match to its payout and hears it live, the ledger clean', async () => {
      const alice = await kit.player('bouncea');
      const bob = await kit.player('bounceb');
      expect(await kit.balance(alice.id)).toEqual({ available: 100_000, escrow: 0 });

      const id = await kit.match('tic-tac-toe', alice, bob);
      expect(await kit.balance(alice.id)).toEqual({ available: 97_500, escrow: 2_500 });
      expect(await kit.balance(bob.id)).toEqual({ available: 97_500, escrow: 2_500 });
      const started = await kit.start(id, alice, bob);

      const socket = await TestSocket.signedIn(otherUrl, bob.token);
      sockets.push(socket);
      socket.send({ t: 'sub', d: { topic: `match:${id}` } });
      expect((await socket.next('subscribed')).d.v).toBe(started.version);

      await playTicTacToeGame(kit, id, [alice, bob], alice);
      const last = await playTicTacToeGame(kit, id, [alice, bob], alice);
      const final = last.body.match;
      expect(final).toMatchObject({ status: 'completed', winnerId: alice.id });
      expect(final.result).toMatchObject({ outcome: 'win', payouts: [{ userId: alice.id, amount: 50 }] });

      // Every version of the match reached the other process's socket, in order, none lost.
      const events = await socket.events(final.version - started.version);
      expect(events.map((e) => e.v)).toEqual(Array.from({ length: final.version - started.version }, (_, i) => started.version + 1 + i));
      expect(events.at(-1)!.type).toBe('match.completed');

      expect(await kit.balance(alice.id)).toEqual({ available: 102_500, escrow: 0 });
      expect(await kit.balance(bob.id)).toEqual({ available: 97_500, escrow: 0 });
      await kit.expectAuditClean();
    });
  });
});
