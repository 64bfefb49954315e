import { buildApp, type App } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

export interface TestApp {
  app: App;
  database: TestDatabase;
  config: Config;
  close(): Promise<void>;
}

/**
 * An API-only app on a fresh PostgreSQL database; requests go through app.inject. It believes
 * X-Forwarded-For, so a test can speak from any address.
 */
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = { ...loadConfig({ WEB_DIR: '', SEED_DEMO: 'false', RUN_JOBS: 'false', TRUST_PROXY: 'true' }), ...overrides };
  const app = await buildApp({ config, db: database.db, logger: false });
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}
