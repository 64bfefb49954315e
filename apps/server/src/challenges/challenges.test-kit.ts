// Shared by the challenges integration tests: a real app on a fresh PostgreSQL database,
// players with real ledger accounts and real access tokens, and ways to look at the money.
import crypto from 'node:crypto';
import type { AccountType, Role } from '@versus/domain';
import type { ApiErrorBody } from '@versus/domain/errors';
import type { AcceptChallengeResponse, ChallengeList, CreateChallengeRequest, Match } from '@versus/domain/challenges';
import { insertUser } from '../auth/auth.repository.ts';
import type { AccessClaims } from '../auth/claims.ts';
import { signAccessToken } from '../auth/tokens.ts';
import { openAccounts } from '../ledger/ledger.service.ts';
import { kitChecks, snapshotOf, startKitApp, type KitApp, type KitChecks } from '../test/service-kit.ts';

export interface Player {
  id: string;
  username: string;
  claims: AccessClaims;
  headers: { authorization: string };
}

/** Every field any challenges route answers with, so tests read replies without casts. */
export type AnyBody = ApiErrorBody & Omit<AcceptChallengeResponse, 'match'> & ChallengeList & { match: Match };

export interface Reply<T = AnyBody> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
}

export interface Kit extends KitApp, KitChecks {
  player(options?: { role?: Role; accountType?: AccountType; username?: string }): Promise<Player>;
  api<T = AnyBody>(
    method: 'GET' | 'POST',
    url: string,
    options?: { as?: Player; body?: unknown; headers?: Record<string, string> },
  ): Promise<Reply<T>>;
  create(as: Player, body: CreateChallengeRequest, headers?: Record<string, string>): Promise<Reply>;
  /** Everything a refused request must leave as it was. */
  snapshot(): Promise<string>;
}

let counter = 0;
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHQ$0000000000000000000000000000000000000000000';

export async function createKit(options: { max?: number } = {}): Promise<Kit> {
  const started = await startKitApp(options);
  const { app, ctx, db } = started;
  const kit: Kit = {
    ...started,
    ...kitChecks(started, ['challenges', 'matches']),
    async player({ role = 'user', accountType = 'real', username } = {}) {
      counter += 1;
      const name = username ?? `p${process.pid % 1000}x${counter}${crypto.randomBytes(2).toString('hex')}`;
      const id = await db.transaction(async (tx) => {
        const userId = await insertUser(tx, {
          email: `${name}@test.versus`,
          passwordHash: DUMMY_HASH,
          username: name,
          displayName: name,
          fullName: `Player ${name}`,
          phone: '+1 555 010 0100',
          dateOfBirth: '1990-01-01',
          ageVerified: true,
          timezone: 'UTC',
          accountType,
          role,
        });
        await openAccounts(tx, { userId, role, accountType });
        return userId;
      });
      const claims: AccessClaims = { userId: id, role, accountType };
      const session = await signAccessToken(ctx, { ...claims, sessionId: crypto.randomUUID() });
      return { id, username: name, claims, headers: { authorization: `Bearer ${session.access_token}` } };
    },
    async api(method, url, { as, body, headers } = {}) {
      const response = await app.inject({
        method,
        url,
        headers: { ...(as?.headers ?? {}), ...(headers ?? {}) },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      return { status: response.statusCode, body: response.json(), headers: response.headers };
    },
    create(as, body, headers) {
      return kit.api('POST', '/api/challenges', { as, body, ...(headers ? { headers } : {}) });
    },
    snapshot: () =>
      snapshotOf(db, [
        'SELECT id, status, accepted_by, match_id, views FROM challenges ORDER BY id',
        'SELECT count(*)::int AS n FROM matches',
        'SELECT count(*)::int AS n FROM challenge_participants',
        'SELECT count(*)::int AS n FROM challenge_pools',
        'SELECT id, balance FROM ledger_accounts ORDER BY id',
        'SELECT count(*)::int AS n FROM ledger_operations',
        'SELECT id, status, challenge_id, match_id FROM escrow_holds ORDER BY id',
        'SELECT topic, version FROM realtime_topics ORDER BY topic',
      ]),
  };
  return kit;
}

export const chess: CreateChallengeRequest = { game: 'chess', stake: 25, duration: 30 };
export const fortnite: CreateChallengeRequest = { game: 'fortnite', platform: 'pc', gamertag: 'Ninja', stake: 50, duration: 30 };

/** Minor units of a whole stake. */
export const minor = (units: number) => units * 100;
