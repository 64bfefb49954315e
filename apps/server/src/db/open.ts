import path from 'node:path';
import type { Config } from '../config.ts';
import { openPglite, openPostgres, type Database } from './database.ts';

/** PostgreSQL when DATABASE_URL is set, else the embedded PGlite under DATA_DIR. */
export function openDatabase(config: Config): Promise<Database> {
  if (config.databaseUrl) return Promise.resolve(openPostgres(config.databaseUrl));
  return openPglite(path.join(config.dataDir));
}
