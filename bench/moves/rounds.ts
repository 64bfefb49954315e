// bench/moves in rounds: the whole run (ours: open loop, closed loop; then boardgame.io and
// Colyseus) BENCH_ROUNDS times, each from a fresh database and server, so each of our figures sits
// next to the peers' figures taken a minute later rather than once for the whole session. On a shared
// two-core machine throughput drifts by ±20 % over minutes (as bench/ledger found); one pair of
// runs can land ours in a slow phase and theirs in a fast one, or the other way round. Prints
// every round and the medians (the ratio's median is over the rounds' own ratios), CPU per move
// first; the peers are set beside our closed loop only (the open loop has its own goal).
//
//   BENCH_ROUNDS=3 npx tsx bench/moves/rounds.ts      (other settings as for run.ts)
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRounds, median } from '../lib/rounds.ts';

const ROUNDS = benchRounds();
const here = path.dirname(fileURLToPath(import.meta.url));

interface Probe {
  commitProbe: { maxms: number; stalledMs: number } | null;
  clearOfDiskStalls: { p99ms: number };
}

interface CpuUs {
  server: number;
  postgres: number;
  loadGenerator: number;
  total: number;
}

interface Run {
  cpuUsPerMove: { closedLoop: CpuUs | null; boardgameio: Omit<CpuUs, 'postgres'> | null; colyseus: Omit<CpuUs, 'postgres'> | null };
  openLoop: ({ p50ms: number; p99ms: number; cpuUsPerMove: CpuUs } & Probe) | null;
  /** Null with SKIP_CLOSED=1 (the scale run). */
  closedLoop: ({ movesPerSec: number; p99ms: number } & Probe) | null;
  boardgameio: { movesPerSec: number; p99ms: number } | null;
  colyseus: { movesPerSec: number; p99ms: number } | null;
  closedLoopVsColyseus: { serverAndPostgresOverServer: number } | null;
}

interface Round {
  /** CPU per move in the closed loop (µs): ours by part, boardgame.io's (no database). */
  serverCpuUsPerMove: number | null;
  postgresCpuUsPerMove: number | null;
  totalCpuUsPerMove: number | null;
  boardgameioServerCpuUsPerMove: number | null;
  boardgameioTotalCpuUsPerMove: number | null;
  closedMovesPerSec: number | null;
  boardgameioMovesPerSec: number | null;
  /** Closed loop against closed loop: moves per second. */
  ratio: number | null;
  closedP99ms: number | null;
  boardgameioP99ms: number | null;
  /** Colyseus, a patch per move: CPU per move (µs), moves/s, p99; ours (server + PostgreSQL) over its server's CPU per move. */
  colyseusServerCpuUsPerMove: number | null;
  colyseusTotalCpuUsPerMove: number | null;
  colyseusMovesPerSec: number | null;
  colyseusP99ms: number | null;
  serverAndPostgresOverColyseusServer: number | null;
  closedDiskStalledMs: number | null;
  /** The open loop, below saturation: against its own goal only (null with SKIP_OPEN=1). */
  openP50ms: number | null;
  openP99ms: number | null;
  openServerCpuUsPerMove: number | null;
  openPostgresCpuUsPerMove: number | null;
  /** The open loop's moves clear of the disk's stalls (commit-probe.ts), and how long the disk stalled. */
  openClearP99ms: number | null;
  openDiskStalledMs: number | null;
  openLongestCommitMs: number | null;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

const rounds: Round[] = [];
for (let n = 1; n <= ROUNDS; n++) {
  console.error(`round ${n} of ${ROUNDS} ...`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, 'run.ts')], {
    env: process.env,
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`round ${n}: bench/moves/run.ts failed (${run.status})`);
  const out = run.stdout.toString();
  const r = JSON.parse(out.slice(out.indexOf('{'))) as Run;
  const peer = r.boardgameio;
  const colyseus = r.colyseus;
  const cpu = r.cpuUsPerMove;
  rounds.push({
    serverCpuUsPerMove: cpu.closedLoop?.server ?? null,
    postgresCpuUsPerMove: cpu.closedLoop?.postgres ?? null,
    totalCpuUsPerMove: cpu.closedLoop?.total ?? null,
    boardgameioServerCpuUsPerMove: cpu.boardgameio?.server ?? null,
    boardgameioTotalCpuUsPerMove: cpu.boardgameio?.total ?? null,
    closedMovesPerSec: r.closedLoop?.movesPerSec ?? null,
    boardgameioMovesPerSec: peer?.movesPerSec ?? null,
    ratio: peer && r.closedLoop ? round2(r.closedLoop.movesPerSec / peer.movesPerSec) : null,
    closedP99ms: r.closedLoop?.p99ms ?? null,
    boardgameioP99ms: peer?.p99ms ?? null,
    colyseusServerCpuUsPerMove: cpu.colyseus?.server ?? null,
    colyseusTotalCpuUsPerMove: cpu.colyseus?.total ?? null,
    colyseusMovesPerSec: colyseus?.movesPerSec ?? null,
    colyseusP99ms: colyseus?.p99ms ?? null,
    serverAndPostgresOverColyseusServer: r.closedLoopVsColyseus?.serverAndPostgresOverServer ?? null,
    closedDiskStalledMs: r.closedLoop?.commitProbe?.stalledMs ?? null,
    openP50ms: r.openLoop?.p50ms ?? null,
    openP99ms: r.openLoop?.p99ms ?? null,
    openServerCpuUsPerMove: r.openLoop?.cpuUsPerMove.server ?? null,
    openPostgresCpuUsPerMove: r.openLoop?.cpuUsPerMove.postgres ?? null,
    openClearP99ms: r.openLoop?.clearOfDiskStalls.p99ms ?? null,
    openDiskStalledMs: r.openLoop?.commitProbe?.stalledMs ?? null,
    openLongestCommitMs: r.openLoop?.commitProbe?.maxms ?? null,
  });
  console.error(`round ${n}: ${JSON.stringify(rounds.at(-1))}`);
}

const of = (pick: (r: Round) => number | null) => {
  const values = rounds.map(pick).filter((v): v is number => v !== null);
  return values.length ? round2(median(values)) : null;
};
const summary = {
  rounds: ROUNDS,
  medianCpuUsPerMove: {
    server: of((r) => r.serverCpuUsPerMove),
    postgres: of((r) => r.postgresCpuUsPerMove),
    total: of((r) => r.totalCpuUsPerMove),
    boardgameioServer: of((r) => r.boardgameioServerCpuUsPerMove),
    boardgameioTotal: of((r) => r.boardgameioTotalCpuUsPerMove),
    colyseusServer: of((r) => r.colyseusServerCpuUsPerMove),
    colyseusTotal: of((r) => r.colyseusTotalCpuUsPerMove),
  },
  /** Issue 26's goal: ≤ 2 (aim ≤ 1), the median of the rounds' own ratios. */
  medianServerAndPostgresOverColyseusServer: of((r) => r.serverAndPostgresOverColyseusServer),
  closedLoop: {
    medianMovesPerSec: of((r) => r.closedMovesPerSec),
    medianBoardgameioMovesPerSec: of((r) => r.boardgameioMovesPerSec),
    medianRatio: of((r) => r.ratio),
    ratiosPerRound: rounds.map((r) => r.ratio),
    medianP99ms: of((r) => r.closedP99ms),
    medianBoardgameioP99ms: of((r) => r.boardgameioP99ms),
    medianColyseusMovesPerSec: of((r) => r.colyseusMovesPerSec),
    medianColyseusP99ms: of((r) => r.colyseusP99ms),
  },
  openLoop: {
    medianP99ms: of((r) => r.openP99ms),
    goalP99ms: 25,
    medianClearOfDiskStallsP99ms: of((r) => r.openClearP99ms),
    p99msPerRound: rounds.map((r) => r.openP99ms),
    medianServerCpuUsPerMove: of((r) => r.openServerCpuUsPerMove),
    medianPostgresCpuUsPerMove: of((r) => r.openPostgresCpuUsPerMove),
    diskStalledMsPerRound: rounds.map((r) => r.openDiskStalledMs),
  },
};
console.log(JSON.stringify({ bench: 'moves-rounds', rounds, summary }, null, 2));
