// Sign-up's abuse limits against a real PostgreSQL database: the throttle per address and over
// the site, the refusal of common passwords, and the cap on concurrent password hashing.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABUSE_LIMITS, AUTH, LIMITS } from '@versus/domain';
import { loadConfig } from '../config.ts';
import { createTestApp, type TestApp } from '../test/app.ts';
import { hashPassword, passwordWork } from './passwords.ts';

let t: TestApp;
beforeAll(async () => {
  // The production limits, not the test kit's relaxed ones.
  t = await createTestApp({ limits: loadConfig({}).limits });
});
afterAll(() => t.close());

function newPlayer(password = 'secret123') {
  const name = `p_${crypto.randomBytes(5).toString('hex')}`;
  return {
    email: `${name}@example.com`,
    password,
    options: {
      data: {
        account_type: 'real' as const,
        username: name,
        full_name: 'Test Player',
        phone: '+44 20 7946 0000',
        date_of_birth: '1995-06-15',
        age_verified: true,
      },
    },
  };
}

function signUp(body: ReturnType<typeof newPlayer>, ip: string) {
  return t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: body, remoteAddress: ip });
}

async function users(): Promise<number> {
  const [row] = await t.database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  return row!.n;
}

describe('sign-up throttle', () => {
  it('allows 5 sign-ups an hour from one address, then 429 with Retry-After, creating nothing', async () => {
    const ip = '203.0.113.10';
    for (let i = 0; i < ABUSE_LIMITS.signUp.perAddress; i++) expect((await signUp(newPlayer(), ip)).statusCode).toBe(201);
    const before = await users();
    const refused = await signUp(newPlayer(), ip);
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(59 * 60);
    expect(retryAfter).toBeLessThanOrEqual(60 * 60);
    expect(refused.json()).toEqual({ error: { code: 'too_many_signups', message: LIMITS.signUpPerAddress(retryAfter) } });
    expect(refused.json().error.message).toBe(
      'Too many accounts have been created from this network recently. Please try again in 60 minutes.',
    );
    expect(refused.cookies).toEqual([]);
    expect(await users()).toBe(before);
    // Another address is not held back by this one.
    expect((await signUp(newPlayer(), '203.0.113.11')).statusCode).toBe(201);
  });

  it('counts an IPv6 client by its /64, so a fresh address from the same block does not start afresh', async () => {
    for (let i = 1; i <= ABUSE_LIMITS.signUp.perAddress; i++) {
      expect((await signUp(newPlayer(), `2001:db8:7:7::${i.toString(16)}`)).statusCode).toBe(201);
    }
    expect((await signUp(newPlayer(), '2001:db8:7:7:abcd:1:2:3')).statusCode).toBe(429);
    expect((await signUp(newPlayer(), '2001:db8:7:8::1')).statusCode).toBe(201);
  });

  it('does not answer "email taken" to one address more than the limit allows', async () => {
    const taken = newPlayer();
    expect((await signUp(taken, '203.0.113.20')).statusCode).toBe(201);
    const ip = '203.0.113.21';
    const statuses: number[] = [];
    for (let i = 0; i < ABUSE_LIMITS.signUp.perAddress + 3; i++) {
      statuses.push((await signUp({ ...newPlayer(), email: taken.email }, ip)).statusCode);
    }
    expect(statuses.filter((s) => s === 409)).toHaveLength(ABUSE_LIMITS.signUp.perAddress);
    expect(statuses.slice(ABUSE_LIMITS.signUp.perAddress)).toEqual([429, 429, 429]);
  });

  it('caps sign-ups over the whole site, whatever the addresses', async () => {
    const limited = await createTestApp({ limits: { ...loadConfig({}).limits, signUp: { ...ABUSE_LIMITS.signUp, global: 3 } } });
    try {
      const from = (i: number) =>
        limited.app.inject({ method: 'POST', url: '/api/auth/signup', payload: newPlayer(), remoteAddress: `198.51.100.${i}` });
      for (let i = 1; i <= 3; i++) expect((await from(i)).statusCode).toBe(201);
      const refused = await from(4);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe('too_many_signups');
      expect(refused.json().error.message).toBe(LIMITS.signUpGlobal(Number(refused.headers['retry-after'])));
      // Once the window has passed, sign-ups go through again.
      await limited.database.db.query(`UPDATE rate_limits SET resets_at = now() - interval '1 second'`);
      expect((await from(5)).statusCode).toBe(201);
    } finally {
      await limited.close();
    }
  });
});

describe('common passwords', () => {
  it('refuses the most common passwords and trivial variants, with the message on the password field', async () => {
    const common = ['password', '123456', 'qwerty123', 'Password1', 'iloveyou', 'letmein1', 'passwordpasswordpasswordpassword1'];
    for (const [i, password] of common.entries()) {
      const r = await signUp(newPlayer(password), `192.0.2.${10 + i}`);
      expect(r.statusCode, password).toBe(400);
      expect(r.json(), password).toEqual({ error: { code: 'invalid_input', message: AUTH.passwordTooCommon, field: 'password' } });
    }
  });

  it("refuses the player's own username as a password", async () => {
    const body = newPlayer();
    const r = await signUp({ ...body, password: body.options.data.username }, '192.0.2.2');
    expect(r.json().error).toEqual({ code: 'invalid_input', message: AUTH.passwordTooCommon, field: 'password' });
  });

  it("keeps SPEC's minimum of 6 and its message first, before anything counts against the address", async () => {
    for (let i = 0; i < ABUSE_LIMITS.signUp.perAddress + 1; i++) {
      const short = await signUp(newPlayer('abc'), '192.0.2.3');
      expect(short.json().error).toEqual({ code: 'invalid_input', message: AUTH.passwordTooShort, field: 'password' });
    }
    expect((await signUp(newPlayer('correct horse battery'), '192.0.2.3')).statusCode).toBe(201);
  });
});

describe('password hashing', () => {
  it('runs 4 at once with 32 waiting; beyond that it answers 503 with Retry-After at once', async () => {
    const hold: (() => void)[] = [];
    // Fill every slot and the queue with work that waits until released.
    const blockers = Array.from({ length: passwordWork.concurrency + passwordWork.queue }, () =>
      passwordWork.run(() => new Promise<void>((resolve) => hold.push(resolve))),
    );
    expect(passwordWork.stats()).toEqual({ active: 4, waiting: 32 });
    const refused = await signUp(newPlayer(), '192.0.2.50');
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toEqual({ error: { code: 'busy', message: LIMITS.busy } });
    await expect(hashPassword('anything-at-all')).rejects.toMatchObject({ status: 503 });
    // Released, the queue drains and hashing works again.
    while (hold.length > 0 || passwordWork.stats().active > 0) {
      hold.splice(0).forEach((release) => release());
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(blockers);
    expect(await hashPassword('anything-at-all')).toMatch(/^\$argon2id\$/);
    expect((await signUp(newPlayer(), '192.0.2.50')).statusCode).toBe(201);
  });
});
