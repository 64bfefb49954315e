import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { FileStore } from './storage/file-store.ts';

/** What every feature is built from. Features receive it; none reaches for globals. */
export interface AppContext {
  config: Config;
  db: Database;
  log: FastifyBaseLogger;
  /** Uploaded files (avatars, evidence, feedback screenshots): the one store FILE_STORE chose. */
  files: FileStore;
}
