// Shared by the social, verification and feedback integration tests: a real app on a fresh
// PostgreSQL database, players signed up through the API, an admin, and raw replies.
import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { AccountType } from '@versus/domain';
import { readEvents } from '../test/ledger-checks.ts';
import { createTestApp, type TestApp } from '../test/app.ts';

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
  const signUp = async (accountType: AccountType = 'real'): Promise<Player> => {
    const name = `so_${crypto.randomBytes(5).toString('hex')}`;
    const r = await api('POST', '/api/auth/signup', {
      body: {
        email: `${name}@social.test`,
        password: 'secret123',
        options: {
          data: {
            account_type: accountType,
            username: name,
            display_name: name,
            full_name: 'Social Player',
            phone: '+44 20 7946 0000',
            date_of_birth: '1995-06-15',
            age_verified: true,
            timezone: 'Europe/London',
          },
        },
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return { id: r.body.user.id, username: name, headers: { authorization: `Bearer ${r.body.session.access_token}` } };
  };
  return {
    t,
    api,
    signUp,
    async admin() {
      const player = await signUp();
      await db.query(`UPDATE profiles SET role = 'admin' WHERE id = $1`, [player.id]);
      const r = await api('POST', '/api/auth/signin', {
        body: { email: `${player.username}@social.test`, password: 'secret123', account_type: 'real' },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return { ...player, headers: { authorization: `Bearer ${r.body.session.access_token}` } };
    },
    events: (topic) => readEvents(db, topic),
    close: () => t.close(),
  };
}
