import type { Queryable } from './database.ts';

/** Returns the named secret, creating it with `generate` the first time any process asks. */
export async function getOrCreateSecret(db: Queryable, name: string, generate: () => string): Promise<string> {
  await db.query('INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    generate(),
  ]);
  const [row] = await db.query<{ value: string }>('SELECT value FROM app_secrets WHERE name = $1', [name]);
  if (!row) throw new Error(`Secret ${name} could not be stored`);
  return row.value;
}
