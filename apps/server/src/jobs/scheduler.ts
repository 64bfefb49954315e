// Jobs once per period across processes: whoever moves next_run_at forward (UPDATE ... WHERE next_run_at
// <= now()) runs it; a failure is logged and runs again next period.
import type { App, AppContext } from '../context.ts';
import * as repo from './jobs.repository.ts';

export interface Job {
  /** Unique across the application: the row in scheduled_jobs. */
  name: string;
  /** The period: the job runs at most once per period across all processes. */
  everyMs: number;
  /** Run as soon as the process starts if the job is due (a new job is due at once); else first after one period. */
  runAtStart?: boolean;
  /** How often this process looks whether the job is due; defaults to min(everyMs, 60 s). */
  pollMs?: number;
  run(): Promise<unknown>;
}

export interface JobHandle {
  /** Stops polling and waits for a run in progress. */
  stop(): Promise<void>;
  /** Claims and runs the job now if it is due (what each poll does); true when this process ran it. */
  tick(): Promise<boolean>;
  /** Settles once the job's row exists (true) or the first try to register it failed (false: each poll tries again). */
  registered: Promise<boolean>;
}

const MAX_POLL_MS = 60_000;

/** Schedules `job` for the app's lifetime; nothing runs unless ctx.config.runJobs. Stops on app close. */
export function scheduleJob(
  app: App,
  ctx: Pick<AppContext, 'config' | 'db' | 'log'> & Partial<Pick<AppContext, 'metrics'>>,
  job: Job,
): JobHandle | null {
  if (!ctx.config.runJobs) return null;
  const handle = startJob(ctx, job);
  app.addHook('onClose', async () => handle.stop());
  return handle;
}

/** The scheduler without the app: for tests and scripts (runs counted when `metrics` is given). */
export function startJob(ctx: Pick<AppContext, 'db' | 'log'> & Partial<Pick<AppContext, 'metrics'>>, job: Job): JobHandle {
  if (!(job.everyMs > 0)) throw new Error(`job ${job.name}: everyMs must be positive`);
  const log = ctx.log.child({ job: job.name });
  const counted = ctx.metrics?.job(job.name);
  const pollMs = job.pollMs ?? Math.min(job.everyMs, MAX_POLL_MS);
  let stopped = false;
  let running: Promise<boolean> | null = null;
  let timer: NodeJS.Timeout | undefined;

  // Registering never moves an existing row: the schedule survives restarts.
  const register = () =>
    repo.registerJob(ctx.db, job.name, job.runAtStart ? 0 : job.everyMs).then(
      () => true,
      (error: unknown) => {
        log.error({ err: error }, 'job registration failed');
        return false;
      },
    );
  const registered = register();
  let registration = registered;

  async function runOnce(): Promise<boolean> {
    if (stopped) return false;
    // Not registered yet (the database was down at start): each poll tries again.
    if (!(await registration)) registration = register();
    if (!(await registration)) return false;
    let claimed = false;
    try {
      claimed = await repo.claimJob(ctx.db, job.name, job.everyMs);
      if (!claimed) return false;
      counted?.runs.inc();
      const started = performance.now();
      try {
        await job.run();
      } finally {
        counted?.duration.observe((performance.now() - started) / 1000);
      }
      await repo.finishJob(ctx.db, job.name, null);
      log.debug({ ms: Math.round(performance.now() - started) }, 'job done');
    } catch (error) {
      log.error({ err: error }, claimed ? 'job failed' : 'job claim failed');
      if (claimed) {
        counted?.failures.inc();
        await repo
          .finishJob(ctx.db, job.name, String((error as Error)?.message ?? error).slice(0, 1000))
          .catch((recordError: unknown) => log.error({ err: recordError }, 'job failure could not be recorded'));
      }
    }
    return claimed;
  }

  function tick(): Promise<boolean> {
    // One run at a time in this process; a poll during a long run is skipped.
    if (running) return Promise.resolve(false);
    running = runOnce().finally(() => {
      running = null;
    });
    return running;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      void tick().finally(schedule);
    }, pollMs);
    timer.unref();
  }

  if (job.runAtStart) void tick().finally(schedule);
  else schedule();

  return {
    tick,
    registered,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
