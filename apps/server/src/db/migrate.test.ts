// The baseline is the schema the old migrations built: a new database and one the old files
// migrated end with the same catalog; a partly migrated one is refused, untouched.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { admin, urlFor } from '../test/database.ts';
import { openPglite, openPostgres, type Database } from './database.ts';
import { BASELINE, LEGACY_MIGRATIONS, migrate } from './migrate.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const legacyDir = path.join(here, 'legacy-migrations');

/** What the old migrate() did: every old file in order, recorded by name. */
async function migrateLegacy(db: Database, upTo = LEGACY_MIGRATIONS.length): Promise<void> {
  await db.query('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  for (const file of LEGACY_MIGRATIONS.slice(0, upTo)) {
    await db.exec(fs.readFileSync(path.join(legacyDir, file), 'utf8'));
    await db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
  }
}

/** Every part of the public schema a migration can change, as queries of lines of text. */
const CATALOG = {
  tables: `SELECT c.relname || ' ' || c.relkind::text || ' ' || coalesce(array_to_string(c.reloptions, ','), '')
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'm', 'p')`,
  // Numbered by position among live columns: a dropped column leaves a gap in attnum.
  columns: `SELECT c.relname || '.' || lpad((row_number() OVER (PARTITION BY c.oid ORDER BY a.attnum))::text, 3, '0')
      || ' ' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || (CASE WHEN a.attnotnull THEN ' not null' ELSE '' END)
      || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
      || ' identity:' || a.attidentity::text || ' generated:' || a.attgenerated::text
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped`,
  // Table and domain constraints alike.
  constraints: `SELECT coalesce(c.relname, t.typname) || ' ' || k.conname || ' ' || pg_get_constraintdef(k.oid)
    FROM pg_constraint k JOIN pg_namespace n ON n.oid = k.connamespace
    LEFT JOIN pg_class c ON c.oid = k.conrelid LEFT JOIN pg_type t ON t.oid = k.contypid WHERE n.nspname = 'public'`,
  extensions: `SELECT extname || ' ' || extversion FROM pg_extension`,
  indexes: `SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'`,
  triggers: `SELECT pg_get_triggerdef(t.oid) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND NOT t.tgisinternal`,
  functions: `SELECT pg_get_functiondef(p.oid) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = 'public'`,
  domains: `SELECT t.typname || ' ' || format_type(t.typbasetype, t.typtypmod) || ' ' || t.typnotnull || ' ' || coalesce(t.typdefault, '')
    FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname = 'public' AND t.typtype = 'd'`,
  sequences: `SELECT s.relname || ' ' || format_type(q.seqtypid, NULL) || ' ' || q.seqstart || ' ' || q.seqincrement
      || ' ' || q.seqmax || ' ' || q.seqmin || ' ' || q.seqcycle
    FROM pg_sequence q JOIN pg_class s ON s.oid = q.seqrelid JOIN pg_namespace n ON n.oid = s.relnamespace
    WHERE n.nspname = 'public'`,
};

/** The catalog of `db`, each part as sorted lines. */
async function catalog(db: Database): Promise<Record<keyof typeof CATALOG, string[]>> {
  const result = {} as Record<keyof typeof CATALOG, string[]>;
  for (const part of Object.keys(CATALOG) as (keyof typeof CATALOG)[]) {
    result[part] = await lines(db, CATALOG[part]);
  }
  return result;
}

/** Every row the schema itself holds (house accounts, tracking tables) minus times, and each sequence's position. */
async function contents(db: Database): Promise<string[]> {
  const tables = await lines(db, `SELECT tablename FROM pg_tables WHERE schemaname = 'public'`);
  const rows: string[] = [];
  for (const table of tables) {
    const sql = `SELECT '${table} ' || (to_jsonb(t) - 'created_at' - 'applied_at')::text FROM "${table}" t`;
    rows.push(...(await lines(db, sql)));
  }
  const sequences = await lines(db, `SELECT sequencename || ' ' || coalesce(last_value::text, '-') FROM pg_sequences`);
  return [...rows, ...sequences];
}

async function lines(db: Database, sql: string): Promise<string[]> {
  return (await db.query<{ line: string }>(`SELECT line FROM (${sql}) AS x (line) ORDER BY line`)).map((r) => r.line);
}

const databases: string[] = [];
/** An empty database of its own (not the migrated test template). */
async function emptyDatabase(): Promise<Database> {
  const name = `versus_m_${crypto.randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  databases.push(name);
  return openPostgres(urlFor(name), { max: 1 });
}
const open: Database[] = [];
afterAll(async () => {
  for (const db of open) await db.close();
  for (const name of databases) await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
});

describe('the schema baseline on PostgreSQL', () => {
  it('gives a new database and one the old migrations built the same catalog', async () => {
    const fresh = await emptyDatabase();
    const upgraded = await emptyDatabase();
    open.push(fresh, upgraded);
    const applied = await migrate(fresh);
    expect(applied[0]).toBe(BASELINE);
    expect(applied.filter((step) => step.startsWith('functions/')).length).toBeGreaterThan(20);
    await migrateLegacy(upgraded);
    const before = await catalog(upgraded);
    expect(before.functions.some((f) => f.includes('FUNCTION public.arena_write_json('))).toBe(true);
    expect((await migrate(upgraded))[0]).toBe(BASELINE);

    const [a, b] = [await catalog(fresh), await catalog(upgraded)];
    expect(b).toEqual(a);
    expect(await contents(upgraded)).toEqual(await contents(fresh));
    expect(a.tables.length).toBeGreaterThan(35);
    for (const dead of ['arena_write_batch', 'arena_write_json', 'realtime_publish_many']) {
      expect(a.functions.some((f) => f.includes(`FUNCTION public.${dead}(`))).toBe(false);
    }
    const tracked = 'SELECT name FROM schema_migrations ORDER BY name';
    const since = fs
      .readdirSync(path.join(here, 'migrations'))
      .filter((f) => f.endsWith('.sql'))
      .sort();
    expect(await upgraded.query(tracked)).toEqual([BASELINE, ...since].map((name) => ({ name })));
    expect(await fresh.query(tracked)).toEqual([BASELINE, ...since].map((name) => ({ name })));
    expect(await migrate(fresh)).toEqual([]);
    expect(await migrate(upgraded)).toEqual([]);
  }, 120_000);

  it('migrates an empty database once when two processes start on it together', async () => {
    const first = await emptyDatabase();
    const name = (await first.query<{ db: string }>('SELECT current_database() AS db'))[0]!.db;
    const second = openPostgres(urlFor(name), { max: 1 });
    open.push(first, second);
    const [a, b] = await Promise.all([migrate(first), migrate(second)]);
    expect([a, b].map((steps) => steps.length === 0).sort()).toEqual([false, true]);
    expect([...a, ...b][0]).toBe(BASELINE);
  }, 60_000);

  it('refuses a database the old migrations left half way, and changes nothing', async () => {
    const db = await emptyDatabase();
    open.push(db);
    await migrateLegacy(db, LEGACY_MIGRATIONS.indexOf('012_notifications.sql') + 1);
    const before = await catalog(db);
    await expect(migrate(db)).rejects.toThrow(
      /migrated by an older Versus only up to 012_notifications\.sql; this version needs all of 001–024 applied first/,
    );
    expect(await catalog(db)).toEqual(before);
  }, 60_000);

  it('re-applies a function whose file changed, and only that one; then numbered migrations after the baseline', async () => {
    const db = await emptyDatabase();
    open.push(db);
    await migrate(db);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'versus-schema-'));
    try {
      for (const dir of ['schema', 'functions', 'migrations']) fs.cpSync(path.join(here, dir), path.join(root, dir), { recursive: true });
      const file = path.join(root, 'functions', 'ledger_immutable.sql');
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('are immutable', 'are immutable!'));
      fs.writeFileSync(path.join(root, 'migrations', '999_example.sql'), 'CREATE TABLE example (id int PRIMARY KEY);');
      expect(await migrate(db, root)).toEqual(['999_example.sql', 'functions/ledger_immutable.sql']);
      expect(await migrate(db, root)).toEqual([]);
      const [body] = await db.query<{ def: string }>(`SELECT pg_get_functiondef('ledger_immutable'::regproc) AS def`);
      expect(body!.def).toContain('are immutable!');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the schema baseline on PGlite', () => {
  it('gives a new embedded database and one the old migrations built the same catalog', async () => {
    const fresh = await openPglite('memory://');
    const upgraded = await openPglite('memory://');
    open.push(fresh, upgraded);
    await migrate(fresh);
    await migrateLegacy(upgraded);
    await migrate(upgraded);
    expect(await catalog(upgraded)).toEqual(await catalog(fresh));
    expect(await contents(upgraded)).toEqual(await contents(fresh));
  }, 180_000);
});
