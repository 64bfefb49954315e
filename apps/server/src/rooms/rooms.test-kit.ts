// Shared by the rooms integration tests: a real app on a fresh PostgreSQL database, players
// registered through POST /api/auth/signup, and ways to look at the money and the events.
import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { AccountType, Currency } from '@versus/domain';
import type { ApiErrorBody } from '@versus/domain/errors';
import type { CreateRoomResponse, JoinRoomResponse, Room, RoomPreview } from '@versus/domain/rooms';
import { buildApp, type App } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import { balances, expectAuditClean, readEvents, setAvailable } from '../test/ledger-checks.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';

export interface Player {
  id: string;
  username: string;
  accountType: AccountType;
  headers: { authorization: string };
}

/** Every field a rooms route answers with, so tests read replies without casts. */
export type AnyBody = ApiErrorBody & Omit<CreateRoomResponse, 'room'> & Omit<JoinRoomResponse, 'room'> & { room: Room & RoomPreview };

export interface Reply {
  status: number;
  body: AnyBody;
}

export interface Kit {
  app: App;
  database: TestDatabase;
  ctx: AppContext;
  signUp(accountType?: AccountType): Promise<Player>;
  api(method: 'GET' | 'POST', url: string, options?: { as?: Player; body?: unknown }): Promise<Reply>;
  create(as: Player, body?: unknown): Promise<Reply>;
  /** Minor units. */
  balance(userId: string, currency?: Currency): Promise<{ available: number; escrow: number }>;
  setAvailable(userId: string, minor: number, currency?: Currency): Promise<void>;
  /** Everything a refused request must leave as it was. */
  snapshot(): Promise<string>;
  events(topic: string): Promise<{ type: string; payload: Record<string, unknown> }[]>;
  expectAuditClean(): Promise<void>;
  close(): Promise<void>;
}

let counter = 0;

export async function createKit(options: { max?: number } = {}): Promise<Kit> {
  const database = await createTestDatabase(options.max ? { max: options.max } : {});
  const config = loadConfig({ WEB_DIR: '', SEED_DEMO: 'false', RUN_JOBS: 'false' });
  const app = await buildApp({ config, db: database.db, logger: false });
  await app.ready();
  const ctx: AppContext = app.services;
  const db = database.db;

  const kit: Kit = {
    app,
    database,
    ctx,
    async signUp(accountType = 'real') {
      counter += 1;
      const name = `room_${counter}_${crypto.randomBytes(3).toString('hex')}`;
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        remoteAddress: `10.7.${counter % 250}.${(counter * 7) % 250}`,
        payload: {
          email: `${name}@example.com`,
          password: 'secret123',
          options: {
            data: {
              account_type: accountType,
              username: name,
              display_name: name,
              full_name: 'Room Player',
              phone: '+44 20 7946 0000',
              date_of_birth: '1995-06-15',
              age_verified: true,
              timezone: 'Europe/London',
            },
          },
        },
      });
      expect(response.statusCode, response.body).toBe(201);
      const json = response.json<{ user: { id: string; username: string }; session: { access_token: string } }>();
      return {
        id: json.user.id,
        username: json.user.username,
        accountType,
        headers: { authorization: `Bearer ${json.session.access_token}` },
      };
    },
    async api(method, url, { as, body } = {}) {
      const response = await app.inject({
        method,
        url,
        headers: as?.headers ?? {},
        ...(body === undefined ? {} : { payload: body as object }),
      });
      return { status: response.statusCode, body: response.json<AnyBody>() };
    },
    create(as, body = {}) {
      return kit.api('POST', '/api/rooms', { as, body });
    },
    balance: (userId, currency) => balances(db, userId, currency),
    setAvailable: (userId, minor, currency) => setAvailable(db, userId, minor, currency),
    async snapshot() {
      const parts = await Promise.all([
        db.query('SELECT id, room_code, status, joiner_id, match_id, updated_at FROM private_rooms ORDER BY id'),
        db.query('SELECT id, status FROM matches ORDER BY id'),
        db.query('SELECT id, balance FROM ledger_accounts ORDER BY id'),
        db.query('SELECT count(*)::int AS n FROM ledger_operations'),
        db.query('SELECT id, status, room_id, match_id FROM escrow_holds ORDER BY id'),
        db.query('SELECT topic, version FROM realtime_topics ORDER BY topic'),
      ]);
      return JSON.stringify(parts);
    },
    events: (topic) => readEvents(db, topic),
    expectAuditClean: () => expectAuditClean(db, ['private_rooms', 'matches']),
    async close() {
      await app.close();
      await database.drop();
    },
  };
  return kit;
}

/** Minor units of a whole amount. */
export const minor = (units: number) => units * 100;
