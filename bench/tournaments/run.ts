// A timed arena of tic-tac-toe under load: PLAYERS scripted players (256) enter one arena through the real API, hear
// "your game is ready" on their socket (tournament_game_ready on user:{id}), ready (POST /ready) and play over the realtime
// socket ({t:"move"}), closed loop; as each game ends the tournament re-pairs its players. Measured over SECONDS:
//   - pairing latency, as the player sees it: their socket receives match.completed → it receives their next
//     tournament_game_ready (p50/p99; goal p99 < 100 ms), and → the next game in progress (both ready);
//   - the arena's moves/s and CPU per move (server process, the bench database's PostgreSQL backends, load generator);
//   - then, in the same run, bench/moves with GAME=tic-tac-toe (challenge matches, same number of sockets, closed loop)
//     for its moves/s and CPU per move beside the arena's (MOVES_BENCH=0 leaves it out).
//
//   npx tsx bench/tournaments/run.ts
//   PLAYERS=256 SECONDS=20 WARMUP=5 npx tsx bench/tournaments/run.ts
//   PLAYERS=8 SECONDS=2 WARMUP=1 MOVES_BENCH=0 npx tsx bench/tournaments/run.ts   (smoke run: the figures mean nothing)
//
// The arena is created through the API with a field of PLAYERS (an arena takes up to 256); its start
// is moved to now (the API wants 5 minutes' notice) and the server's job (every 2 s) starts it.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import type { MatchEvent, MatchView } from '@versus/domain/arena';
import type { Notification } from '@versus/domain/notifications';
import { REALTIME_PROTOCOL } from '@versus/domain/realtime';
import type { TournamentResponse } from '@versus/domain/tournaments';
import { openAccounts } from '../../apps/server/src/ledger/ledger.service.ts';
import { messageText } from '../../apps/server/src/realtime/message-text.ts';
import { loadavg, startCpuWindow, type CpuWindow } from '../lib/cpu.ts';
import { urlFor } from '../lib/postgres.ts';
import { percentile } from '../lib/rounds.ts';
import { spawnBenchServer, type BenchServer } from '../lib/server.ts';
import { accessTokens, freshDatabase, inParallel, insertPlayers } from '../lib/setup.ts';

const env = process.env;
const PLAYERS = Number(env.PLAYERS ?? 256);
const SECONDS = Number(env.SECONDS ?? 20);
const WARMUP = Number(env.WARMUP ?? 5);
const MOVES_BENCH = env.MOVES_BENCH !== '0';
/** A player's thinking time before each move, ms (uniform in ½–1½ of it); 0: closed loop, a move as soon as it is one's turn. */
const THINK_MS = Number(env.THINK_MS ?? 0);
const DB_NAME = 'versus_bench_tournaments';
const GOAL_P99_MS = 100;
const here = path.dirname(fileURLToPath(import.meta.url));

const log = (...parts: unknown[]) => console.error(`[tournaments ${new Date().toISOString().slice(11, 23)}]`, ...parts);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

let port = 0;

async function api<T>(method: string, url: string, token: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

// ---------------------------------------------------------------------------------------
// Players

interface Game {
  id: string;
  /** A move on its way: the version it was made on, when it was sent. */
  pending: { version: number; t0: number } | null;
}

interface Player {
  userId: string;
  token: string;
  ws: WebSocket;
  game: Game | null;
  seat: 0 | 1 | null;
  last: MatchEvent | null;
  movedOn: number;
  /** When this player's socket showed their last game ended (0: in a game, or not yet played). */
  endedAt: number;
  /** When their next game was announced (for finish → next game in progress). */
  readyAt: number;
  /** A game announced before its predecessor's end reached this socket. */
  queued: { matchId: string; createdAt: number } | null;
}

const games = new Map<string, Game>();
let measuring = false;
let moved = 0;
let refused = 0;
let gamesEnded = 0;
let announced = 0;
const moveLatencies: number[] = [];
/** match.completed received → tournament_game_ready received, ms. */
const pairing: number[] = [];
/** Of the pairing: from the end received to the pairing run's clock (its start, the notification's createdAt), and from there to the socket. */
const toRun: number[] = [];
const runToSocket: number[] = [];
/** match.completed received → next game's first in-progress event received, ms. */
const nextStart: number[] = [];

function connect(userId: string, token: string): Promise<Player> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/realtime`, { perMessageDeflate: false });
    const player: Player = { userId, token, ws, game: null, seat: null, last: null, movedOn: -1, endedAt: 0, readyAt: 0, queued: null };
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ t: 'hello', d: { token, protocol: REALTIME_PROTOCOL } })));
    ws.once('message', (data) => {
      const message = JSON.parse(messageText(data)) as { t: string };
      if (message.t !== 'welcome') return reject(new Error(`expected welcome, got ${messageText(data)}`));
      ws.on('message', (raw) => onMessage(player, raw as Buffer));
      ws.send(JSON.stringify({ t: 'sub', d: { topic: `user:${userId}` } }));
      resolve(player);
    });
  });
}

function onMessage(player: Player, raw: Buffer): void {
  const message = JSON.parse(messageText(raw)) as { t: string; d: Record<string, unknown> };
  if (message.t === 'moved' && !message.d.ok) {
    refused++;
    if (player.game) player.game.pending = null;
    log('refused', JSON.stringify(message.d));
  } else if (message.t === 'error') {
    log('socket error', JSON.stringify(message.d));
  } else if (message.t === 'event') {
    const type = message.d.type as string;
    if (type === 'notification.created') {
      const n = message.d.payload as Notification;
      if (n.type === 'tournament_game_ready' && n.matchId) onGameReady(player, n.matchId, Date.parse(n.createdAt));
    } else if (type.startsWith('match.')) {
      const event = message.d.payload as MatchEvent;
      // Not every match.* event is the match's state (match.player_joined is not).
      if (typeof event.version === 'number' && Array.isArray(event.toMove)) onMatchEvent(player, event);
    }
  }
}

function onGameReady(player: Player, matchId: string, createdAt: number): void {
  if (player.game) {
    // Announced before this socket heard the end of the game before it.
    player.queued = { matchId, createdAt };
    return;
  }
  const now = performance.now();
  announced++;
  if (measuring && player.endedAt > 0) {
    pairing.push(now - player.endedAt);
    const epoch = (t: number) => performance.timeOrigin + t;
    toRun.push(createdAt - epoch(player.endedAt));
    runToSocket.push(epoch(now) - createdAt);
  }
  player.readyAt = now;
  void enter(player, matchId);
}

async function enter(player: Player, matchId: string): Promise<void> {
  const game = games.get(matchId) ?? { id: matchId, pending: null };
  games.set(matchId, game);
  player.game = game;
  player.last = null;
  player.movedOn = -1;
  player.seat = null;
  player.ws.send(JSON.stringify({ t: 'sub', d: { topic: `match:${matchId}` } }));
  const ready = await api<{ match: MatchView }>('POST', `/api/matches/${matchId}/ready`, player.token);
  if (ready.status !== 200) {
    log(`ready ${matchId}: ${ready.status} ${JSON.stringify(ready.body)}`);
    return;
  }
  player.seat = ready.body.match.players.findIndex((p) => p.id === player.userId) as 0 | 1;
  if (player.last) maybeMove(player);
}

function onMatchEvent(player: Player, event: MatchEvent): void {
  const game = player.game;
  if (!game || event.matchId !== game.id) return;
  if (player.last && player.last.version >= event.version) return;
  const first = player.last?.status !== 'in_progress' && event.status === 'in_progress';
  player.last = event;
  const now = performance.now();
  if (first && player.endedAt > 0) {
    if (measuring) nextStart.push(now - player.endedAt);
    player.endedAt = 0;
  }
  // The opponent's socket has the move: delivered.
  if (game.pending && player.movedOn !== game.pending.version && event.version === game.pending.version + 1) {
    if (measuring) {
      moved++;
      moveLatencies.push(now - game.pending.t0);
    }
    game.pending = null;
  }
  if (event.status === 'completed' || event.status === 'cancelled') {
    player.ws.send(JSON.stringify({ t: 'unsub', d: { topic: `match:${game.id}` } }));
    player.game = null;
    player.endedAt = now;
    if (player.seat === 0) {
      games.delete(game.id);
      if (measuring) gamesEnded++;
    }
    const queued = player.queued;
    player.queued = null;
    if (queued) onGameReady(player, queued.matchId, queued.createdAt);
    return;
  }
  maybeMove(player);
}

function maybeMove(player: Player): void {
  const e = player.last;
  const game = player.game;
  if (!e || !game || player.seat === null || game.pending) return;
  if (e.status !== 'in_progress' || e.toMove.length !== 1 || e.toMove[0] !== player.seat || player.movedOn >= e.version) return;
  const cells = (e.game!.view as { cells: (string | null)[] }).cells;
  const free: number[] = [];
  for (let i = 0; i < 9; i++) if (cells[i] === null) free.push(i);
  if (free.length === 0) return;
  player.movedOn = e.version;
  const move = free[Math.floor(Math.random() * free.length)]!;
  const send = () => {
    game.pending = { version: e.version, t0: performance.now() };
    player.ws.send(JSON.stringify({ t: 'move', d: { matchId: game.id, move, version: e.version, ack: 'errors' } }));
  };
  if (THINK_MS > 0) setTimeout(send, THINK_MS * (0.5 + Math.random()));
  else send();
}

// ---------------------------------------------------------------------------------------
// Set-up, the arena, the window

async function setUp() {
  const db = await freshDatabase(DB_NAME, 16);
  const ids = Array.from({ length: PLAYERS + 1 }, () => crypto.randomUUID());
  await insertPlayers(db, ids, 'tour');
  await inParallel(ids, 8, (userId) => db.transaction((tx) => openAccounts(tx, { userId, role: 'user', accountType: 'real' })));
  const tokens = await accessTokens(db, ids);
  await db.query('VACUUM ANALYZE');
  return { db, ids, tokens };
}

function serverScript(): string {
  return path.join(here, '..', 'moves', 'server.ts');
}

async function measure(server: BenchServer): Promise<CpuWindow> {
  const cpuWindow = startCpuWindow(server.child.pid!, DB_NAME);
  measuring = true;
  await sleep(SECONDS * 1000);
  measuring = false;
  return cpuWindow.end();
}

const pct = (values: number[], p: number) =>
  round(
    percentile(
      values.slice().sort((a, b) => a - b),
      p,
    ),
  );

/** bench/moves with GAME=tic-tac-toe, as many sockets, closed loop, no peers: its result JSON. */
function movesBench(): Promise<Record<string, unknown> | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, '..', 'moves', 'run.ts')], {
    env: {
      ...env,
      GAME: 'tic-tac-toe',
      MATCHES: String(Math.max(1, Math.floor(PLAYERS / 2))),
      SECONDS: String(SECONDS),
      WARMUP: String(WARMUP),
      SKIP_OPEN: '1',
      SKIP_PEER: '1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      if (code !== 0) return resolve(null);
      resolve(JSON.parse(out) as Record<string, unknown>);
    });
  });
}

async function main() {
  const loadAtStart = loadavg();
  const { db, ids, tokens } = await setUp();
  const server = await spawnBenchServer(serverScript(), urlFor(DB_NAME));
  port = server.port;
  try {
    const creator = tokens[PLAYERS]!;
    const created = await api<TournamentResponse>('POST', '/api/tournaments', creator, {
      name: 'Bench Arena',
      game: 'tic-tac-toe',
      format: 'arena',
      currency: 'credits',
      entry: { kind: 'stake', stake: 1 },
      minPlayers: 4,
      maxPlayers: PLAYERS,
      startsAt: new Date(Date.now() + 6 * 60_000).toISOString(),
      matchMinutes: 5,
      matchFormat: null,
      arenaMinutes: 60,
    });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
    const id = created.body.tournament.id;

    const players: Player[] = [];
    await inParallel(ids.slice(0, PLAYERS), 16, async (userId, i) => {
      players.push(await connect(userId, tokens[i]!));
    });
    // Joins take the tournament's row lock one at a time, as they would.
    await inParallel(players, 8, async (p) => {
      const joined = await api('POST', `/api/tournaments/${id}/join`, p.token);
      if (joined.status !== 200) throw new Error(`join: ${joined.status} ${JSON.stringify(joined.body)}`);
    });
    log(`${PLAYERS} players entered and connected; starting the arena`);
    // The start moved to now: the server's job starts it on its next beat and pairs everyone.
    await db.query(`UPDATE tournaments SET starts_at = now(), ends_at = now() + interval '60 minutes' WHERE id = $1`, [id]);

    await sleep(WARMUP * 1000);
    const inGames = players.filter((p) => p.game).length;
    log(`warmed up: ${announced} games announced, ${inGames} players in a game; measuring ${SECONDS} s`);
    const w = await measure(server);
    const perMove = (sec: number) => Math.round((1e6 * sec) / Math.max(1, moved));
    const cpuUsPerMove = { server: perMove(w.serverSec), postgres: perMove(w.postgresSec), loadGenerator: perMove(w.loadGeneratorSec) };
    const arena = {
      players: PLAYERS,
      seconds: round(w.seconds),
      cpuUsPerMove: { ...cpuUsPerMove, serverAndPostgres: cpuUsPerMove.server + cpuUsPerMove.postgres },
      movesPerSec: round(moved / w.seconds),
      gamesPerSec: round(gamesEnded / w.seconds),
      pairing: {
        /** match.completed on the player's socket → their next tournament_game_ready there. */
        samples: pairing.length,
        p50ms: pct(pairing, 50),
        p90ms: pct(pairing, 90),
        p99ms: pct(pairing, 99),
        maxms: pct(pairing, 100),
        goalP99ms: GOAL_P99_MS,
        meetsGoal: pct(pairing, 99) < GOAL_P99_MS,
        /** Where it went: end received → the pairing run's start (negative: it had started already), → the socket. */
        toRunP50ms: pct(toRun, 50),
        toRunP99ms: pct(toRun, 99),
        runToSocketP50ms: pct(runToSocket, 50),
        runToSocketP99ms: pct(runToSocket, 99),
        /** → the next game in progress (both players ready). */
        toNextGameP50ms: pct(nextStart, 50),
        toNextGameP99ms: pct(nextStart, 99),
      },
      moveLatency: { p50ms: pct(moveLatencies, 50), p99ms: pct(moveLatencies, 99) },
      refused,
      serverCpuPct: round((100 * w.serverSec) / w.seconds, 0),
      postgresCpuPct: round((100 * w.postgresSec) / w.seconds, 0),
      loadGeneratorCpuPct: round((100 * w.loadGeneratorSec) / w.seconds, 0),
      otherCpuPct: round((100 * w.otherSec) / w.seconds, 0),
    };
    log('arena', JSON.stringify(arena));
    for (const p of players) p.ws.terminate();
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    await db.close();

    const moves = MOVES_BENCH ? await movesBench() : null;
    const closed = (moves?.closedLoop ?? null) as { cpuUsPerMove: Record<string, number>; movesPerSec: number } | null;
    const result = {
      bench: 'tournaments',
      game: 'tic-tac-toe',
      thinkMs: THINK_MS,
      loadAverageAtStart: loadAtStart,
      arena,
      /** bench/moves GAME=tic-tac-toe in the same run: challenge matches, PLAYERS sockets, closed loop. */
      movesTicTacToe: closed && { matches: moves!.matches, cpuUsPerMove: closed.cpuUsPerMove, movesPerSec: closed.movesPerSec },
    };
    const pairingLine = `pairing p50 ${arena.pairing.p50ms} ms, p99 ${arena.pairing.p99ms} ms (goal < ${GOAL_P99_MS})`;
    log(
      `arena of ${PLAYERS}: ${pairingLine}; ${arena.movesPerSec} moves/s; CPU per move: server ${cpuUsPerMove.server} µs, PostgreSQL ${cpuUsPerMove.postgres} µs`,
    );
    if (closed)
      log(
        `bench/moves tic-tac-toe: ${closed.movesPerSec} moves/s; CPU per move: server ${closed.cpuUsPerMove.server} µs, PostgreSQL ${closed.cpuUsPerMove.postgres} µs`,
      );
    console.log(JSON.stringify(result, null, 2));
  } finally {
    if (server.child.exitCode === null) server.child.kill('SIGTERM');
  }
}

await main();
