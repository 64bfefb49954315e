import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { openPostgres, type Database } from '../db/database.ts';
import { loadConfig } from '../config.ts';
import { buildApp } from '../app.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { createMetrics } from '../observability/metrics.ts';
import { figure } from '../observability/test-metrics.ts';
import { scheduleJob, startJob, type JobHandle } from './scheduler.ts';

let t: TestDatabase;
// A second pool on the same database stands for a second server process.
let other: Database;
const log = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  t = await createTestDatabase();
  other = openPostgres(t.url, { max: 4 });
  await t.db.query('CREATE TABLE job_runs (job text NOT NULL, process text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())');
  // Every claim's own time (the now() its UPDATE set next_run_at from), whenever it commits: a
  // job's run starts after its claim commits, which a slow disk can delay past the next claim.
  await t.db.exec(`
    CREATE TABLE job_claims (job text NOT NULL, at timestamptz NOT NULL);
    CREATE FUNCTION record_job_claim() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO job_claims VALUES (NEW.name, NEW.last_started_at);
      RETURN NULL;
    END $$;
    CREATE TRIGGER record_job_claim AFTER UPDATE OF runs ON scheduled_jobs
      FOR EACH ROW WHEN (NEW.runs > OLD.runs) EXECUTE FUNCTION record_job_claim();`);
});
afterAll(async () => {
  await other.close();
  await t.drop();
});

function recorder(db: Database, job: string, process: string) {
  return async () => {
    await db.query('INSERT INTO job_runs (job, process) VALUES ($1, $2)', [job, process]);
  };
}

async function runs(job: string) {
  return t.db.query<{ process: string; at: Date }>('SELECT process, at FROM job_runs WHERE job = $1 ORDER BY at', [job]);
}

describe('scheduleJob', () => {
  it('runs a job once per period across two processes on one database', async () => {
    const everyMs = 400;
    const job = 'two-processes';
    const handles: JobHandle[] = [
      startJob({ db: t.db, log }, { name: job, everyMs, pollMs: 25, runAtStart: true, run: recorder(t.db, job, 'a') }),
      startJob({ db: other, log }, { name: job, everyMs, pollMs: 25, runAtStart: true, run: recorder(other, job, 'b') }),
    ];
    const started = Date.now();
    await sleep(2_150);
    await Promise.all(handles.map((h) => h.stop()));
    const elapsed = Date.now() - started;
    const rows = await runs(job);
    // At start, then once per 400 ms: never two in one period.
    expect(rows.length).toBeGreaterThanOrEqual(Math.floor(elapsed / everyMs) - 1);
    expect(rows.length).toBeLessThanOrEqual(Math.floor(elapsed / everyMs) + 1);
    // Each claim a whole period after the one before (timed by the claims themselves, in µs).
    const claims = await t.db.query<{ gap_ms: number | null }>(
      'SELECT extract(epoch FROM at - lag(at) OVER (ORDER BY at)) * 1000 AS gap_ms FROM job_claims WHERE job = $1 ORDER BY at',
      [job],
    );
    expect(claims).toHaveLength(rows.length);
    for (const { gap_ms } of claims.slice(1)) expect(Number(gap_ms)).toBeGreaterThanOrEqual(everyMs);
    const [state] = await t.db.query<{ runs: number }>('SELECT runs FROM scheduled_jobs WHERE name = $1', [job]);
    expect(state?.runs).toBe(rows.length);
  });

  it('lets exactly one of many simultaneous ticks run a due job', async () => {
    const job = 'simultaneous';
    const handles = Array.from({ length: 8 }, (_, i) =>
      startJob({ db: i % 2 ? other : t.db, log }, { name: job, everyMs: 60_000, pollMs: 60_000, run: recorder(t.db, job, String(i)) }),
    );
    expect(await Promise.all(handles.map((h) => h.registered))).toEqual(Array(8).fill(true));
    await t.db.query(`UPDATE scheduled_jobs SET next_run_at = now() - interval '1 second' WHERE name = $1`, [job]);
    const ran = await Promise.all(handles.map((h) => h.tick()));
    await Promise.all(handles.map((h) => h.stop()));
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect(await runs(job)).toHaveLength(1);
  });

  it('logs a failing job, records the error, and runs it again next period', async () => {
    const job = 'failing';
    const errors: unknown[] = [];
    const failingLog = pino({ level: 'error' }, { write: (line: string) => errors.push(JSON.parse(line)) });
    let calls = 0;
    const metrics = createMetrics({ db: t.db });
    const handle = startJob(
      { db: t.db, log: failingLog, metrics },
      {
        name: job,
        everyMs: 150,
        pollMs: 20,
        runAtStart: true,
        run: async () => {
          calls += 1;
          throw new Error('boom');
        },
      },
    );
    await sleep(400);
    await handle.stop();
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(errors[0]).toMatchObject({ msg: 'job failed', job, err: { message: 'boom' } });
    const [state] = await t.db.query<{ last_error: string }>('SELECT last_error FROM scheduled_jobs WHERE name = $1', [job]);
    expect(state?.last_error).toBe('boom');
    // Each run counted, and counted as failed.
    expect(await figure(metrics, 'versus_job_runs_total', { job })).toBe(calls);
    expect(await figure(metrics, 'versus_job_failures_total', { job })).toBe(calls);
    expect(await figure(metrics, 'versus_job_duration_seconds_count', { job })).toBe(calls);
  });

  it('does nothing unless the config runs jobs, and stops when the app closes', async () => {
    const off = await buildApp({ config: { ...loadConfig({ WEB_DIR: '', RUN_JOBS: 'false' }) }, db: t.db, logger: false });
    expect(
      scheduleJob(
        off,
        { config: { ...loadConfig({ RUN_JOBS: 'false' }) }, db: t.db, log, metrics: createMetrics({ db: t.db }) },
        { name: 'off', everyMs: 10, run: async () => undefined },
      ),
    ).toBeNull();
    await off.close();

    const job = 'app-bound';
    const metrics = createMetrics({ db: t.db });
    const app = await buildApp({ config: { ...loadConfig({ WEB_DIR: '', RUN_JOBS: 'false' }) }, db: t.db, logger: false });
    const handle = scheduleJob(
      app,
      { config: { ...loadConfig({ RUN_JOBS: 'true' }) }, db: t.db, log, metrics },
      { name: job, everyMs: 50, pollMs: 10, runAtStart: true, run: recorder(t.db, job, 'app') },
    );
    expect(handle).not.toBeNull();
    await app.ready();
    await sleep(200);
    await app.close();
    const count = (await runs(job)).length;
    expect(count).toBeGreaterThanOrEqual(2);
    await sleep(200);
    expect(await runs(job)).toHaveLength(count);
    expect((await t.db.query('SELECT 1 FROM scheduled_jobs WHERE name = $1', ['off'])).length).toBe(0);
    // Every run this process made is counted; none failed.
    expect(await figure(metrics, 'versus_job_runs_total', { job })).toBe(count);
    expect(await figure(metrics, 'versus_job_failures_total', { job })).toBe(0);
  });
});
