// The benches' way into the PostgreSQL server they measure: each bench makes its own database.
import pg from 'pg';

/** A database on the server the benches use (DATABASE_URL, or the local server's `postgres`). */
export const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The address of `database` on the same server. */
export function urlFor(database: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/** One statement on a connection of its own (CREATE / DROP DATABASE cannot run in a pool's transaction). */
export async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
