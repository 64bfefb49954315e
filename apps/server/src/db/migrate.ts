// The schema: a baseline (schema/, by feature), the stored functions (functions/, one file each,
// re-applied when their text changes) and numbered migrations after the baseline (migrations/).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database, Queryable } from './database.ts';

const defaultRoot = path.dirname(fileURLToPath(import.meta.url));

// Any fixed number: all server processes agree on it, so only one migrates at a time.
const MIGRATION_LOCK = 727_001;

/** The baseline stands for the old migrations 001–024 (the last release's): later ones are numbered 025 on. */
export const BASELINE = '024_baseline';
const BASELINE_NUMBER = 24;

/** What the old migrations recorded in schema_migrations, every one of them, in order. */
export const LEGACY_MIGRATIONS = [
  '001_accounts.sql',
  '002_auth.sql',
  '003_ledger.sql',
  '004_challenges.sql',
  '005_arena.sql',
  '006_arena_write.sql',
  '007_arena_write_json.sql',
  '007_rooms.sql',
  '008_results.sql',
  '009_arena_write_index.sql',
  '010_arena_write_jsonb.sql',
  '011_arena_finish_view.sql',
  '012_notifications.sql',
  '013_push_and_reminders.sql',
  '014_profile_leaderboards.sql',
  '015_social.sql',
  '016_verification_feedback.sql',
  '017_ledger_lean_operations.sql',
  '018_ledger_close_generic_plans.sql',
  '019_arena_finish_virtual.sql',
  '020_ledger_cheaper_constraints.sql',
  '021_ledger_fewer_statements.sql',
  '022_arena_move_log.sql',
  '023_ledger_close_by_index.sql',
  '024_match_followers.sql',
];

/** Functions the old migrations left that nothing calls, dropped on upgrade (by name: each has one signature). */
const DEAD_FUNCTIONS = ['arena_write_batch', 'arena_write_json', 'realtime_publish_many'];

const sqlFiles = (dir: string, pattern = /\.sql$/) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => pattern.test(f))
        .sort()
    : [];

/** The numbered migrations after the baseline, in order. */
const laterMigrations = (root: string) =>
  sqlFiles(path.join(root, 'migrations'), /^\d{3}_.+\.sql$/).filter((file) => Number(file.slice(0, 3)) > BASELINE_NUMBER);

/** ONE transaction under an advisory lock: changed functions (migrations may call them), the baseline, then the migrations. */
export async function migrate(db: Database, root = defaultRoot): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE IF NOT EXISTS schema_functions (
      name text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    // As pg_dump does: function bodies refer to tables the baseline creates after them.
    await tx.query(`SELECT set_config('check_function_bodies', 'off', true)`);
    const applied: string[] = [];
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
    const legacy = LEGACY_MIGRATIONS.filter((name) => done.has(name));
    const fresh = done.size === 0;
    if (!done.has(BASELINE) && !fresh && legacy.length < LEGACY_MIGRATIONS.length) {
      const last = [...done].sort().at(-1);
      throw new Error(
        `This database was migrated by an older Versus only up to ${last}; this version needs all of ` +
          `001–024 applied first. Start the last Versus release without the schema baseline on it once ` +
          `(it applies the rest), then start this one. Nothing was changed.`,
      );
    }
    const functions = await applyFunctions(tx, path.join(root, 'functions'));
    if (!done.has(BASELINE)) {
      if (fresh) {
        for (const file of sqlFiles(path.join(root, 'schema'))) await tx.exec(fs.readFileSync(path.join(root, 'schema', file), 'utf8'));
      } else {
        for (const fn of DEAD_FUNCTIONS) await tx.query(`DROP FUNCTION IF EXISTS ${fn}`);
        await tx.query('DELETE FROM schema_migrations WHERE name = ANY($1)', [LEGACY_MIGRATIONS]);
      }
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [BASELINE]);
      applied.push(BASELINE);
    }
    for (const file of laterMigrations(root)) {
      if (done.has(file)) continue;
      await tx.exec(fs.readFileSync(path.join(root, 'migrations', file), 'utf8'));
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      applied.push(file);
    }
    return [...applied, ...functions];
  });
}

/** What this build would still apply, read only: readiness, as a process must not serve a schema older than its code. */
export async function pendingMigrations(db: Queryable, root = defaultRoot): Promise<string[]> {
  const [table] = await db.query<{ found: boolean }>(`SELECT to_regclass('schema_migrations') IS NOT NULL AS found`);
  const done = new Set(table?.found ? (await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name) : []);
  return [BASELINE, ...laterMigrations(root)].filter((name) => !done.has(name));
}

/** Runs each functions/<name>.sql whose checksum differs from the one recorded. */
async function applyFunctions(tx: Queryable, dir: string): Promise<string[]> {
  const recorded = new Map(
    (await tx.query<{ name: string; checksum: string }>('SELECT name, checksum FROM schema_functions')).map((r) => [r.name, r.checksum]),
  );
  const applied: string[] = [];
  for (const file of sqlFiles(dir)) {
    const sql = fs.readFileSync(path.join(dir, file), 'utf8');
    const checksum = crypto.createHash('sha256').update(sql).digest('hex');
    const name = file.replace(/\.sql$/, '');
    if (recorded.get(name) === checksum) continue;
    await tx.exec(sql);
    await tx.query(
      `INSERT INTO schema_functions (name, checksum) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET checksum = excluded.checksum, applied_at = now()`,
      [name, checksum],
    );
    applied.push(`functions/${file}`);
  }
  return applied;
}
