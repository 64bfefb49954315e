// Shared by the results and admin integration tests: a real app on a fresh PostgreSQL database,
// players signed up through the API, external-game matches made through the challenges API.
import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { auditLedger } from '../ledger/ledger.audit.ts';
import { createTestApp, type TestApp } from '../test/app.ts';
import { promoteToAdmin, signUpThroughApi } from '../test/service-kit.ts';

export interface TestPlayer {
  id: string;
  username: string;
  headers: { authorization: string };
}

export interface Reply {
  status: number;
  body: Record<string, unknown> & { error?: { code: string; message: string; field?: string } };
  headers: Record<string, string | string[] | number | undefined>;
  raw: LightMyRequestResponse;
}

let counter = 0;
const freshIp = () => {
  counter += 1;
  return `10.77.${Math.floor(counter / 250)}.${counter % 250}`;
};

export interface ResultsKit {
  t: TestApp;
  api(
    method: 'GET' | 'POST',
    url: string,
    options?: { as?: TestPlayer; body?: unknown; headers?: Record<string, string>; payload?: Buffer },
  ): Promise<Reply>;
  signUp(): Promise<TestPlayer>;
  admin(): Promise<TestPlayer>;
  /** An accepted fifa-24 challenge between two new players, its start moved `startedAgoMs` into the past. */
  externalMatch(options?: {
    stake?: number;
    game?: string;
    platform?: string;
    duration?: number;
    startedAgoMs?: number;
  }): Promise<{ matchId: string; p1: TestPlayer; p2: TestPlayer; stake: number }>;
  /** Available credits, minor units. */
  available(userId: string): Promise<number>;
  expectAuditClean(): Promise<void>;
  matchStatus(id: string): Promise<string>;
  close(): Promise<void>;
}

/** `open`: the app to test (default: on a fresh PostgreSQL database). */
export async function createResultsKit(open: () => Promise<TestApp> = () => createTestApp()): Promise<ResultsKit> {
  const t = await open();
  const db = t.database.db;
  const api: ResultsKit['api'] = async (method, url, { as, body, headers, payload } = {}) => {
    const raw = await t.app.inject({
      method,
      url,
      headers: { 'x-forwarded-for': freshIp(), ...(as?.headers ?? {}), ...(headers ?? {}) },
      ...(payload ? { payload } : body === undefined ? {} : { payload: body as object }),
    });
    let parsed: Reply['body'] = {};
    if (String(raw.headers['content-type'] ?? '').includes('json')) parsed = raw.json();
    return { status: raw.statusCode, body: parsed, headers: raw.headers, raw };
  };
  const signUp = (): Promise<TestPlayer> =>
    signUpThroughApi(api, `rp_${crypto.randomBytes(4).toString('hex')}`, { domain: 'results.test', fullName: 'Test Player' });
  const kit: ResultsKit = {
    t,
    api,
    signUp,
    admin: async () => {
      const player = await signUp();
      return promoteToAdmin(db, api, player, `${player.username}@results.test`);
    },
    async externalMatch({ stake = 50, game = 'fifa-24', platform = 'pc', duration = 30, startedAgoMs = 60_000 } = {}) {
      const [p1, p2] = [await signUp(), await signUp()];
      const created = await api('POST', '/api/challenges', { as: p1, body: { game, platform, gamertag: 'Creator', stake, duration } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const challengeId = (created.body.challenge as { id: string }).id;
      const accepted = await api('POST', `/api/challenges/${challengeId}/accept`, { as: p2, body: { gamertag: 'Acceptor' } });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      const matchId = (accepted.body.match as { id: string }).id;
      await db.query('UPDATE matches SET scheduled_time = $2 WHERE id = $1', [matchId, new Date(Date.now() - startedAgoMs)]);
      return { matchId, p1, p2, stake };
    },
    async available(userId) {
      const [row] = await db.query<{ balance: number }>(
        `SELECT balance FROM ledger_accounts WHERE user_id = $1 AND currency = 'credits' AND kind = 'available'`,
        [userId],
      );
      return Number(row?.balance ?? 0);
    },
    async expectAuditClean() {
      const audit = await auditLedger(db);
      expect(audit.problems).toEqual([]);
      expect(audit.ok).toBe(true);
    },
    async matchStatus(id) {
      const [row] = await db.query<{ status: string }>('SELECT status FROM matches WHERE id = $1', [id]);
      return row!.status;
    },
    close: () => t.close(),
  };
  return kit;
}

/** A multipart body: fields plus an optional file part named `evidence`. */
export function multipartBody(fields: Record<string, string>, file?: { type: string; data: Buffer; name?: string }) {
  const boundary = `----versus${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\n` +
          `Content-Disposition: form-data; name="evidence"; filename="${file.name ?? 'shot'}"\r\n` +
          `Content-Type: ${file.type}\r\n\r\n`,
      ),
    );
    chunks.push(file.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The first bytes of a PNG, then `size` bytes in all. */
export function pngOf(size = 256): Buffer {
  const data = Buffer.alloc(size, 7);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(data);
  return data;
}
