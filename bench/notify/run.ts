// Notifications to connected players: SOCKETS signed-in sockets on one server (each following
// its own player's `user:{id}` topic), and RATE notifications a second made by notify() in
// transactions, each to a random one of those players.
//
//   npx tsx bench/notify/run.ts            (DATABASE_URL, or postgres://postgres@127.0.0.1:5432)
//   SOCKETS=5000 RATE=200 SECONDS=30 npx tsx bench/notify/run.ts
// Results of runs: results.jsonl next to this file.
//
// (a) Memory per idle socket: the server's RSS and heap (after garbage collection, the server
//     runs with --expose-gc) before and after SOCKETS sockets connected, said hello (token
//     checked) and subscribed, divided by SOCKETS. A warm-up of 100 sockets opened and closed
//     first, so one-time costs (code compiled on first use, pools) do not count as per-socket.
// (b) Latency: an open loop offers RATE notifications a second at fixed times (it never waits
//     for the server). Each is one transaction on a pool of this process: notify() writes the
//     notification (the event row and, by trigger, the notification row) and the NOTIFY follows
//     the commit. Latency = from the moment the COMMIT returned here to the moment the player's
//     socket here received `notification.created` carrying it: the whole path across processes
//     (NOTIFY → the server's listener → its realtime hub → the socket). p50/p90/p99/max. Also
//     from the scheduled send time (transaction included), for the record.
// The result leads with CPU per notification (µs): the server's and the bench database's
// PostgreSQL backends' CPU over the sending window (the 5,000 idle sockets' upkeep included),
// divided by the notifications made.
// The server runs in a child process (server.ts, the real app with every feature and job);
// this process holds the sockets and produces the events; PostgreSQL shares the machine.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { NOTIFICATION_EVENTS } from '@versus/domain/notifications';
import { REALTIME_PATH, REALTIME_PROTOCOL } from '@versus/domain/realtime';
import type { Database } from '../../apps/server/src/db/database.ts';
import { notify } from '../../apps/server/src/notifications/notify.ts';
import { loadavg, startCpuWindow } from '../lib/cpu.ts';
import { admin, urlFor } from '../lib/postgres.ts';
import { type BenchServer, serverMemory as memoryOf, spawnBenchServer } from '../lib/server.ts';
import { messageText } from '../../apps/server/src/realtime/message-text.ts';
import { accessTokens, freshDatabase, inParallel, insertPlayers } from '../lib/setup.ts';
import { closeAll } from '../lib/sockets.ts';

const env = process.env;
const SOCKETS = Number(env.SOCKETS ?? 5000);
const RATE = Number(env.RATE ?? 200);
const SECONDS = Number(env.SECONDS ?? 30);
const WARMUP = Number(env.WARMUP ?? 3);
const CONNECT_CONCURRENCY = 100;
const DB_NAME = 'versus_bench_notify';
const here = path.dirname(fileURLToPath(import.meta.url));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const now = () => performance.now();

// ---------------------------------------------------------------------------------------
// Setup

async function setUp(): Promise<{ db: Database; users: string[]; tokens: string[] }> {
  const db = await freshDatabase(DB_NAME, 20);
  const users = Array.from({ length: SOCKETS + 100 }, () => crypto.randomUUID());
  await insertPlayers(db, users, 'notify');
  const tokens = await accessTokens(db, users);
  await db.query('VACUUM ANALYZE');
  return { db, users, tokens };
}

type Server = BenchServer;

const startServer = (): Promise<Server> => spawnBenchServer(path.join(here, 'server.ts'), urlFor(DB_NAME), ['--expose-gc']);

const serverMemory = (server: Server) => memoryOf(server, 'SIGUSR2');

// ---------------------------------------------------------------------------------------
// Sockets

/** Receipt times of notifications by id, and what to call when one arrives. */
const receivedAt = new Map<string, number>();
let onReceived: (id: string, at: number) => void = () => {};

function openSocket(port: number, userId: string, token: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${REALTIME_PATH}`, { perMessageDeflate: false });
    const topic = `user:${userId}`;
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ t: 'hello', d: { token, protocol: REALTIME_PROTOCOL } })));
    ws.on('message', (data) => {
      const at = now();
      const message = JSON.parse(messageText(data)) as { t: string; d: { type?: string; payload?: { id?: string }; topic?: string } };
      if (message.t === 'welcome') ws.send(JSON.stringify({ t: 'sub', d: { topic } }));
      else if (message.t === 'subscribed') resolve(ws);
      else if (message.t === 'event' && message.d.type === NOTIFICATION_EVENTS.created && message.d.payload?.id) {
        receivedAt.set(message.d.payload.id, at);
        onReceived(message.d.payload.id, at);
      } else if (message.t === 'error') reject(new Error(JSON.stringify(message.d)));
    });
  });
}

async function connectAll(port: number, users: readonly string[], tokens: readonly string[]): Promise<WebSocket[]> {
  const sockets = new Array<WebSocket>(users.length);
  await inParallel(users, CONNECT_CONCURRENCY, async (userId, i) => {
    sockets[i] = await openSocket(port, userId, tokens[i]!);
  });
  return sockets;
}

// ---------------------------------------------------------------------------------------
// Figures

function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const r = (x: number) => Math.round(x * 100) / 100;
  return { count: sorted.length, p50: r(at(0.5)), p90: r(at(0.9)), p99: r(at(0.99)), max: r(sorted[sorted.length - 1] ?? Number.NaN) };
}

// ---------------------------------------------------------------------------------------

async function main() {
  const loadAtStart = loadavg();
  console.log(
    `notify bench: ${SOCKETS} sockets, ${RATE} notifications/s for ${SECONDS} s (+${WARMUP} s warm-up); load average ${loadAtStart}`,
  );
  const { db, users, tokens } = await setUp();
  const server = await startServer();
  const warmUsers = users.slice(SOCKETS);
  const socketUsers = users.slice(0, SOCKETS);
  try {
    // (a) Memory per idle socket.
    await closeAll(await connectAll(server.port, warmUsers, tokens.slice(SOCKETS)));
    await sleep(1000);
    const before = await serverMemory(server);
    const connectStarted = now();
    const sockets = await connectAll(server.port, socketUsers, tokens.slice(0, SOCKETS));
    const connectSeconds = (now() - connectStarted) / 1000;
    await sleep(3000);
    const after = await serverMemory(server);
    const perSocket = {
      rssKB: Math.round(((after.memory.rss - before.memory.rss) / SOCKETS / 1024) * 10) / 10,
      heapKB: Math.round(((after.memory.heapUsed - before.memory.heapUsed) / SOCKETS / 1024) * 10) / 10,
      externalKB: Math.round(((after.memory.external - before.memory.external) / SOCKETS / 1024) * 10) / 10,
    };
    console.log(`connected ${SOCKETS} sockets in ${connectSeconds.toFixed(1)} s; per idle socket: ${JSON.stringify(perSocket)}`);

    // (b) Latency under RATE notifications a second.
    const fromCommit: number[] = [];
    const fromSchedule: number[] = [];
    const committedAt = new Map<string, { commit: number; scheduled: number; counted: boolean }>();
    let produced = 0;
    let failed = 0;
    // Received before this process had run the commit's callback (counted as 0 ms).
    let beforeCommitCallback = 0;
    const record = (id: string, at: number) => {
      const sent = committedAt.get(id);
      if (!sent || !sent.counted) return;
      if (at < sent.commit) beforeCommitCallback++;
      fromCommit.push(Math.max(0, at - sent.commit));
      fromSchedule.push(at - sent.scheduled);
    };
    onReceived = record;

    const cpuWindow = startCpuWindow(server.child.pid!, DB_NAME);
    const total = (SECONDS + WARMUP) * RATE;
    const started = now();
    const inFlight = new Set<Promise<void>>();
    for (let i = 0; i < total; i++) {
      const scheduled = started + (i * 1000) / RATE;
      const wait = scheduled - now();
      if (wait > 0) await sleep(wait);
      const userId = socketUsers[crypto.randomInt(SOCKETS)]!;
      const counted = i >= WARMUP * RATE;
      const job = db
        .transaction((tx) => notify(tx, { userId, type: 'credits_earned', metadata: { amount: 5, currency: 'credits', reason: 'bench' } }))
        .then((n) => {
          const commit = now();
          produced++;
          committedAt.set(n.id, { commit, scheduled, counted });
          // The socket may have been faster than this callback.
          const early = receivedAt.get(n.id);
          if (early !== undefined) record(n.id, early);
        })
        .catch((error: unknown) => {
          failed++;
          if (failed <= 3) console.error('notify failed', error);
        })
        .finally(() => inFlight.delete(job));
      inFlight.add(job);
    }
    const offeredSeconds = (now() - started) / 1000;
    await Promise.all(inFlight);
    await sleep(2000);
    const cpu = cpuWindow.end();
    const underLoad = await serverMemory(server);
    const countedSent = [...committedAt.values()].filter((s) => s.counted).length;
    const lost = countedSent - fromCommit.length;

    const result = {
      bench: 'notify',
      at: new Date().toISOString(),
      sockets: SOCKETS,
      rate: RATE,
      seconds: SECONDS,
      cpuUsPerNotification: {
        server: Math.round((1e6 * cpu.serverSec) / Math.max(1, produced)),
        postgres: Math.round((1e6 * cpu.postgresSec) / Math.max(1, produced)),
      },
      offeredSeconds: Math.round(offeredSeconds * 10) / 10,
      produced,
      failed,
      lost,
      beforeCommitCallback,
      latencyFromCommitMs: percentiles(fromCommit),
      latencyFromScheduleMs: percentiles(fromSchedule),
      perIdleSocket: perSocket,
      serverMemoryMB: {
        before: Math.round(before.memory.rss / 1048576),
        connected: Math.round(after.memory.rss / 1048576),
        underLoad: Math.round(underLoad.memory.rss / 1048576),
      },
      // CPU seconds per second: the server, this process (sockets and producer), and how busy
      // the whole machine was (every core; other work on a shared machine included).
      serverCpuPerSecond: Math.round((cpu.serverSec / offeredSeconds) * 100) / 100,
      clientCpuPerSecond: Math.round((cpu.loadGeneratorSec / offeredSeconds) * 100) / 100,
      machineBusy: Math.round(cpu.machineBusy * 100) / 100,
      serverEventLoopDelayUnderLoad: underLoad.eventLoopDelay,
      loadAverage: { start: loadAtStart, end: loadavg() },
      cores: (await import('node:os')).cpus().length,
    };
    console.log(JSON.stringify(result, null, 2));
    fs.appendFileSync(path.join(here, 'results.jsonl'), `${JSON.stringify(result)}\n`);
    await closeAll(sockets);
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    await db.close();
    await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  }
}

await main();
