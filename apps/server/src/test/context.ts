import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/database.ts';
import { PostgresFileStore } from '../storage/postgres-file-store.ts';

/** An AppContext for a test that calls services directly: the app's own parts, files in the database. */
export function testContext(config: Config, db: Database, log: FastifyBaseLogger): AppContext {
  return { config, db, log, files: new PostgresFileStore(db) };
}
