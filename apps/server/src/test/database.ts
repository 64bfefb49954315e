// Integration tests run against a real PostgreSQL server. Each test file gets its own
// database, cloned from a template that was migrated once per run (fast: a file copy).
import crypto from 'node:crypto';
import pg from 'pg';
import { openPostgres, type Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';

export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** One per test run, so two runs at once never rebuild a template under each other's feet. */
export const TEMPLATE_DB = process.env.VERSUS_TEST_TEMPLATE ?? `versus_test_template_${process.pid}`;

export function urlFor(database: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/** `work` on a connection of its own to the test server's admin database (CREATE / DROP DATABASE). */
export async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${ADMIN_URL} (${(error as Error).message}). ` +
        'Integration tests need it: start it, or set TEST_DATABASE_URL.',
      { cause: error },
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Vitest global setup: creates and migrates the template database once per run. */
export async function createTemplate(): Promise<void> {
  process.env.VERSUS_TEST_TEMPLATE = TEMPLATE_DB;
  await admin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  });
  const db = openPostgres(urlFor(TEMPLATE_DB), { max: 1 });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
}

export async function dropTemplate(): Promise<void> {
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`));
}

export interface TestDatabase {
  db: Database;
  name: string;
  url: string;
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  max?: number;
  /** Opens the database at `url` (direct) another way than openPostgres(url): through a PgBouncer, say. */
  open?: (url: string) => Database;
}

/** A fresh, migrated database for one test file. */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const name = `versus_t_${crypto.randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`));
  const url = urlFor(name);
  const db = options.open ? options.open(url) : openPostgres(url, options.max ? { max: options.max } : {});
  return {
    db,
    name,
    url,
    async drop() {
      await db.close();
      await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
