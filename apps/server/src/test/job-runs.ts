// Records every scheduled job run claimed while processes come and go; a claim sets next_run_at to start +
// period, so the period is read from the row.
import type { Queryable } from '../db/database.ts';

export interface JobRun {
  name: string;
  /** The job's run counter after this run. */
  runs: number;
  startedAtMs: number;
  everyMs: number;
}

export interface JobWatch {
  runs: JobRun[];
  /** Runs missed by the watch: the counter moved by more than one between two looks. */
  unseen: { name: string; from: number; to: number }[];
  stop(): Promise<void>;
}

interface Row {
  name: string;
  runs: number;
  started: number | null;
  every: number | null;
}

export function watchJobs(db: Queryable, everyMs = 100): JobWatch {
  const runs: JobRun[] = [];
  const unseen: JobWatch['unseen'] = [];
  const last = new Map<string, number>();
  let stopped = false;
  const look = async () => {
    const rows = await db.query<Row>(
      `SELECT name, runs, extract(epoch FROM last_started_at) * 1000 AS started,
              extract(epoch FROM next_run_at - last_started_at) * 1000 AS every
         FROM scheduled_jobs`,
    );
    for (const row of rows) {
      const before = last.get(row.name) ?? 0;
      if (row.runs === before || row.started === null || row.every === null) continue;
      if (row.runs > before + 1) unseen.push({ name: row.name, from: before, to: row.runs });
      last.set(row.name, row.runs);
      runs.push({ name: row.name, runs: row.runs, startedAtMs: Math.round(row.started), everyMs: Math.round(row.every) });
    }
  };
  const loop = (async () => {
    while (!stopped) {
      await look();
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    await look();
  })();
  return {
    runs,
    unseen,
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

/** Two runs of one job within one period: what "once across processes" forbids. */
export function doubleRuns(runs: readonly JobRun[]): { name: string; apartMs: number; everyMs: number }[] {
  const found: { name: string; apartMs: number; everyMs: number }[] = [];
  for (const name of new Set(runs.map((run) => run.name))) {
    const list = runs.filter((run) => run.name === name);
    for (let i = 1; i < list.length; i++) {
      const apartMs = list[i]!.startedAtMs - list[i - 1]!.startedAtMs;
      if (apartMs < list[i - 1]!.everyMs) found.push({ name, apartMs, everyMs: list[i - 1]!.everyMs });
    }
  }
  return found;
}

/** The longest wait between two runs of `name`, and from its last run until `untilMs` (database time). */
export function longestWait(runs: readonly JobRun[], name: string, untilMs: number): number {
  const starts = runs.filter((run) => run.name === name).map((run) => run.startedAtMs);
  let longest = 0;
  for (let i = 1; i < starts.length; i++) longest = Math.max(longest, starts[i]! - starts[i - 1]!);
  return Math.max(longest, untilMs - (starts.at(-1) ?? untilMs));
}
