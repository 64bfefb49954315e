// The PostgreSQL rate limiter, and the limits on lookups by private code (challenges and rooms),
// against a real PostgreSQL database.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABUSE_LIMITS, LIMITS } from '@versus/domain';
import { loadConfig } from '../config.ts';
import { signUp } from '../realtime/test-socket.ts';
import { createTestApp, type TestApp } from '../test/app.ts';
import { consume } from './rate-limit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ limits: loadConfig({}).limits });
});
afterAll(() => t.close());

const { perAddress, perAccount } = ABUSE_LIMITS.codeLookups;
const key = () => `test:${crypto.randomBytes(6).toString('hex')}`;

describe('consume', () => {
  it('allows `limit` hits in a window, refuses the rest with the seconds left, and starts afresh after', async () => {
    const k = key();
    const verdicts = [];
    for (let i = 0; i < 4; i++) verdicts.push(await consume(t.database.db, k, 3, 60));
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false]);
    expect(verdicts[3]!.retryAfterSeconds).toBeGreaterThan(58);
    expect(verdicts[3]!.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await consume(t.database.db, key(), 3, 60)).allowed).toBe(true);
    await t.database.db.query(`UPDATE rate_limits SET resets_at = now() WHERE key = $1`, [k]);
    expect(await consume(t.database.db, k, 3, 60)).toMatchObject({ allowed: true });
  });

  it('counts simultaneous hits exactly: of 40 at once with a limit of 10, 10 pass', async () => {
    const k = key();
    const verdicts = await Promise.all(Array.from({ length: 40 }, () => consume(t.database.db, k, 10, 60)));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(10);
  });

  it('prunes finished windows as it goes', async () => {
    const stale = key();
    await consume(t.database.db, stale, 1, 60);
    await t.database.db.query(`UPDATE rate_limits SET resets_at = now() - interval '2 minutes' WHERE key = $1`, [stale]);
    await consume(t.database.db, key(), 1, 60);
    expect(await t.database.db.query('SELECT 1 FROM rate_limits WHERE key = $1', [stale])).toEqual([]);
  });
});

describe('lookups by private code', () => {
  const get = (url: string, ip: string, token?: string) =>
    t.app.inject({ method: 'GET', url, remoteAddress: ip, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const post = (url: string, ip: string, token: string, payload: object = {}) =>
    t.app.inject({ method: 'POST', url, remoteAddress: ip, headers: { authorization: `Bearer ${token}` }, payload });

  it('limits anonymous lookups per address over challenge and room codes together; 429 with Retry-After', async () => {
    const ip = '203.0.113.40';
    for (let i = 0; i < perAddress; i++) {
      const url = i % 2 ? '/api/challenges/code/ABCDEF' : '/api/rooms/ABCDEF';
      expect((await get(url, ip)).statusCode).toBe(404);
    }
    for (const url of ['/api/challenges/code/ABCDEF', '/api/rooms/ABCDEF']) {
      const refused = await get(url, ip);
      expect(refused.statusCode).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(refused.json()).toEqual({ error: { code: 'too_many_code_attempts', message: LIMITS.codeLookups(retryAfter) } });
      expect(refused.json().error.message).toBe('Too many code attempts. Please try again in 15 minutes.');
    }
    // Another address is not held back; a malformed code is refused without counting.
    expect((await get('/api/rooms/ABCDEF', '203.0.113.41')).statusCode).toBe(404);
    expect((await get('/api/rooms/AB', '203.0.113.40')).statusCode).toBe(400);
  });

  it('limits a signed-in player per account across addresses: joins, accepts and cancels by code count', async () => {
    const { token } = await signUp(t.app, 'sweeper');
    const challengeId = crypto.randomUUID();
    const tries = [
      (ip: string) => post('/api/rooms/ABCDEF/join', ip, token),
      (ip: string) => post(`/api/challenges/${challengeId}/accept`, ip, token, { code: 'ABCDEF' }),
      (ip: string) => post('/api/rooms/ABCDEF/cancel', ip, token),
      (ip: string) => get('/api/challenges/code/ABCDEF', ip, token),
    ];
    for (let i = 0; i < perAccount; i++) {
      const r = await tries[i % tries.length]!(`198.51.100.${i + 1}`);
      expect(r.statusCode, r.body).toBe(404);
    }
    for (const attempt of tries) {
      const refused = await attempt('198.51.100.200');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe('too_many_code_attempts');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // An accept without a code is not a code lookup.
    expect((await post(`/api/challenges/${challengeId}/accept`, '198.51.100.201', token)).statusCode).toBe(404);
  });
});
