// bench/moves in rounds: the whole run (ours: open loop, closed loop; then boardgame.io) BENCH_ROUNDS
// times, each from a fresh database and server, so each of our figures sits next to a
// boardgame.io figure taken a minute later rather than once for the whole session. On a shared
// two-core machine throughput drifts by ±20 % over minutes (as bench/ledger found); one pair of
// runs can land ours in a slow phase and theirs in a fast one, or the other way round. Prints
// every round and the medians (the ratio's median is over the rounds' own ratios).
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

interface Run {
  openLoop: { p50ms: number; p99ms: number } & Probe;
  closedLoop: { movesPerSec: number; p99ms: number; cpuMsPerMove: { total: number } } & Probe;
  boardgameio: { movesPerSec: number; p99ms: number } | null;
  boardgameioCpuMsPerMove: { total: number } | null;
}

interface Round {
  openP50ms: number;
  openP99ms: number;
  /** The open loop's moves clear of the disk's stalls (commit-probe.ts), and how long the disk stalled. */
  openClearP99ms: number;
  openDiskStalledMs: number | null;
  openLongestCommitMs: number | null;
  closedDiskStalledMs: number | null;
  closedMovesPerSec: number;
  closedP99ms: number;
  cpuMsPerMove: number;
  boardgameioMovesPerSec: number | null;
  boardgameioP99ms: number | null;
  boardgameioCpuMsPerMove: number | null;
  ratio: number | null;
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
  rounds.push({
    openP50ms: r.openLoop.p50ms,
    openP99ms: r.openLoop.p99ms,
    openClearP99ms: r.openLoop.clearOfDiskStalls.p99ms,
    openDiskStalledMs: r.openLoop.commitProbe?.stalledMs ?? null,
    openLongestCommitMs: r.openLoop.commitProbe?.maxms ?? null,
    closedDiskStalledMs: r.closedLoop.commitProbe?.stalledMs ?? null,
    closedMovesPerSec: r.closedLoop.movesPerSec,
    closedP99ms: r.closedLoop.p99ms,
    cpuMsPerMove: r.closedLoop.cpuMsPerMove.total,
    boardgameioMovesPerSec: peer?.movesPerSec ?? null,
    boardgameioP99ms: peer?.p99ms ?? null,
    boardgameioCpuMsPerMove: r.boardgameioCpuMsPerMove?.total ?? null,
    ratio: peer ? round2(r.closedLoop.movesPerSec / peer.movesPerSec) : null,
  });
  console.error(`round ${n}: ${JSON.stringify(rounds.at(-1))}`);
}

const of = (pick: (r: Round) => number | null) => {
  const values = rounds.map(pick).filter((v): v is number => v !== null);
  return values.length ? round2(median(values)) : null;
};
const summary = {
  rounds: ROUNDS,
  medianOpenP99ms: of((r) => r.openP99ms),
  openP99GoalMs: 25,
  medianOpenClearOfDiskStallsP99ms: of((r) => r.openClearP99ms),
  openDiskStalledMsPerRound: rounds.map((r) => r.openDiskStalledMs),
  medianClosedMovesPerSec: of((r) => r.closedMovesPerSec),
  medianBoardgameioMovesPerSec: of((r) => r.boardgameioMovesPerSec),
  medianRatio: of((r) => r.ratio),
  ratiosPerRound: rounds.map((r) => r.ratio),
  medianClosedP99ms: of((r) => r.closedP99ms),
  medianBoardgameioP99ms: of((r) => r.boardgameioP99ms),
  medianCpuMsPerMove: { ours: of((r) => r.cpuMsPerMove), boardgameio: of((r) => r.boardgameioCpuMsPerMove) },
};
console.log(JSON.stringify({ bench: 'moves-rounds', rounds, summary }, null, 2));
