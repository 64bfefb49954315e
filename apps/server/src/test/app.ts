import crypto from 'node:crypto';
import type { AccountType, Role } from '@versus/domain';
import { buildApp, type App } from '../app.ts';
import { signAccessToken } from '../auth/tokens.ts';
import { loadConfig, type Config, type Limits } from '../config.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseOptions } from './database.ts';

export interface TestApp {
  app: App;
  database: TestDatabase;
  config: Config;
  close(): Promise<void>;
}

/** Per-address limits out of reach, as a test file speaks from one address; the limits' own tests pass the real ones. */
export function relaxedLimits(limits: Limits = loadConfig({}).limits): Limits {
  const many = 1_000_000;
  return {
    ...limits,
    signUp: { ...limits.signUp, perAddress: many, global: many },
    codeLookups: { ...limits.codeLookups, perAddress: many, perAccount: many },
  };
}

/** An API-only app on a fresh PostgreSQL database; it believes X-Forwarded-For, so a test can speak from any address. */
export async function createTestApp(overrides: Partial<Config> = {}, databaseOptions: TestDatabaseOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase(databaseOptions);
  const base = loadConfig({ WEB_DIR: '', SEED_DEMO: 'false', RUN_JOBS: 'false', TRUST_PROXY: 'true' });
  const config = { ...base, limits: relaxedLimits(base.limits), ...overrides };
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

/** An access token for `player` on `app`, in a session of its own (no sign-in needed). */
export async function accessTokenFor(app: App, player: { id: string; role: Role; accountType: AccountType }): Promise<string> {
  const session = await signAccessToken(app.services, {
    userId: player.id,
    role: player.role,
    accountType: player.accountType,
    sessionId: crypto.randomUUID(),
  });
  return session.access_token;
}
