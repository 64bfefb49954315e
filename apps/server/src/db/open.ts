import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.ts';
import { openPglite, openPostgres, type Database } from './database.ts';

/** PostgreSQL when DATABASE_URL is set, else the embedded PGlite under DATA_DIR. */
export function openDatabase(config: Config): Promise<Database> {
  if (config.databaseUrl) return Promise.resolve(openPostgres(config.databaseUrl));
  return openPglite(config.dataDir, { template: EMBEDDED_TEMPLATE });
}

/** Written by the build next to the bundle: a migrated, seeded embedded database. */
export const EMBEDDED_TEMPLATE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'embedded-template.tar.gz');
