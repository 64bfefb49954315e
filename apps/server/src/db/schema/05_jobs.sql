-- Jobs: the recurring work run by exactly one server process at a time.

-- One row per job; a process runs a job only after moving next_run_at forward in a single
-- UPDATE, so each period's run happens in exactly one process.
CREATE TABLE scheduled_jobs (
    name text PRIMARY KEY,
    next_run_at timestamptz NOT NULL,
    last_started_at timestamptz,
    last_finished_at timestamptz,
    last_error text,
    runs bigint DEFAULT 0 NOT NULL
);
