// The floor under any durable write's latency: while a bench measures, a process of its own
// commits a one-row UPDATE every few milliseconds on the same PostgreSQL server (a table of its
// own in the admin database, so its backend's CPU is not counted as the bench database's;
// synchronous_commit on) and times each commit. A move can reach its
// opponent no sooner than its commit is flushed to disk, so when the disk stalls (on a shared
// virtual machine it does, for tens to hundreds of milliseconds: bench/moves/README.md), these
// commits stall too, and the bench shows it beside its own latencies.
//
//   const probe = startCommitProbe(url);   (before a warm-up: it starts while that runs)
//   probe.measure(); ...; const figures = await probe.stop();   (the commits in between)
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { percentile } from './rounds.ts';

export interface CommitProbeFigures {
  commits: number;
  p50ms: number;
  p99ms: number;
  maxms: number;
  /** Commits that took longer than 25 ms, and the time they spent beyond it (the disk's stalls, ms). */
  over25ms: number;
  stalledMs: number;
  /** Those commits as [start, end] (ms since the epoch): a write in flight then waited for the disk too. */
  stalls: [number, number][];
}

const PERIOD_MS = 5;
/** A commit slower than this waited for a stalled disk. */
const STALL_MS = 25;
const round = (n: number) => Math.round(n * 100) / 100;

function summarise(commits: { at: number; ms: number }[]): CommitProbeFigures {
  const sorted = commits.map((c) => c.ms).sort((a, b) => a - b);
  const slow = commits.filter((c) => c.ms > STALL_MS);
  return {
    commits: sorted.length,
    p50ms: round(percentile(sorted, 50)),
    p99ms: round(percentile(sorted, 99)),
    maxms: round(sorted.at(-1) ?? NaN),
    over25ms: slow.length,
    stalledMs: Math.round(slow.reduce((sum, c) => sum + c.ms - STALL_MS, 0)),
    stalls: slow.map((c) => [Math.round(c.at), Math.round(c.at + c.ms)]),
  };
}

/**
 * Starts the probe in a child process on the database at `url`. It keeps the commits from
 * measure() on; stop() ends it and gives their figures.
 */
export function startCommitProbe(url: string): { measure(): void; stop(): Promise<CommitProbeFigures | null> } {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [url], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return {
    measure: () => child.send('measure'),
    stop: () =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), 5000);
        child.once('message', (figures) => {
          clearTimeout(timer);
          resolve(figures as CommitProbeFigures);
        });
        child.send('stop');
      }),
  };
}

// One per probe: benches run side by side on one PostgreSQL would drop each other's table.
const TABLE = `versus_bench_commit_probe_${process.pid}`;

async function probe(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE TABLE IF NOT EXISTS ${TABLE} (id int PRIMARY KEY, n bigint NOT NULL)`);
  await client.query(`INSERT INTO ${TABLE} VALUES (1, 0) ON CONFLICT (id) DO NOTHING`);
  let measuring = false;
  let stopping = false;
  process.on('message', (message) => {
    if (message === 'measure') measuring = true;
    else stopping = true;
  });
  const commits: { at: number; ms: number }[] = [];
  while (!stopping) {
    const started = performance.now();
    await client.query(`UPDATE ${TABLE} SET n = n + 1 WHERE id = 1`);
    if (measuring) commits.push({ at: performance.timeOrigin + started, ms: performance.now() - started });
    await new Promise((resolve) => setTimeout(resolve, PERIOD_MS));
  }
  await client.query(`DROP TABLE ${TABLE}`);
  await client.end();
  process.send!(summarise(commits), () => process.exit(0));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await probe(process.argv[2]!);
