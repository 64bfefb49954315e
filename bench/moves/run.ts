// Live-arena moves under load: MATCHES concurrent matches (2 × MATCHES sockets; GAME=checkers, tic-tac-toe or
// rock-paper-scissors), every
// move validated, clocked and durable in PostgreSQL before anyone hears of it, played over the
// realtime socket ({t:"move"}), next to boardgame.io's and Colyseus's own servers on the same
// workload in the same run (which keep nothing in a database).
//
//   npx tsx bench/moves/run.ts            (DATABASE_URL, or postgres://postgres@127.0.0.1:5432)
//   MATCHES=500 SECONDS=20 npx tsx bench/moves/run.ts
//   SKIP_PEER=1 ...                        (without the peers; PEERS=colyseus: that one only)
//   SKIP_OPEN=1 ...                        (the closed loop only: A/B runs of CPU per move)
//   GAME=tic-tac-toe ...                   (a match every ~22 moves; default checkers)
//   GAME=rock-paper-scissors ...           (a match every ~5 moves: the heaviest lifecycle per move)
//   SKIP_CLOSED=1 ...                      (the open loop only: the scale run, README "Scale")
//   DORMANT=0 HISTORY=0 ...                (no bystanders, no past matches: runs before 2026-11-28; README "History")
//   IDLE_SECONDS=30 ...                    (every match live, nobody moving: the upkeep alone)
//   MATCHES=5000 RATE_PER_MATCH=0.2 MATCHES_PER_PAIR=1 SKIP_CLOSED=1 SKIP_PEER=1 ...   (5,000 matches, 10,000 sockets, 1,000 moves/s)
// Diagnostics: BENCH_PROF=dir (V8 CPU profile of the server), BENCH_PERF=1 (JS symbols for Linux
// perf), BENCH_EXPLAIN=ms (PostgreSQL logs plans slower than that), BENCH_LOG_STATEMENTS=1,
// BENCH_NOT_DURABLE=1 (an experiment, never a result: the bench database commits without waiting
// for the disk, synchronous_commit off, to show what the disk adds to the latencies).
// Each phase also reports the server's writer (batches, their size and time), how late the
// server's and this process's event loops ran, and a commit probe (bench/lib/commit-probe.ts): a
// bare one-row commit on the same server every 5 ms, the floor of any durable write. When the disk
// stalls, the moves in flight wait with it; `clearOfDiskStalls` is the latency of the others.
// Results of runs: results.jsonl next to this file.
//
// Memory: the server's heap and RSS after garbage collection (it runs with --expose-gc) before and
// after SOCKETS bare sockets (open, no hello), after the players' 2 × MATCHES sockets said hello
// (signed in, idle), after every pair is in its match (followed, present, clock running), and after
// the windows: per bare socket, per idle signed-in socket, per live match. A warm-up of 100 sockets
// opened and closed first, so one-time costs are not counted per socket. Sockets come from
// SOURCES loopback addresses (127.0.0.1, .2, …): ~28,000 connections per source address fit.
//
// (a) Open loop: each match is offered RATE_PER_MATCH moves per second (2 → 1,000 moves/s for 500
//     matches) at fixed times with random phases; latency = from the move being sent by its
//     player to the OPPONENT's socket receiving the event that carries it. p50/p90/p99/max.
// (b) Closed loop: in every match the player whose turn it is moves as soon as its socket shows
//     its turn. Moves per second (counted when the opponent has received them) and latency.
// Then the peers (peers.ts: boardgame.io, and Colyseus with a patch per move) with MATCHES matches
// for SECONDS seconds, closed loop: their CPU per move, moves per second and p99, set beside our
// closed loop's (all saturated: like figures). The open loop's p99 is measured below saturation
// and is compared with its own goal only, never with a peer's.
//
// The result leads with CPU per move (µs of server, PostgreSQL and load generator CPU per move
// delivered): on a shared machine it moves far less than throughput or latency do.
//
// The clients are as light as the web app's: a checkers player works out its legal moves from the
// board in the event that gives it the turn, as the web board does (checkers-geometry.ts).
// The workload is the real product: matches made from accepted stakes (both stakes in escrow),
// both players readying (POST /ready), a best of 3 refereed move by move, and when a match ends,
// finishMatch pays the winner from escrow, records and rates both players, and the pair readies
// for its next match. GAME=checkers (the default) keeps a match going for ~150+ moves, the
// closest of our games to boardgame.io's counter, which never ends; GAME=tic-tac-toe ends, pays
// and restarts a match every ~22 moves — the heaviest lifecycle per move. The server runs in a
// child process (server.ts); PostgreSQL and this load generator share the machine. Each phase
// also prints the CPU it took per process and how busy the whole machine was: on a shared
// machine, other work competes for the same cores, the peers' runs included.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import type { MatchEvent } from '@versus/domain/arena';
import type { Database, Queryable } from '../../apps/server/src/db/database.ts';
import { lockEscrow, openAccounts } from '../../apps/server/src/ledger/ledger.service.ts';
import { benchGame, chooseMove, mayMove, signedInSocket } from '../lib/arena-client.ts';
import { loadavg, startCpuWindow } from '../lib/cpu.ts';
import { startCommitProbe } from '../lib/commit-probe.ts';
import { ADMIN_URL, urlFor } from '../lib/postgres.ts';
import { percentile } from '../lib/rounds.ts';
import { type BenchServer, logCollections, type ServerMemory, serverMemory, spawnBenchServer } from '../lib/server.ts';
import { closeAll } from '../lib/sockets.ts';
import { messageText } from '../../apps/server/src/realtime/message-text.ts';
import { accessTokens, freshDatabase, inParallel, insertBystanders, insertPlayers } from '../lib/setup.ts';
import { closedLoopVs, peerLabel, peersToRun, runPeer, type PeerRun } from './peers.ts';

const env = process.env;
const MATCHES = Number(env.MATCHES ?? 500);
const SECONDS = Number(env.SECONDS ?? 20);
const WARMUP = Number(env.WARMUP ?? 3);
const RATE_PER_MATCH = Number(env.RATE_PER_MATCH ?? 2);
/** Matches queued per pair of players (a pair plays them one after the other). */
const PER_PAIR = Number(env.MATCHES_PER_PAIR ?? { 'tic-tac-toe': 30, 'rock-paper-scissors': 40 }[env.GAME ?? ''] ?? 4);
const PEERS = peersToRun(env);
/** The closed loop and the peers only (A/B runs of CPU per move): SKIP_OPEN=1. */
const SKIP_OPEN = env.SKIP_OPEN === '1';
/** The open loop only (the scale run): SKIP_CLOSED=1. */
const SKIP_CLOSED = env.SKIP_CLOSED === '1';
/** Seconds with every match live and nobody moving (IDLE_SECONDS, default 0): the upkeep of the sockets and matches alone. */
const IDLE_SECONDS = Number(env.IDLE_SECONDS ?? 0);
/** Source addresses of the sockets, 127.0.0.1 to 127.0.0.SOURCES: each holds ~28,000 connections to one port. */
const SOURCES = Number(env.SOURCES ?? Math.max(1, Math.ceil((2 * MATCHES) / 4000)));
/** Bare sockets opened to measure what a socket costs before its hello (the server closes them after REALTIME_LIMITS.helloTimeoutMs). */
const BARE_SOCKETS = Math.min(2 * MATCHES, Number(env.BARE_SOCKETS ?? 2000));
/** Colyseus at its default 50 ms patch interval as well (COLYSEUS_DEFAULT_PATCH=1): its rows measure the tick, for reference only. */
const COLYSEUS_DEFAULT_PATCH = env.COLYSEUS_DEFAULT_PATCH === '1';
const NOT_DURABLE = env.BENCH_NOT_DURABLE === '1';
/** Players who do not play, and completed matches between them before the run: as a product in use has (insertBystanders). */
const DORMANT = Number(env.DORMANT ?? 10_000);
const HISTORY = Number(env.HISTORY ?? 20_000);
/**
 * The game played: checkers (random legal moves; a best of 3 lasts ~150+ moves, the closest of
 * our games to boardgame.io's endless counter), tic-tac-toe (random free cells; a match ends,
 * pays out and restarts every ~22 moves) or rock-paper-scissors (random throws, seat 0 first
 * then seat 1, one move in flight per pair as in the others; a match every ~5 moves).
 */
const GAME = benchGame(env.GAME);
const STAKE_MINOR = 100;
/** The bench's own database (BENCH_DB: another name, for runs side by side on one PostgreSQL). */
const DB_NAME = env.BENCH_DB ?? 'versus_bench_moves';
const here = path.dirname(fileURLToPath(import.meta.url));

const log = (...parts: unknown[]) => console.error(`[moves ${new Date().toISOString().slice(11, 23)}]`, ...parts);

// ---------------------------------------------------------------------------------------
// Set-up: players with credits, and PER_PAIR pending matches per pair with both stakes in escrow

interface PairSpec {
  players: [string, string];
  tokens: [string, string];
  matches: string[];
}

async function setUp(): Promise<{ db: Database; pairs: PairSpec[] }> {
  const started = performance.now();
  const db = await freshDatabase(DB_NAME, 16, {
    ...(NOT_DURABLE ? { synchronous_commit: 'off' } : {}),
    // Diagnostics: PostgreSQL logs every statement of the bench database with its duration.
    ...(env.BENCH_LOG_STATEMENTS ? { log_min_duration_statement: '0' } : {}),
    // Diagnostics: PostgreSQL logs the plan of every statement of the bench database slower than BENCH_EXPLAIN ms.
    ...(env.BENCH_EXPLAIN
      ? {
          session_preload_libraries: `'auto_explain'`,
          'auto_explain.log_min_duration': `'${Number(env.BENCH_EXPLAIN)}ms'`,
          'auto_explain.log_nested_statements': 'on',
        }
      : {}),
  });

  const ids = Array.from({ length: 2 * MATCHES }, () => crypto.randomUUID());
  await insertPlayers(db, ids, 'moves');
  await inTransactions(db, ids, (tx, userId) => openAccounts(tx, { userId, role: 'user', accountType: 'real' }));
  const tokens = await accessTokens(db, ids);

  const pairs: PairSpec[] = [];
  for (let i = 0; i < MATCHES; i++) {
    pairs.push({
      players: [ids[2 * i]!, ids[2 * i + 1]!],
      tokens: [tokens[2 * i]!, tokens[2 * i + 1]!],
      matches: Array.from({ length: PER_PAIR }, () => crypto.randomUUID()),
    });
  }
  // Far enough ahead that no match is a no-show during the run.
  const rows = pairs.flatMap((p) => p.matches.map((id, n) => [id, p.players[0], p.players[1], n === 0] as const));
  // A pair's first match has its first player ready already (nextMatch posts the second's ready only): set-up makes
  // 5,000 HTTP readies for 5,000 matches, not 10,000; the between-matches figures never include a first match.
  await db.query(
    `INSERT INTO matches (id, player1_id, player2_id, game_type, platform, stake, bet_amount, currency, scheduled_time, player1_ready_at)
     SELECT id, p1, p2, $4, 'web', 1, 1, 'credits', now() + interval '1 hour', CASE WHEN first THEN now() END
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $5::boolean[]) AS t (id, p1, p2, first)`,
    [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), GAME, rows.map((r) => r[3])],
  );
  // Both stakes of every match locked through the ledger.
  const locks = pairs.flatMap((p) => p.matches.flatMap((matchId) => p.players.map((userId) => ({ matchId, userId }))));
  await inTransactions(db, locks, async (tx, { matchId, userId }) => {
    await lockEscrow(tx, {
      idempotencyKey: `bench:${matchId}:${userId}`,
      userId,
      amount: STAKE_MINOR,
      currency: 'credits',
      owner: { matchId },
    });
  });
  await insertBystanders(db, DORMANT, GAME, HISTORY);
  await db.query('VACUUM ANALYZE');
  log(
    `set up ${ids.length} players and ${rows.length} matches (${locks.length} stakes in escrow) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { db, pairs };
}

/** `work` on every item, 50 to a transaction, 8 transactions at once. */
async function inTransactions<T>(db: Database, items: readonly T[], work: (tx: Queryable, item: T) => Promise<void>): Promise<void> {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += 50) chunks.push(items.slice(i, i + 50));
  await inParallel(chunks, 8, (chunk) =>
    db.transaction(async (tx) => {
      for (const item of chunk) await work(tx, item);
    }),
  );
}

// ---------------------------------------------------------------------------------------
// The server

function startServer(): Promise<BenchServer> {
  return spawnBenchServer(path.join(here, 'server.ts'), urlFor(DB_NAME), [
    // BENCH_PROF=dir: a V8 CPU profile of the server, written when it exits.
    ...(env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${env.BENCH_PROF}`] : []),
    // BENCH_PERF=1: JS symbols for the Linux `perf` profiler.
    ...(env.BENCH_PERF ? ['--perf-basic-prof'] : []),
    // The memory readings collect garbage first.
    '--expose-gc',
  ]);
}

// ---------------------------------------------------------------------------------------
// Players and pairs

type Mode = 'idle' | 'open' | 'closed';

interface Side {
  index: 0 | 1;
  userId: string;
  token: string;
  ws: WebSocket;
  /** The latest event of the current match this socket has seen. */
  last: MatchEvent | null;
  /** The version this side last moved on. */
  movedOn: number;
  waiters: Map<string, () => void>;
}

interface Pair {
  spec: PairSpec;
  sides: [Side, Side];
  cursor: number;
  current: string | null;
  /** A move on its way: who sent it, on which version, when. */
  pending: { mover: 0 | 1; version: number; t0: number } | null;
  switching: boolean;
  done: boolean;
  /** When the current match's last event (completed) arrived, for the between-matches figures. */
  endedAt: number;
  /** Phases of the current transition: subscribed, both ready. */
  phases: number[];
  /** When the current match's first in-progress event arrived (0: not yet). */
  startedAt: number;
}

let mode: Mode = 'idle';
let measuring = false;
let latencies: number[] = [];
/** When each measured move was sent (ms since the epoch), beside its latency. */
let sentAt: number[] = [];
/** What each measured move did (BENCH_LATENCY_DUMP): went on, ended a game, or ended the match. */
let endings: ('move' | 'game' | 'match')[] = [];
let moved = 0;
let refused = 0;
const refusals = new Map<string, number>();
let skippedTicks = 0;
let completedMatches = 0;
let exhausted = 0;
/** Between two matches of a pair: from match.completed to the next match's start (ms), and its phases. */
let transitions: { total: number; subscribe: number; ready: number; start: number }[] = [];
/** From the final move sent to match.completed received (the finish: payout, records, ratings). */
let finishes: number[] = [];
let port = 0;
let opened = 0;

/** The next of the SOURCES loopback addresses: each holds ~28,000 connections. */
const nextSource = () => `127.0.0.${1 + (opened++ % SOURCES)}`;

/** A bare socket to the server's realtime path (no hello). */
function openSocket(): WebSocket {
  return new WebSocket(`ws://127.0.0.1:${port}/realtime`, { perMessageDeflate: false, localAddress: nextSource() });
}

async function connect(userId: string, token: string, index: 0 | 1): Promise<Side> {
  return { index, userId, token, ws: await signedInSocket(port, token, nextSource()), last: null, movedOn: -1, waiters: new Map() };
}

function subscribe(side: Side, topic: string): Promise<void> {
  return new Promise((resolve) => {
    side.waiters.set(topic, resolve);
    side.ws.send(JSON.stringify({ t: 'sub', d: { topic } }));
  });
}

async function post(path: string, token: string): Promise<number> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    return res.status;
  } catch (error) {
    // A pair readying its next match as the server stops after the last phase.
    if (mode === 'idle') return 0;
    throw error;
  }
}

function sendMove(pair: Pair, side: Side, event: MatchEvent): void {
  const move = chooseMove(GAME, side.index, event);
  side.movedOn = event.version;
  pair.pending = { mover: side.index, version: event.version, t0: performance.now() };
  // Like boardgame.io's clients, the mover learns its move was played from the update itself.
  side.ws.send(JSON.stringify({ t: 'move', d: { matchId: event.matchId, move, version: event.version, ack: 'errors' } }));
}

/** The side whose turn it is by its own latest event, if it may move now. */
function moverOf(pair: Pair): Side | null {
  for (const side of pair.sides) if (mayMove(side.index, side.last, side.movedOn)) return side;
  return null;
}

/** Between two matches: completed → subscribed → both ready; started when the first in-progress event came. */
function recordTransition(pair: Pair): void {
  const [subscribed, ready] = pair.phases as [number, number];
  if (measuring) {
    transitions.push({
      total: Math.max(ready, pair.startedAt) - pair.endedAt,
      subscribe: subscribed - pair.endedAt,
      ready: ready - subscribed,
      start: Math.max(0, pair.startedAt - ready),
    });
  }
  pair.phases = [];
  pair.endedAt = 0;
}

function onEvent(pair: Pair, side: Side, event: MatchEvent): void {
  if (event.matchId !== pair.current) return;
  if (side.last && side.last.version >= event.version) return;
  side.last = event;
  const pending = pair.pending;
  if (pending && side.index !== pending.mover && event.version === pending.version + 1) {
    const ms = performance.now() - pending.t0;
    pair.pending = null;
    if (measuring) {
      latencies.push(ms);
      sentAt.push(performance.timeOrigin + pending.t0);
      endings.push(event.status !== 'in_progress' ? 'match' : event.gameOver ? 'game' : 'move');
      moved++;
    }
  }
  if (event.status === 'in_progress' && pair.startedAt === 0 && pair.endedAt > 0) {
    // The next match has started (its first in-progress event).
    pair.startedAt = performance.now();
    if (pair.phases.length === 2) recordTransition(pair);
  }
  if (event.status === 'completed' || event.status === 'cancelled') {
    if (!pair.switching) {
      pair.switching = true;
      pair.endedAt = performance.now();
      pair.startedAt = 0;
      if (pending && measuring) finishes.push(pair.endedAt - pending.t0);
      pair.pending = null;
      if (measuring) completedMatches++;
      void nextMatch(pair);
    }
    return;
  }
  if (mode === 'closed' && !pair.pending) {
    // The mover may be the other side: a move that ends a game can give the next game's first
    // move to the same player, whose socket showed its turn while its own move was in flight.
    const mover = moverOf(pair);
    if (mover) sendMove(pair, mover, mover.last!);
  }
}

async function nextMatch(pair: Pair): Promise<void> {
  const old = pair.current;
  if (old) for (const side of pair.sides) side.ws.send(JSON.stringify({ t: 'unsub', d: { topic: `match:${old}` } }));
  const id = pair.spec.matches[pair.cursor++];
  if (!id) {
    pair.done = true;
    pair.current = null;
    exhausted++;
    return;
  }
  pair.current = id;
  for (const side of pair.sides) {
    side.last = null;
    side.movedOn = -1;
  }
  pair.phases = [];
  pair.startedAt = 0;
  await Promise.all(pair.sides.map((side) => subscribe(side, `match:${id}`)));
  pair.phases.push(performance.now());
  pair.switching = false;
  // The two players are two clients: they ready at once (in a pair's first match, the first is ready from the set-up).
  await Promise.all(
    (pair.cursor === 1 ? pair.sides.slice(1) : pair.sides).map(async (side) => {
      const status = await post(`/api/matches/${id}/ready`, side.token);
      if (status !== 200) log(`ready ${id}: ${status}`);
    }),
  );
  pair.phases.push(performance.now());
  if (pair.startedAt > 0) recordTransition(pair);
}

function wire(pair: Pair, side: Side): void {
  side.ws.on('message', (data) => {
    const message = JSON.parse(messageText(data)) as { t: string; d: Record<string, unknown> };
    switch (message.t) {
      case 'event':
        if ((message.d.type as string).startsWith('match.')) onEvent(pair, side, message.d.payload as MatchEvent);
        return;
      case 'moved':
        if (!message.d.ok) {
          refused++;
          const code = String(message.d.code);
          refusals.set(code, (refusals.get(code) ?? 0) + 1);
          if (pair.pending?.mover === side.index) pair.pending = null;
        }
        return;
      case 'subscribed': {
        const topic = message.d.topic as string;
        side.waiters.get(topic)?.();
        side.waiters.delete(topic);
        return;
      }
      case 'error':
        log('socket error', JSON.stringify(message.d));
        return;
    }
  });
}

// ---------------------------------------------------------------------------------------
// Memory

type Memory = ServerMemory['memory'];

const memoryOf = async (server: BenchServer): Promise<Memory> => (await serverMemory(server, 'SIGHUP')).memory;

/** What each of `units` added between two readings (KB): RSS, V8 heap, and memory outside it (buffers). */
function perUnit(before: Memory, after: Memory, units: number) {
  const kb = (bytes: number) => round(bytes / units / 1024, 1);
  return {
    rssKB: kb(after.rss - before.rss),
    heapKB: kb(after.heapUsed - before.heapUsed),
    externalKB: kb(after.external - before.external),
  };
}

const mb = (m: Memory) => ({
  rssMB: round(m.rss / 1048576, 0),
  heapMB: round(m.heapUsed / 1048576, 0),
  heapCommittedMB: round(m.heapCommitted / 1048576, 0),
  newSpaceMB: round(m.newSpaceCommitted / 1048576, 0),
  externalMB: round(m.external / 1048576, 0),
});

/** BARE_SOCKETS sockets opened and held without a hello: what a socket costs the server before it signs in. */
async function bareSockets(server: BenchServer) {
  const before = await memoryOf(server);
  const sockets: WebSocket[] = [];
  const started = performance.now();
  await inParallel(Array.from({ length: BARE_SOCKETS }), 100, async () => {
    const ws = openSocket();
    await new Promise((resolve, reject) => {
      ws.once('error', reject);
      ws.once('open', resolve);
    });
    sockets.push(ws);
  });
  const seconds = (performance.now() - started) / 1000;
  const after = await memoryOf(server);
  // The server closes a socket that has not said hello in time: those would not be counted.
  const closedEarly = sockets.filter((ws) => ws.readyState !== WebSocket.OPEN).length;
  await closeAll(sockets);
  log(`${BARE_SOCKETS} bare sockets opened in ${seconds.toFixed(1)} s (${closedEarly} closed before the reading)`);
  return { sockets: BARE_SOCKETS, closedEarly, perSocket: perUnit(before, after, BARE_SOCKETS - closedEarly) };
}

// ---------------------------------------------------------------------------------------
// Measuring

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

function summary(windowSeconds: number) {
  const sorted = latencies.slice().sort((a, b) => a - b);
  return {
    moves: moved,
    movesPerSec: round(moved / windowSeconds, 1),
    p50ms: round(percentile(sorted, 50), 3),
    p90ms: round(percentile(sorted, 90), 3),
    p99ms: round(percentile(sorted, 99), 3),
    maxms: round(sorted[sorted.length - 1] ?? NaN, 3),
    completedMatches,
    refused,
    /** Between matches (finish → next start), p50/p99 ms, and where the time went. */
    betweenMatches: {
      finishP50ms: round(
        percentile(
          finishes.slice().sort((a, b) => a - b),
          50,
        ),
        1,
      ),
      finishP99ms: round(
        percentile(
          finishes.slice().sort((a, b) => a - b),
          99,
        ),
        1,
      ),
      ...Object.fromEntries(
        (['total', 'subscribe', 'ready', 'start'] as const).flatMap((k) => {
          const v = transitions.map((t) => t[k]).sort((a, b) => a - b);
          return [
            [`${k}P50ms`, round(percentile(v, 50), 1)],
            [`${k}P99ms`, round(percentile(v, 99), 1)],
          ];
        }),
      ),
    },
  };
}

/**
 * The moves in flight at no moment when the probe's commit stalled on the disk (commit-probe.ts):
 * their latency is the software's, where the rest waited for the disk as well.
 */
function clearOf(stalls: [number, number][]) {
  const clear = latencies.filter((ms, i) => !stalls.some(([from, to]) => sentAt[i]! < to && sentAt[i]! + ms > from)).sort((a, b) => a - b);
  return { moves: clear.length, p50ms: round(percentile(clear, 50), 3), p99ms: round(percentile(clear, 99), 3) };
}

function resetCounters() {
  transitions = [];
  finishes = [];
  latencies = [];
  sentAt = [];
  endings = [];
  moved = 0;
  refused = 0;
  refusals.clear();
  skippedTicks = 0;
  completedMatches = 0;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface WriterFigures {
  batches: number;
  items: number;
  writeMs: number;
  waitMs: number;
  eventLoopDelay: { p50ms: number; p99ms: number; maxms: number };
}

/** The server's writer figures so far and its event-loop delay since the last call (SIGUSR2, server.ts). */
function serverFigures(server: BenchServer): Promise<WriterFigures | null> {
  server.child.kill('SIGUSR2');
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), 2000);
    server.lines.once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { writer: WriterFigures }).writer);
    });
  });
}

/** What the writer did between two readings: batches, mean items per batch, mean write and queue wait (ms). */
function writerDelta(a: WriterFigures | null, b: WriterFigures | null) {
  if (!a || !b) return null;
  const batches = b.batches - a.batches;
  const items = b.items - a.items;
  return {
    batches,
    itemsPerBatch: round(items / batches, 1),
    writeMsPerBatch: round((b.writeMs - a.writeMs) / batches, 2),
    waitMsPerItem: round((b.waitMs - a.waitMs) / items, 2),
    serverEventLoopDelay: b.eventLoopDelay,
  };
}

/**
 * What the pairs were doing, sampled every 20 ms: a move in flight, between two matches (until
 * the next one's first in-progress event), or neither (waiting on nothing: in the closed loop, a
 * pair the load generator failed to move).
 */
function samplePairs(pairs: readonly Pair[]) {
  let samples = 0;
  const sums = { moving: 0, betweenMatches: 0, waiting: 0 };
  const timer = setInterval(() => {
    samples++;
    for (const pair of pairs) {
      if (pair.pending) sums.moving++;
      else if (pair.switching || !pair.sides.some((side) => side.last?.status === 'in_progress')) sums.betweenMatches++;
      else sums.waiting++;
    }
  }, 20);
  return () => {
    clearInterval(timer);
    const mean = (sum: number) => round(sum / Math.max(1, samples), 1);
    return { moving: mean(sums.moving), betweenMatches: mean(sums.betweenMatches), waiting: mean(sums.waiting) };
  };
}

async function window(label: string, server: BenchServer, pairs: readonly Pair[], run: () => void, stop: () => void) {
  const probe = startCommitProbe(ADMIN_URL);
  run();
  log(`${label}: warming up ${WARMUP} s`);
  await sleep(WARMUP * 1000);
  resetCounters();
  const writer0 = await serverFigures(server);
  const ownLoop = monitorEventLoopDelay({ resolution: 5 });
  ownLoop.enable();
  probe.measure();
  const cpuWindow = startCpuWindow(server.child.pid!, DB_NAME);
  measuring = true;
  const pairStates = samplePairs(pairs);
  await sleep(SECONDS * 1000);
  measuring = false;
  const cpu = cpuWindow.end();
  const meanPairs = pairStates();
  const seconds = cpu.seconds;
  stop();
  const commitProbe = await probe.stop();
  const writer1 = await serverFigures(server);
  ownLoop.disable();
  const perMove = (cpuSec: number) => Math.round((1e6 * cpuSec) / Math.max(1, moved));
  const cpuUsPerMove = { server: perMove(cpu.serverSec), postgres: perMove(cpu.postgresSec), loadGenerator: perMove(cpu.loadGeneratorSec) };
  const result = {
    /** CPU per move delivered (µs): what each part spent, the figure to read first. */
    cpuUsPerMove: { ...cpuUsPerMove, total: cpuUsPerMove.server + cpuUsPerMove.postgres + cpuUsPerMove.loadGenerator },
    ...summary(seconds),
    skippedTicks,
    refusals: Object.fromEntries(refusals),
    serverCpuPct: round((100 * cpu.serverSec) / seconds, 0),
    /** Of which in the kernel (socket writes to loopback do the receiver's TCP work too). */
    serverSysPct: round((100 * cpu.serverSysSec) / seconds, 0),
    postgresCpuPct: round((100 * cpu.postgresSec) / seconds, 0),
    loadGeneratorCpuPct: round((100 * cpu.loadGeneratorSec) / seconds, 0),
    loadGeneratorSysPct: round((100 * cpu.loadGeneratorSysSec) / seconds, 0),
    /** Mean number of pairs with a move in flight, between matches, or waiting (sampled every 20 ms). */
    meanPairs,
    machineBusyPct: round(100 * cpu.machineBusy, 0),
    /** CPU (% of one core) spent by anything but the server, its PostgreSQL backends and this process: other work on the machine. */
    otherCpuPct: round((100 * cpu.otherSec) / seconds, 0),
    serverRssMB: cpu.serverRssMB,
    writer: writerDelta(writer0, writer1),
    /** A bare one-row commit on the same server meanwhile, every 5 ms: the floor of a durable write (bench/lib/commit-probe.ts). */
    commitProbe: commitProbe && { ...commitProbe, stalls: commitProbe.stalls.length },
    clearOfDiskStalls: clearOf(commitProbe?.stalls ?? []),
    loadGeneratorEventLoopDelay: {
      p50ms: round(ownLoop.percentile(50) / 1e6),
      p99ms: round(ownLoop.percentile(99) / 1e6),
      maxms: round(ownLoop.max / 1e6),
    },
  };
  log(label, JSON.stringify(result));
  // Diagnostics: every measured move's send time and latency, to see whether the slow ones come together.
  if (env.BENCH_LATENCY_DUMP)
    fs.writeFileSync(`${env.BENCH_LATENCY_DUMP}.${label.replace(/\W+/g, '-')}.json`, JSON.stringify({ sentAt, latencies, endings }));
  return result;
}

/** Every match live, nobody moving, for IDLE_SECONDS: what the server and PostgreSQL spend on pings, beats and timers alone. */
async function idleUpkeep(server: BenchServer) {
  await serverFigures(server);
  const cpuWindow = startCpuWindow(server.child.pid!, DB_NAME);
  await sleep(IDLE_SECONDS * 1000);
  const cpu = cpuWindow.end();
  const figures = await serverFigures(server);
  const result = {
    seconds: round(cpu.seconds, 1),
    serverCpuPct: round((100 * cpu.serverSec) / cpu.seconds, 1),
    postgresCpuPct: round((100 * cpu.postgresSec) / cpu.seconds, 1),
    /** The server's event loop meanwhile: its longest stall is the longest a move would have waited behind the upkeep. */
    serverEventLoopDelay: figures?.eventLoopDelay ?? null,
    machineBusyPct: round(100 * cpu.machineBusy, 0),
    otherCpuPct: round((100 * cpu.otherSec) / cpu.seconds, 0),
  };
  log('idle', JSON.stringify(result));
  return result;
}

/** (a) Open loop: RATE_PER_MATCH moves per second per match, random phases. */
function openLoop(server: BenchServer, pairs: readonly Pair[]) {
  const period = 1000 / RATE_PER_MATCH;
  const timers: NodeJS.Timeout[] = [];
  return window(
    'open loop',
    server,
    pairs,
    () => {
      mode = 'open';
      for (const pair of pairs) {
        const tick = () => {
          if (mode !== 'open') return;
          const mover = pair.pending || pair.switching ? null : moverOf(pair);
          if (mover) sendMove(pair, mover, mover.last!);
          else if (measuring) skippedTicks++;
        };
        timers.push(
          setTimeout(() => {
            tick();
            timers.push(setInterval(tick, period));
          }, Math.random() * period),
        );
      }
    },
    () => {
      mode = 'idle';
      for (const timer of timers) clearTimeout(timer);
    },
  );
}

/** The line a reader wants first: CPU per move, then moves/s, then p99. */
function headline(
  label: string,
  phase: { cpuUsPerMove: { server: number; postgres?: number; loadGenerator: number }; movesPerSec: number; p99ms: number },
) {
  const cpu = phase.cpuUsPerMove;
  const postgres = cpu.postgres === undefined ? 'no database' : `PostgreSQL ${cpu.postgres} µs`;
  return `${label}: CPU per move: server ${cpu.server} µs, ${postgres}, load generator ${cpu.loadGenerator} µs; ${phase.movesPerSec} moves/s; p99 ${phase.p99ms} ms`;
}

// ---------------------------------------------------------------------------------------

async function main() {
  const loadAtStart = loadavg();
  const { db, pairs: specs } = await setUp();
  await db.close();
  const server = await startServer();
  const child = server.child;
  port = server.port;
  try {
    // Warm-up: sockets opened, signed in and closed, so one-time costs are not counted per socket.
    const warm: Side[] = [];
    await inParallel(specs.slice(0, 50), 50, async (spec) => {
      for (const [i, id] of spec.players.entries()) warm.push(await connect(id, spec.tokens[i]!, i as 0 | 1));
    });
    await closeAll(warm.map((side) => side.ws));
    const bare = await bareSockets(server);
    await sleep(1000);
    const beforeSignIn = await memoryOf(server);
    const pairs: Pair[] = [];
    const connectStarted = performance.now();
    await inParallel(specs, 50, async (spec) => {
      const sides = (await Promise.all(spec.players.map((id, i) => connect(id, spec.tokens[i]!, i as 0 | 1)))) as [Side, Side];
      const pair: Pair = {
        spec,
        sides,
        cursor: 0,
        current: null,
        pending: null,
        switching: true,
        done: false,
        endedAt: 0,
        phases: [],
        startedAt: 0,
      };
      for (const side of sides) wire(pair, side);
      pairs.push(pair);
    });
    log(`${pairs.length * 2} sockets connected and signed in in ${((performance.now() - connectStarted) / 1000).toFixed(1)} s`);
    const signedIn = await memoryOf(server);
    const readyStarted = performance.now();
    await inParallel(pairs, 50, (pair) => nextMatch(pair));
    log(`every pair is in its first match (${((performance.now() - readyStarted) / 1000).toFixed(1)} s)`);
    const inMatches = await memoryOf(server);

    const idle = IDLE_SECONDS > 0 ? await idleUpkeep(server) : null;
    // (a) Open loop, unless SKIP_OPEN=1.
    const open = SKIP_OPEN ? null : await openLoop(server, pairs);
    if (open) await sleep(500);

    // (b) Closed loop: each mover moves as soon as its socket shows its turn; unless SKIP_CLOSED=1.
    const closed = SKIP_CLOSED
      ? null
      : await window(
          'closed loop',
          server,
          pairs,
          () => {
            mode = 'closed';
            for (const pair of pairs) {
              if (pair.pending || pair.switching) continue;
              const mover = moverOf(pair);
              if (mover) sendMove(pair, mover, mover.last!);
            }
          },
          () => {
            mode = 'idle';
          },
        );
    await sleep(500);

    const writer = await serverFigures(server);
    const afterWindows = await memoryOf(server);
    const memory = {
      /** Before a hello: what the connection, ws and the hub's record of it hold. */
      bareSocket: bare,
      /** Signed in (hello, token checked), following nothing: the figure bench/notify's ~10 KB (signed in, one topic) compares with. */
      idleSignedInSocket: perUnit(beforeSignIn, signedIn, 2 * MATCHES),
      /** Per live match: its two sockets following it and present, its cached state and clock timer, after the readies. */
      liveMatch: perUnit(signedIn, inMatches, MATCHES),
      /** Per live match again after the windows: the moves' events each followed match keeps for resuming sockets included. */
      liveMatchAfterMoves: perUnit(signedIn, afterWindows, MATCHES),
      server: { beforeSignIn: mb(beforeSignIn), signedIn: mb(signedIn), inMatches: mb(inMatches), afterWindows: mb(afterWindows) },
    };
    log('memory', JSON.stringify(memory));
    for (const pair of pairs) for (const side of pair.sides) side.ws.terminate();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));

    const settings = { matches: MATCHES, seconds: SECONDS, warmup: WARMUP };
    const peers: Partial<Record<'boardgameio' | 'colyseus' | 'colyseusDefaultPatch', PeerRun>> = {};
    for (const name of PEERS) {
      // Colyseus pushes a patch per move (PATCH_RATE=0), as we and boardgame.io do: its default
      // 50 ms interval would measure the tick (p50 ≈ 50 ms by construction), not the relay.
      peers[name] = await runPeer(name, settings, name === 'colyseus' ? { PATCH_RATE: '0' } : {}, log);
      if (name === 'colyseus' && COLYSEUS_DEFAULT_PATCH)
        peers.colyseusDefaultPatch = await runPeer(name, settings, { PATCH_RATE: '50' }, log);
    }
    const result = {
      bench: 'moves',
      game: GAME,
      matches: MATCHES,
      sockets: MATCHES * 2,
      sourceAddresses: SOURCES,
      dormant: DORMANT,
      history: HISTORY,
      seconds: SECONDS,
      durable: NOT_DURABLE
        ? 'NO: an experiment with synchronous_commit off (BENCH_NOT_DURABLE=1); moves are published before they reach the disk'
        : 'every move committed to PostgreSQL (synchronous_commit on) before it is published or acknowledged',
      loadAverageAtStart: loadAtStart,
      /** CPU per move (µs) first: the closed loop's beside the peers' (all saturated), and the open loop's. */
      cpuUsPerMove: {
        closedLoop: closed?.cpuUsPerMove ?? null,
        boardgameio: peers.boardgameio?.cpuUsPerMove ?? null,
        colyseus: peers.colyseus?.cpuUsPerMove ?? null,
        openLoop: open?.cpuUsPerMove ?? null,
      },
      closedLoop: closed,
      idle,
      openLoop: open && { offeredPerSec: MATCHES * RATE_PER_MATCH, ...open, goalP99ms: 25, meetsGoal: Number(open.p99ms) < 25 },
      pairsOutOfMatches: exhausted,
      memory,
      writer,
      boardgameio: peers.boardgameio ?? null,
      colyseus: peers.colyseus ?? null,
      ...(peers.colyseusDefaultPatch ? { colyseusDefaultPatch: peers.colyseusDefaultPatch } : {}),
      // Like with like only: our closed loop beside each peer's closed loop. The open loop's p99
      // (below saturation) has its own goal and no counterpart there.
      closedLoopVsBoardgameio: closed && peers.boardgameio ? closedLoopVs(closed, peers.boardgameio) : null,
      closedLoopVsColyseus: closed && peers.colyseus ? closedLoopVs(closed, peers.colyseus) : null,
    };
    if (closed) log(headline('closed loop', closed));
    for (const name of PEERS) log(headline(peerLabel(name), peers[name]!));
    if (result.closedLoopVsColyseus) {
      const vs = result.closedLoopVsColyseus;
      log(
        `against Colyseus: (server + PostgreSQL) / its server ${vs.serverAndPostgresOverServer} (goal ≤ 2, aim ≤ 1); moves/s ×${vs.movesPerSec}; p99 ×${vs.p99}`,
      );
    }
    if (open) log(`${headline('open loop', open)} (offered ${MATCHES * RATE_PER_MATCH}/s; goal p99 < 25 ms)`);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
  }
}

logCollections('load-generator');
await main();
