// Whole matches per second: created → accepted → played → settled, through the real API and
// sockets, and what each costs PostgreSQL beside one pgbench TPC-B transaction in the same run.
//
//   npx tsx bench/lifecycle/run.ts                      (DATABASE_URL, or postgres://postgres@127.0.0.1:5432)
//   PAIRS=100 SECONDS=20 GAME=tic-tac-toe npx tsx bench/lifecycle/run.ts
//   GAME=rock-paper-scissors ...                        (the shortest game; default tic-tac-toe)
//   SKIP_PGBENCH=1 ...                                  (without the TPC-B reference)
//   DORMANT=0 ...                                       (no players beside the pairs; default 10,000)
//   PAIRS=4 SECONDS=2 WARMUP=1 PGBENCH_SECONDS=2 npx tsx bench/lifecycle/run.ts   (smoke run, ~40 s: the figures mean nothing)
//
// PAIRS pairs of players, each pair in a closed loop: player 0 creates a public challenge (its
// stake locked in escrow, POST /api/challenges), player 1 accepts it (its stake locked, the match
// made), both subscribe to the match on their sockets and ready (POST /ready), they play one match
// (a best of 3) over the sockets, one move in flight, and the match ends in finishMatch: payout,
// records, ratings, notifications. The next match starts when the completed event has reached
// both. A match counts as settled when that event reaches the first player: it is published only
// after its payout is committed. After the window the pairs finish the match they are in and the
// ledger is audited (auditLedger: sums, holds, links): the run fails if anything is off.
//
// CPU per settled match, by process: the server, the bench database's PostgreSQL backends, this
// load generator. Then pgbench's TPC-B (5 statements: three account-like updates, an insert, a
// read, in one transaction) on a database of its own on the same server, with the Versus server
// stopped: PostgreSQL's CPU per transaction, the floor a settled match (which moves money too) can
// approach. Both are read from /proc for the backends of their database only (bench/lib/cpu.ts).
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type WebSocket from 'ws';
import type { MatchEvent } from '@versus/domain/arena';
import { gameDurationPresets } from '@versus/domain/catalogue';
import { auditLedger } from '../../apps/server/src/ledger/ledger.audit.ts';
import { grant, openAccounts } from '../../apps/server/src/ledger/ledger.service.ts';
import { messageText } from '../../apps/server/src/realtime/message-text.ts';
import { benchGame, chooseMove, mayMove, signedInSocket } from '../lib/arena-client.ts';
import { loadavg, machineCpu, postgresBackendsCpuSec, startCpuWindow } from '../lib/cpu.ts';
import { admin, urlFor } from '../lib/postgres.ts';
import { percentile } from '../lib/rounds.ts';
import { spawnBenchServer } from '../lib/server.ts';
import { accessTokens, freshDatabase, inParallel, insertBystanders, insertPlayers } from '../lib/setup.ts';

const env = process.env;
const PAIRS = Number(env.PAIRS ?? 100);
const SECONDS = Number(env.SECONDS ?? 20);
const WARMUP = Number(env.WARMUP ?? 3);
const GAME = benchGame(env.GAME, ['tic-tac-toe', 'rock-paper-scissors']);
const PGBENCH_SECONDS = Number(env.PGBENCH_SECONDS ?? SECONDS);
const PGBENCH_CLIENTS = Number(env.PGBENCH_CLIENTS ?? 16);
/** Signed-up players who do not play in the window: with only the pairs, `users` is two pages and its key checks scan it whole. */
const DORMANT = Number(env.DORMANT ?? 10_000);
/** Completed matches between the dormant players before the run: the history a product in use has (key checks read by index). */
const HISTORY = Number(env.HISTORY ?? 20_000);
const SKIP_PGBENCH = env.SKIP_PGBENCH === '1';
const DB_NAME = 'versus_bench_lifecycle';
const PGBENCH_DB = 'versus_bench_lifecycle_tpcb';
/** Whole credits staked per player and match (the API's unit); each player starts with plenty. */
const STAKE = 1;
const GRANT_MINOR = 100_000_000;
const here = path.dirname(fileURLToPath(import.meta.url));

const log = (...parts: unknown[]) => console.error(`[lifecycle ${new Date().toISOString().slice(11, 23)}]`, ...parts);
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let port = 0;

// ---------------------------------------------------------------------------------------
// Players

interface Side {
  seat: 0 | 1;
  token: string;
  ws: WebSocket;
  last: MatchEvent | null;
  movedOn: number;
  subscribed: Map<string, () => void>;
}

interface Pair {
  sides: [Side, Side];
  match: string | null;
  /** One move in flight per pair, as in bench/moves. */
  moving: boolean;
  /** Resolves when the current match's completed event has reached both sides. */
  ended: (() => void) | null;
  endedSides: number;
  lastMoveAt: number;
}

async function connect(token: string, seat: 0 | 1): Promise<Side> {
  return { seat, token, ws: await signedInSocket(port, token), last: null, movedOn: -1, subscribed: new Map() };
}

async function api<T>(url: string, token: string, body?: unknown): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

function subscribe(side: Side, topic: string): Promise<void> {
  return new Promise((resolve) => {
    side.subscribed.set(topic, resolve);
    side.ws.send(JSON.stringify({ t: 'sub', d: { topic } }));
  });
}

function moveIfDue(pair: Pair): void {
  if (pair.moving) return;
  for (const side of pair.sides) {
    if (!mayMove(side.seat, side.last, side.movedOn)) continue;
    const event = side.last!;
    side.movedOn = event.version;
    pair.moving = true;
    pair.lastMoveAt = performance.now();
    side.ws.send(
      JSON.stringify({
        t: 'move',
        d: { matchId: event.matchId, move: chooseMove(GAME, side.seat, event), version: event.version, ack: 'errors' },
      }),
    );
    return;
  }
}

let settledAt = 0;
let refused = 0;
let finishes: number[] = [];

function onEvent(pair: Pair, side: Side, event: MatchEvent): void {
  if (event.matchId !== pair.match || (side.last && side.last.version >= event.version)) return;
  side.last = event;
  // The pair's move in flight is played once the other side hears of it.
  if (pair.moving && side.movedOn < event.version) pair.moving = false;
  if (event.status === 'completed' || event.status === 'cancelled') {
    if (pair.endedSides++ === 0) {
      settledAt++;
      finishes.push(performance.now() - pair.lastMoveAt);
    }
    if (pair.endedSides === 2) pair.ended?.();
    return;
  }
  moveIfDue(pair);
}

function wire(pair: Pair, side: Side): void {
  side.ws.on('message', (data) => {
    const message = JSON.parse(messageText(data)) as { t: string; d: Record<string, unknown> };
    if (message.t === 'event' && (message.d.type as string).startsWith('match.')) onEvent(pair, side, message.d.payload as MatchEvent);
    else if (message.t === 'subscribed') {
      const topic = message.d.topic as string;
      side.subscribed.get(topic)?.();
      side.subscribed.delete(topic);
    } else if (message.t === 'moved' && !message.d.ok) {
      refused++;
      pair.moving = false;
    } else if (message.t === 'error') log('socket error', JSON.stringify(message.d));
  });
}

/** Phases of one match's life (ms): create, accept, subscribe + ready, play (to settled), total. */
let phases: { create: number; accept: number; ready: number; play: number; total: number }[] = [];
let measuring = false;
let running = true;

const DURATION = gameDurationPresets(GAME)[0]!;

/** One match's whole life: challenge, accept, ready, play, settle. */
async function lifecycle(pair: Pair): Promise<void> {
  const [creator, acceptor] = pair.sides;
  const t0 = performance.now();
  const created = await api<{ challenge: { id: string } }>('/api/challenges', creator.token, {
    game: GAME,
    stake: STAKE,
    duration: DURATION,
  });
  const t1 = performance.now();
  const accepted = await api<{ match: { id: string } | null }>(`/api/challenges/${created.challenge.id}/accept`, acceptor.token);
  const t2 = performance.now();
  const match = accepted.match!.id;
  const old = pair.match;
  pair.match = match;
  pair.endedSides = 0;
  pair.moving = false;
  for (const side of pair.sides) {
    side.last = null;
    side.movedOn = -1;
    if (old) side.ws.send(JSON.stringify({ t: 'unsub', d: { topic: `match:${old}` } }));
  }
  const ended = new Promise<void>((resolve) => (pair.ended = resolve));
  await Promise.all(pair.sides.map((side) => subscribe(side, `match:${match}`)));
  await Promise.all(pair.sides.map((side) => api(`/api/matches/${match}/ready`, side.token)));
  const t3 = performance.now();
  moveIfDue(pair);
  await ended;
  const t4 = performance.now();
  if (measuring) phases.push({ create: t1 - t0, accept: t2 - t1, ready: t3 - t2, play: t4 - t3, total: t4 - t0 });
}

// ---------------------------------------------------------------------------------------
// pgbench TPC-B on the same server: PostgreSQL's CPU per transaction

function pgbenchPath(): Promise<string> {
  return new Promise((resolve) =>
    execFile('/usr/lib/postgresql/15/bin/pgbench', ['--version'], (error) =>
      resolve(error ? 'pgbench' : '/usr/lib/postgresql/15/bin/pgbench'),
    ),
  );
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(command, args, { maxBuffer: 1 << 24 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} ${args.join(' ')}: ${stderr || error.message}`)) : resolve(`${stdout}${stderr}`),
    ),
  );
}

async function tpcb() {
  const pgbench = await pgbenchPath();
  await admin(`DROP DATABASE IF EXISTS ${PGBENCH_DB} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${PGBENCH_DB}`);
  const url = urlFor(PGBENCH_DB);
  try {
    await run(pgbench, ['-q', '-i', '-s', '10', url]);
    // Its backends end with it: the last reading of each (every 100 ms) is what it spent.
    const seen = new Map<number, number>();
    const poll = setInterval(() => {
      for (const [pid, sec] of postgresBackendsCpuSec(PGBENCH_DB)) seen.set(pid, sec);
    }, 100);
    const machine0 = machineCpu();
    const out = await run(pgbench, ['-c', String(PGBENCH_CLIENTS), '-j', '2', '-T', String(PGBENCH_SECONDS), '-n', url]);
    const machine1 = machineCpu();
    clearInterval(poll);
    const transactions = Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1]);
    const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1]);
    const cpuSec = [...seen.values()].reduce((a, b) => a + b, 0);
    return {
      clients: PGBENCH_CLIENTS,
      seconds: PGBENCH_SECONDS,
      scale: 10,
      transactions,
      tps,
      postgresCpuUsPerTransaction: Math.round((1e6 * cpuSec) / transactions),
      postgresCpuPct: round((100 * cpuSec) / PGBENCH_SECONDS, 0),
      machineBusyPct: round(100 * (1 - (machine1.idle - machine0.idle) / (machine1.total - machine0.total)), 0),
    };
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${PGBENCH_DB} WITH (FORCE)`);
  }
}

// ---------------------------------------------------------------------------------------

async function setUp() {
  const db = await freshDatabase(DB_NAME, 8);
  const ids = Array.from({ length: 2 * PAIRS }, () => crypto.randomUUID());
  await insertPlayers(db, ids, 'life');
  await inParallel(ids, 8, (userId) =>
    db.transaction(async (tx) => {
      await openAccounts(tx, { userId, role: 'user', accountType: 'real' });
      await grant(tx, { idempotencyKey: `bench:${userId}`, userId, currency: 'credits', amount: GRANT_MINOR });
    }),
  );
  const tokens = await accessTokens(db, ids);
  await insertBystanders(db, DORMANT, GAME, HISTORY);
  await db.query('VACUUM ANALYZE');
  return { db, ids, tokens };
}

async function main() {
  const loadAtStart = loadavg();
  const { db, ids, tokens } = await setUp();
  const server = await spawnBenchServer(path.join(here, '../moves/server.ts'), urlFor(DB_NAME), [
    ...(env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${env.BENCH_PROF}`] : []),
  ]);
  const child = server.child;
  port = server.port;
  let result: Record<string, unknown>;
  try {
    const pairs: Pair[] = [];
    await inParallel(
      Array.from({ length: PAIRS }, (_, i) => i),
      20,
      async (i) => {
        const sides = [await connect(tokens[2 * i]!, 0), await connect(tokens[2 * i + 1]!, 1)] as [Side, Side];
        const pair: Pair = { sides, match: null, moving: false, ended: null, endedSides: 0, lastMoveAt: 0 };
        for (const side of sides) wire(pair, side);
        pairs.push(pair);
      },
    );
    log(`${PAIRS} pairs connected (${ids.length} sockets); ${GAME}, ${SECONDS} s after ${WARMUP} s of warm-up`);
    const loops = pairs.map(async (pair) => {
      while (running) await lifecycle(pair);
    });
    await sleep(WARMUP * 1000);
    phases = [];
    finishes = [];
    settledAt = 0;
    refused = 0;
    const cpuWindow = startCpuWindow(child.pid!, DB_NAME);
    measuring = true;
    await sleep(SECONDS * 1000);
    measuring = false;
    const settled = settledAt;
    const { seconds, serverSec, postgresSec: pgSec, loadGeneratorSec: ownSec, machineBusy, otherSec } = cpuWindow.end();
    // The pairs finish the match they are in: nothing is left in escrow for the audit.
    running = false;
    await Promise.all(loops);
    for (const pair of pairs) for (const side of pair.sides) side.ws.terminate();

    const perMatch = (sec: number) => Math.round((1e6 * sec) / Math.max(1, settled));
    // The run's own matches: the history's have no challenge.
    const [stored] = await db.query<{ moves: number; matches: number }>(
      `SELECT count(*)::int AS matches, (SELECT count(*) FROM match_moves WHERE match_id = ANY (array_agg(m.id)))::int AS moves
         FROM matches m WHERE m.status = 'completed' AND m.challenge_id IS NOT NULL`,
    );
    const sorted = (values: number[]) => values.slice().sort((a, b) => a - b);
    const p = (values: number[]) => ({ p50ms: round(percentile(sorted(values), 50), 1), p99ms: round(percentile(sorted(values), 99), 1) });
    const lifecycleResult = {
      /** CPU per settled match (µs) by process: the figure to read first. */
      cpuUsPerMatch: {
        server: perMatch(serverSec),
        postgres: perMatch(pgSec),
        loadGenerator: perMatch(ownSec),
        total: perMatch(serverSec + pgSec + ownSec),
      },
      settledMatches: settled,
      refusedMoves: refused,
      matchesPerSec: round(settled / seconds, 1),
      /** Moves per completed match over the whole run (stored moves). */
      movesPerMatch: round((stored?.moves ?? 0) / Math.max(1, stored?.matches ?? 1), 1),
      phases: {
        create: p(phases.map((x) => x.create)),
        accept: p(phases.map((x) => x.accept)),
        subscribeAndReady: p(phases.map((x) => x.ready)),
        playAndSettle: p(phases.map((x) => x.play)),
        /** From the last move sent to the settled match's event. */
        finish: p(finishes),
        total: p(phases.map((x) => x.total)),
      },
      serverCpuPct: round((100 * serverSec) / seconds, 0),
      postgresCpuPct: round((100 * pgSec) / seconds, 0),
      loadGeneratorCpuPct: round((100 * ownSec) / seconds, 0),
      machineBusyPct: round(100 * machineBusy, 0),
      /** CPU (% of one core) spent by anything but the server, its PostgreSQL backends and this process. */
      otherCpuPct: round((100 * otherSec) / seconds, 0),
    };
    log('lifecycle', JSON.stringify(lifecycleResult));
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));

    const audit = await auditLedger(db);
    if (audit.problems.length > 0) throw new Error(`ledger audit after the run: ${JSON.stringify(audit.problems)}`);
    const [held] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM escrow_holds WHERE status = 'held'`);
    log(`ledger audit clean; ${held?.n ?? 0} stakes still held`);

    const pgbench = SKIP_PGBENCH ? null : await tpcb();
    if (pgbench) log('pgbench TPC-B', JSON.stringify(pgbench));
    result = {
      bench: 'lifecycle',
      game: GAME,
      pairs: PAIRS,
      dormant: DORMANT,
      history: HISTORY,
      seconds: SECONDS,
      loadAverageAtStart: loadAtStart,
      lifecycle: lifecycleResult,
      ledgerAudit: { clean: true, stakesHeld: held?.n ?? 0 },
      pgbenchTpcb: pgbench,
      /** PostgreSQL CPU per settled match over PostgreSQL CPU per TPC-B transaction (same server, same run). */
      postgresPerMatchOverTpcb: pgbench ? round(lifecycleResult.cpuUsPerMatch.postgres / pgbench.postgresCpuUsPerTransaction, 1) : null,
    };
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await db.close();
  }
  const r = result as { lifecycle: typeof result.lifecycle; postgresPerMatchOverTpcb: number | null };
  log(
    `per match: ${JSON.stringify((r.lifecycle as { cpuUsPerMatch: unknown }).cpuUsPerMatch)} µs; PostgreSQL per match / TPC-B: ${r.postgresPerMatchOverTpcb}`,
  );
  console.log(JSON.stringify(result, null, 2));
}

await main();
