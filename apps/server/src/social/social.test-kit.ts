// Shared by the social, verification and feedback integration tests: a real app on a fresh
// PostgreSQL database, players signed up through the API, an admin, and raw replies.
import crypto from 'node:crypto';
import type { AccountType } from '@versus/domain';
import { readEvents } from '../test/ledger-checks.ts';
import { createTestApp, type TestApp } from '../test/app.ts';
import { promoteToAdmin, signUpThroughApi } from '../test/service-kit.ts';

export interface Player {
  id: string;
  username: string;
  headers: { authorization: string };
}

export interface Reply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- four features' replies, no one type; each field read is asserted.
  body: any;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface SocialKit {
  t: TestApp;
  api(
    method: Method,
    url: string,
    options?: { as?: Player; body?: unknown; payload?: Buffer; headers?: Record<string, string> },
  ): Promise<Reply>;
  signUp(accountType?: AccountType): Promise<Player>;
  admin(): Promise<Player>;
  events(topic: string): Promise<{ type: string; payload: Record<string, unknown> }[]>;
  close(): Promise<void>;
}

let counter = 0;

export async function createSocialKit(): Promise<SocialKit> {
  const t = await createTestApp();
  const db = t.database.db;
  const api: SocialKit['api'] = async (method, url, { as, body, payload, headers } = {}) => {
    counter += 1;
    const raw = await t.app.inject({
      method,
      url,
      remoteAddress: `10.66.${Math.floor(counter / 250) % 250}.${counter % 250}`,
      headers: { ...(as?.headers ?? {}), ...(headers ?? {}) },
      ...(payload ? { payload } : body === undefined ? {} : { payload: body as object }),
    });
    const json = String(raw.headers['content-type'] ?? '').includes('json') ? raw.json() : {};
    return { status: raw.statusCode, body: json };
  };
  const signUp = (accountType: AccountType = 'real'): Promise<Player> =>
    signUpThroughApi(api, `so_${crypto.randomBytes(5).toString('hex')}`, { domain: 'social.test', fullName: 'Social Player', accountType });
  return {
    t,
    api,
    signUp,
    admin: async () => {
      const player = await signUp();
      return promoteToAdmin(db, api, player, `${player.username}@social.test`);
    },
    events: (topic) => readEvents(db, topic),
    close: () => t.close(),
  };
}
