// Every backend terminated under concurrent wallet writes, three times; a child process, so "it stays up" is
// its exit code.
import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC } from '@versus/domain';
import { signAccessToken } from '../auth/tokens.ts';
import { createPlayer, type TestPlayer } from '../ledger/ledger.fixtures.ts';
import { topics } from '../realtime/publish.ts';
import { signUp, TestSocket } from '../realtime/test-socket.ts';
import { startChildServer, type ChildServer } from '../test/child-server.ts';
import { ADMIN_URL, createTestDatabase, type TestDatabase } from '../test/database.ts';
import { expectAuditClean } from '../test/ledger-checks.ts';
import { SecretCache } from './secrets.ts';

const WRITERS = 20;
const ROUNDS = 3;
const RECOVERY_MS = 15_000;

interface Answer {
  player: number;
  key: string;
  status: number | 'no answer';
  body: string;
}

describe('terminating every database connection under load', () => {
  let database: TestDatabase;
  let server: ChildServer;
  let players: TestPlayer[];
  let tokens: string[];
  let follower: TestSocket | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    players = await Promise.all([0, 1, 2, 3].map(() => createPlayer(database.db)));
    const ctx = { db: database.db, secrets: new SecretCache(database.db) };
    tokens = await Promise.all(
      players.map(
        async (p) =>
          (await signAccessToken(ctx, { userId: p.id, role: p.role, accountType: p.accountType, sessionId: crypto.randomUUID() }))
            .access_token,
      ),
    );
    // Jobs on: the scheduler's polling loop meets the outage too.
    server = await startChildServer(database.url, { RUN_JOBS: 'true' });
  }, 60_000);

  afterAll(async () => {
    follower?.close();
    server?.kill();
    await database?.drop();
  });

  async function spend(player: number, key: string): Promise<Answer> {
    try {
      const res = await fetch(`${server.http}/api/wallet/credits/use`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens[player]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 0.01, description: 'outage load', idempotencyKey: key }),
      });
      return { player, key, status: res.status, body: await res.text() };
    } catch (error) {
      return { player, key, status: 'no answer', body: String((error as Error).cause ?? error) };
    }
  }

  async function terminateBackends(): Promise<number> {
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    try {
      const rows = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [database.name],
      );
      return rows.rowCount ?? 0;
    } finally {
      await admin.end();
    }
  }

  it('stays up, answers 503 with the message while cut off, serves again within 15 s, and the ledger stays whole', async () => {
    // A socket following a topic: its server's LISTEN connection is among the terminated.
    const watcher = await signUp(server.http, 'outage');
    follower = await TestSocket.signedIn(server.ws, watcher.token);
    follower.send({ t: 'sub', d: { topic: topics.user(watcher.userId) } });
    await follower.next('subscribed');

    const answers: Answer[] = [];
    let loading = true;
    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      while (loading) answers.push(await spend(w % players.length, crypto.randomUUID()));
    });

    const recoveries: number[] = [];
    const terminated: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      const before = answers.length;
      terminated.push(await terminateBackends());
      const cut = performance.now();
      // Back when a write issued after the cut succeeds.
      for (;;) {
        const fresh = answers.slice(before).filter((a) => a.status === 200);
        if (fresh.length > WRITERS) break;
        expect(server.process.exitCode, `round ${round + 1}: the server exited:\n${server.output().slice(-2000)}`).toBeNull();
        expect(performance.now() - cut, `round ${round + 1}: no successful write within ${RECOVERY_MS} ms`).toBeLessThan(RECOVERY_MS);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      recoveries.push(Math.round(performance.now() - cut));
      // What its NOTIFYs missed meanwhile is made good: the socket is told to resync.
      expect((await follower.next('gap', RECOVERY_MS)).d.topic).toBe(topics.user(watcher.userId));
    }
    expect(follower.closed).toBeUndefined();
    loading = false;
    await Promise.all(writers);

    expect(server.process.exitCode, server.output()).toBeNull();
    expect(server.process.signalCode).toBeNull();
    const health = await fetch(`${server.http}/api/health`);
    expect(health.status).toBe(200);

    const failed = answers.filter((a) => a.status !== 200);
    const unexpected = failed.filter((a) => a.status !== 503 || JSON.parse(a.body).error?.message !== GENERIC.unavailable);
    expect(unexpected.slice(0, 5)).toEqual([]);
    // The cut did meet requests in flight.
    expect(failed.length).toBeGreaterThan(0);
    console.info(
      `outage: ${answers.length} writes, ${failed.length} answered 503, backends terminated per round ${terminated.join('/')}, ` +
        `served again after ${recoveries.join('/')} ms`,
    );

    // A 503 is safe to retry with the same key: afterwards each key has moved exactly one spend.
    for (const a of failed) {
      const again = await spend(a.player, a.key);
      expect(again.status, again.body).toBe(200);
    }
    for (const [i, player] of players.entries()) {
      const spent = answers.filter((a) => a.player === i).length;
      const [row] = await database.db.query<{ balance: number }>(
        `SELECT balance FROM ledger_accounts WHERE user_id = $1 AND currency = 'credits' AND kind = 'available'`,
        [player.id],
      );
      expect(row?.balance).toBe(100_000 - spent);
    }
    await expectAuditClean(database.db, ['challenges', 'matches', 'private_rooms']);
  }, 120_000);
});
