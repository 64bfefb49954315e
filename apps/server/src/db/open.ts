import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.ts';
import { openPglite, openPostgres, type Database } from './database.ts';

/** Where the build writes the embedded templates: next to the bundle. */
export const TEMPLATE_DIR = path.dirname(fileURLToPath(import.meta.url));

/** The migrated template a new data folder starts from: the plain one, or the demo one. */
export function embeddedTemplate(demo: boolean, dir = TEMPLATE_DIR): string {
  return path.join(dir, demo ? 'embedded-demo-template.tar.gz' : 'embedded-template.tar.gz');
}

/** PostgreSQL when DATABASE_URL is set, else the embedded PGlite under DATA_DIR. */
export function openDatabase(config: Config, templateDir = TEMPLATE_DIR): Promise<Database> {
  if (config.databaseUrl) {
    return Promise.resolve(openPostgres(config.databaseUrl, { listenUrl: config.databaseListenUrl, poolMode: config.databasePoolMode }));
  }
  return openPglite(config.dataDir, { template: embeddedTemplate(config.seedDemo, templateDir) });
}
