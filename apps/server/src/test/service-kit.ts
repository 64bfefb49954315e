// What the service test kits share: a real app on a fresh PostgreSQL database, the money and
// event checks on it, and players signed up (and made admin) through the API.
import { expect } from 'vitest';
import type { AccountType, Currency } from '@versus/domain';
import { buildApp, type App } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { Database, Queryable } from '../db/database.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { balances, expectAuditClean, readEvents, setAvailable } from './ledger-checks.ts';

export interface KitApp {
  app: App;
  database: TestDatabase;
  ctx: AppContext;
  db: Database;
}

/** An API-only app (no jobs, no demo seed) on a fresh database of its own. */
export async function startKitApp(options: { max?: number } = {}): Promise<KitApp> {
  const database = await createTestDatabase(options.max ? { max: options.max } : {});
  const config = loadConfig({ WEB_DIR: '', SEED_DEMO: 'false', RUN_JOBS: 'false' });
  const app = await buildApp({ config, db: database.db, logger: false });
  await app.ready();
  return { app, database, ctx: app.services, db: database.db };
}

export interface KitChecks {
  /** Minor units. */
  balance(userId: string, currency?: Currency): Promise<{ available: number; escrow: number }>;
  /** Sets a player's available balance through the ledger (grant or spend), in minor units. */
  setAvailable(userId: string, minor: number, currency?: Currency): Promise<void>;
  events(topic: string): Promise<{ type: string; payload: Record<string, unknown> }[]>;
  expectAuditClean(): Promise<void>;
  close(): Promise<void>;
}

/** Balances, events, the ledger audit (escrow checked against `ownerTables`) and closing, for a kit on that app. */
export function kitChecks({ app, database, db }: KitApp, ownerTables: Parameters<typeof expectAuditClean>[1]): KitChecks {
  return {
    balance: (userId: string, currency?: Currency) => balances(db, userId, currency),
    setAvailable: (userId: string, minor: number, currency?: Currency) => setAvailable(db, userId, minor, currency),
    events: (topic: string) => readEvents(db, topic),
    expectAuditClean: () => expectAuditClean(db, ownerTables),
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

/** The rows each of `queries` returns, as one string to compare: what a refused request must leave as it was. */
export async function snapshotOf(db: Queryable, queries: string[]): Promise<string> {
  return JSON.stringify(await Promise.all(queries.map((sql) => db.query(sql))));
}

/** A kit's API call, as the sign-up helpers below use it. */
type Post = (method: 'POST', url: string, options: { body: unknown }) => Promise<{ status: number; body: unknown }>;

export interface ApiPlayer {
  id: string;
  username: string;
  headers: { authorization: string };
}

/** Signs `name` up through POST /api/auth/signup (email at `domain`): their id and bearer headers. */
export async function signUpThroughApi(
  api: Post,
  name: string,
  { domain, fullName, accountType = 'real' }: { domain: string; fullName: string; accountType?: AccountType },
): Promise<ApiPlayer> {
  const r = await api('POST', '/api/auth/signup', {
    body: {
      email: `${name}@${domain}`,
      password: 'secret123',
      options: {
        data: {
          account_type: accountType,
          username: name,
          display_name: name,
          full_name: fullName,
          phone: '+44 20 7946 0000',
          date_of_birth: '1995-06-15',
          age_verified: true,
          timezone: 'Europe/London',
        },
      },
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const { user, session } = r.body as { user: { id: string }; session: { access_token: string } };
  return { id: user.id, username: name, headers: { authorization: `Bearer ${session.access_token}` } };
}

/** Makes `player` (signed up with `email`) an admin and signs them in again, so their token carries the role. */
export async function promoteToAdmin<P extends ApiPlayer>(db: Queryable, api: Post, player: P, email: string): Promise<P> {
  await db.query(`UPDATE profiles SET role = 'admin' WHERE id = $1`, [player.id]);
  const r = await api('POST', '/api/auth/signin', { body: { email, password: 'secret123', account_type: 'real' } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const { session } = r.body as { session: { access_token: string } };
  return { ...player, headers: { authorization: `Bearer ${session.access_token}` } };
}
