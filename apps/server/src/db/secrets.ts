import type { Queryable } from './database.ts';

/** Returns the named secret, creating it with `generate` the first time any process asks. */
export async function getOrCreateSecret(db: Queryable, name: string, generate: () => string): Promise<string> {
  await db.query('INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, generate()]);
  const [row] = await db.query<{ value: string }>('SELECT value FROM app_secrets WHERE name = $1', [name]);
  if (!row) throw new Error(`Secret ${name} could not be stored`);
  return row.value;
}

/** One app's secrets, each read (or made) once; every process on the database reads the same row. */
export class SecretCache {
  private readonly read = new Map<string, Promise<unknown>>();

  constructor(private readonly db: Queryable) {}

  get<T>(name: string, generate: () => string, parse: (value: string) => T): Promise<T> {
    let value = this.read.get(name) as Promise<T> | undefined;
    if (!value) {
      value = getOrCreateSecret(this.db, name, generate).then(parse);
      // A failed read (database down) is retried by the next caller instead of being kept.
      value.catch(() => this.read.delete(name));
      this.read.set(name, value);
    }
    return value;
  }
}
