import type { Queryable } from '../db/database.ts';

/** Adds the job's row, due in `firstInMs`; an existing row (the schedule) is never moved. */
export async function registerJob(db: Queryable, name: string, firstInMs: number): Promise<void> {
  await db.query(
    `INSERT INTO scheduled_jobs (name, next_run_at)
     VALUES ($1, now() + make_interval(secs => $2::double precision / 1000))
     ON CONFLICT (name) DO NOTHING`,
    [name, firstInMs],
  );
}

/** Claims the job's run when it is due, moving its next run `everyMs` on; false when not due (or taken). */
export async function claimJob(db: Queryable, name: string, everyMs: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE scheduled_jobs
        SET next_run_at = now() + make_interval(secs => $2::double precision / 1000),
            last_started_at = now(), runs = runs + 1
      WHERE name = $1 AND next_run_at <= now()
      RETURNING name`,
    [name, everyMs],
  );
  return rows.length > 0;
}

/** Records how the claimed run ended: `error` null for a success. */
export async function finishJob(db: Queryable, name: string, error: string | null): Promise<void> {
  await db.query('UPDATE scheduled_jobs SET last_finished_at = now(), last_error = $2 WHERE name = $1', [name, error]);
}
