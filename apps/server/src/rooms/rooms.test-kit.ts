// Shared by the rooms integration tests: a real app on a fresh PostgreSQL database, players
// registered through POST /api/auth/signup, and ways to look at the money and the events.
import crypto from 'node:crypto';
import type { AccountType } from '@versus/domain';
import type { ApiErrorBody } from '@versus/domain/errors';
import type { CreateRoomResponse, JoinRoomResponse, Room, RoomPreview } from '@versus/domain/rooms';
import { kitChecks, signUpThroughApi, snapshotOf, startKitApp, type KitApp, type KitChecks } from '../test/service-kit.ts';

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

export interface Kit extends KitApp, KitChecks {
  signUp(accountType?: AccountType): Promise<Player>;
  api(method: 'GET' | 'POST', url: string, options?: { as?: Player; body?: unknown }): Promise<Reply>;
  create(as: Player, body?: unknown): Promise<Reply>;
  /** Everything a refused request must leave as it was. */
  snapshot(): Promise<string>;
}

let counter = 0;

export async function createKit(options: { max?: number } = {}): Promise<Kit> {
  const started = await startKitApp(options);
  const { app, db } = started;
  const kit: Kit = {
    ...started,
    ...kitChecks(started, ['private_rooms', 'matches']),
    async signUp(accountType = 'real') {
      counter += 1;
      const name = `room_${counter}_${crypto.randomBytes(3).toString('hex')}`;
      // Each sign-up from an address of its own, under the per-address limit.
      const remoteAddress = `10.7.${counter % 250}.${(counter * 7) % 250}`;
      const post = async (method: 'POST', url: string, { body }: { body: unknown }) => {
        const response = await app.inject({
          method,
          url,
          remoteAddress,
          payload: body as object,
        });
        return { status: response.statusCode, body: response.json<unknown>() };
      };
      const player = await signUpThroughApi(post, name, { domain: 'example.com', fullName: 'Room Player', accountType });
      return { ...player, accountType };
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
    snapshot: () =>
      snapshotOf(db, [
        'SELECT id, room_code, status, joiner_id, match_id, updated_at FROM private_rooms ORDER BY id',
        'SELECT id, status FROM matches ORDER BY id',
        'SELECT id, balance FROM ledger_accounts ORDER BY id',
        'SELECT count(*)::int AS n FROM ledger_operations',
        'SELECT id, status, room_id, match_id FROM escrow_holds ORDER BY id',
        'SELECT topic, version FROM realtime_topics ORDER BY topic',
      ]),
  };
  return kit;
}

/** Minor units of a whole amount. */
export const minor = (units: number) => units * 100;
