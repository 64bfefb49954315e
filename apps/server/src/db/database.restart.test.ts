// PostgreSQL stopped, started and restarted under a running server with sockets connected, on a cluster of
// the test's own.
import crypto from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC } from '@versus/domain';
import { REALTIME_PROTOCOL } from '@versus/domain/realtime';
import { MatchWriter, type PlainWrite } from '../arena/arena.writer.ts';
import { startJob } from '../jobs/scheduler.ts';
import { publish, topics } from '../realtime/publish.ts';
import { signUp, TestSocket } from '../realtime/test-socket.ts';
import { startChildServer, type ChildServer } from '../test/child-server.ts';
import { createThrowawayCluster, throwawayClusterUnavailable, type ThrowawayCluster } from '../test/throwaway-cluster.ts';
import { isDatabaseUnavailable, openPostgres, type Database, type Queryable } from './database.ts';
import { migrate } from './migrate.ts';

const RECOVERY_MS = 15_000;
const unavailable = throwawayClusterUnavailable();

describe.skipIf(unavailable !== null)(
  `restarting PostgreSQL under a running server${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    let cluster: ThrowawayCluster;
    let url: string;
    let db: Database;
    let server: ChildServer;
    let user: { userId: string; token: string };
    const sockets: TestSocket[] = [];

    beforeAll(async () => {
      cluster = await createThrowawayCluster();
      url = await cluster.createDatabase('versus');
      db = openPostgres(url, { max: 2 });
      await migrate(db);
      server = await startChildServer(url, { RUN_JOBS: 'true' });
      user = await signUp(server.http, 'restart');
    }, 120_000);

    afterAll(async () => {
      for (const socket of sockets) socket.close();
      server?.kill();
      await db?.close();
      cluster?.drop();
    });

    const health = async () => (await fetch(`${server.http}/api/health`)).status;
    const rename = (name: string) =>
      fetch(`${server.http}/api/auth/user`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ display_name: name }),
      });
    /** `work` in a transaction of the test's own, tried again while the database is still coming back. */
    async function committed<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      for (let attempt = 0; ; attempt++) {
        try {
          return await db.transaction(work);
        } catch (error) {
          if (!isDatabaseUnavailable(error) || attempt > 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    }
    const stillRunning = () => expect(server.process.exitCode, server.output().slice(-2000)).toBeNull();

    it('reports the database down in /api/health and answers 503 while it is stopped, then serves again once it is back', async () => {
      expect(await health()).toBe(200);
      cluster.stop();
      const down = await fetch(`${server.http}/api/health`);
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ status: 'degraded', database: { kind: 'postgres', status: 'down' } });
      const refused = await rename('While Down');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await refused.json()).toEqual({ error: { code: 'unavailable', message: GENERIC.unavailable } });
      // The socket's command answers say the same (its hello checks the session in the database).
      const socket = await TestSocket.open(server.ws);
      sockets.push(socket);
      socket.send({ t: 'hello', d: { token: user.token, protocol: REALTIME_PROTOCOL } });
      expect((await socket.next('error')).d).toEqual({ code: 'unavailable', message: GENERIC.unavailable });
      stillRunning();

      cluster.start();
      const started = performance.now();
      await expect.poll(health, { timeout: RECOVERY_MS, interval: 100 }).toBe(200);
      expect((await rename('Back Again')).status).toBe(200);
      console.info(`restart: healthy again ${Math.round(performance.now() - started)} ms after PostgreSQL started`);
      stillRunning();
    });

    it('tells sockets connected through a restart to resync, then carries on live: nothing is silently lost', async () => {
      const topic = topics.user(user.userId);
      const followers = await Promise.all([0, 1].map(() => TestSocket.signedIn(server.ws, user.token)));
      sockets.push(...followers);
      for (const socket of followers) {
        socket.send({ t: 'sub', d: { topic } });
        await socket.next('subscribed');
      }

      cluster.restart();
      // Committed at once, while the server's LISTEN connection is still coming back: its NOTIFY is lost.
      const missed = await committed((tx) => publish(tx, topic, 'while-reconnecting', {}));
      for (const socket of followers) expect((await socket.next('gap', RECOVERY_MS)).d.topic).toBe(topic);
      stillRunning();

      // After the gap (the client refetches its snapshot), the live stream goes on from there.
      const live = await committed((tx) => publish(tx, topic, 'live-again', {}));
      expect(live.version).toBe(missed.version + 1);
      for (const socket of followers) {
        const events = await socket.events(1, RECOVERY_MS);
        // The missed event may have travelled after all, if the LISTEN was back before its commit.
        const last = events[0]!.type === 'while-reconnecting' ? (await socket.events(1, RECOVERY_MS))[0]! : events[0]!;
        expect(last).toMatchObject({ topic, v: live.version, type: 'live-again' });
        expect(socket.invalid).toEqual([]);
        expect(socket.closed).toBeUndefined();
      }
    });

    it("fails the arena writer's batch at once while PostgreSQL is down, not item by item, and writes again once it is back", async () => {
      cluster.stop();
      const writerDb = openPostgres(url, { max: 1 });
      const writer = new MatchWriter(writerDb, Fastify({ logger: false }).log);
      const change = (): PlainWrite => ({
        change: {
          id: crypto.randomUUID(),
          fromVersion: 1,
          toVersion: 2,
          status: 'in_progress',
          state: null,
          readyAt: [null, null],
          startedAt: null,
          deadlineAt: null,
          gameData: null,
          toMove: [],
          turnSince: null,
        },
        move: null,
        events: [],
      });
      try {
        // The first goes alone; the next three wait for it and then travel as one batch.
        const outcomes = await Promise.allSettled([0, 1, 2, 3].map(() => writer.plain(change())));
        for (const outcome of outcomes) {
          expect(outcome.status).toBe('rejected');
          expect(isDatabaseUnavailable((outcome as PromiseRejectedResult).reason)).toBe(true);
        }
        expect(writer.stats.batches).toBe(2);
        expect(writer.stats.retried).toBe(0);
        cluster.start();
        // Once back, a change goes through (no such match: not applied, but written and answered).
        await expect.poll(() => writer.plain(change()).catch(() => 'failed'), { timeout: RECOVERY_MS, interval: 200 }).toBe(false);
      } finally {
        await writerDb.close();
      }
    });

    it('runs a scheduled job whose registration failed while PostgreSQL was down, once it is back', async () => {
      cluster.stop();
      const jobDb = openPostgres(url, { max: 1 });
      let runs = 0;
      const handle = startJob(
        { db: jobDb, log: Fastify({ logger: false }).log },
        { name: 'outage-probe', everyMs: 60_000, pollMs: 100, runAtStart: true, run: async () => runs++ },
      );
      try {
        expect(await handle.registered).toBe(false);
        cluster.start();
        await expect.poll(() => runs, { timeout: RECOVERY_MS, interval: 100 }).toBe(1);
      } finally {
        await handle.stop();
        await jobDb.close();
      }
      stillRunning();
    });
  },
);
