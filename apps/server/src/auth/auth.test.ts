// Sign-up, sign-in, sessions and profiles against a real PostgreSQL database.
// Lower argon2's memory cost for this suite only (see passwords.ts); never in production.
process.env.ARGON2_MEMORY_COST_KIB ??= '4096';

import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, GENERIC, SIGN_IN_LIMITS, USERNAME_RULE, type SignUpRequest } from '@versus/domain';
import { createTestApp, type TestApp } from '../test/app.ts';
import { requireRole } from './auth.plugin.ts';
import { REFRESH_COOKIE } from './auth.routes.ts';
import { DEMO_USERS, demoUsersSeeder } from './demo.seed.ts';
import type { VerifiedAccessToken } from './claims.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let counter = 0;
function newPlayer(overrides: Partial<SignUpRequest['options']['data']> & { email?: string; password?: string } = {}) {
  counter += 1;
  const { email, password, ...data } = overrides;
  const name = `player_${counter}_${crypto.randomBytes(3).toString('hex')}`;
  return {
    email: email ?? `${name}@Example.com`,
    password: password ?? 'secret123',
    options: {
      data: {
        account_type: 'real' as const,
        username: name,
        display_name: name,
        full_name: 'Test Player',
        phone: '+44 20 7946 0000',
        date_of_birth: '1995-06-15',
        age_verified: true,
        timezone: 'Europe/London',
        ...data,
      },
    },
  };
}

type Body = Record<string, unknown>;
interface Call {
  method?: 'GET' | 'POST' | 'PATCH';
  url: string;
  body?: unknown;
  token?: string;
  cookie?: string;
  ip?: string;
}

async function call({ method = 'GET', url, body, token, cookie, ip }: Call) {
  const res = await t.app.inject({
    method,
    url,
    ...(body === undefined ? {} : { payload: body as Body }),
    headers: token ? { authorization: `Bearer ${token}` } : {},
    cookies: cookie ? { [REFRESH_COOKIE]: cookie } : {},
    remoteAddress: ip ?? '10.0.0.1',
  });
  const refresh = res.cookies.find((c) => c.name === REFRESH_COOKIE);
  return { res, status: res.statusCode, json: res.body ? res.json<Body & { error: Body }>() : null, refresh };
}

async function register(overrides: Parameters<typeof newPlayer>[0] = {}) {
  const body = newPlayer(overrides);
  const r = await call({ method: 'POST', url: '/api/auth/signup', body });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  const json = r.json as unknown as { user: { id: string; username: string }; session: { access_token: string } };
  return { body, user: json.user, token: json.session.access_token, cookie: r.refresh!.value };
}

let ipCounter = 0;
const freshIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

async function signIn(email: string, password: string, ip = freshIp(), accountType: 'real' | 'virtual' = 'real') {
  return call({ method: 'POST', url: '/api/auth/signin', body: { email, password, account_type: accountType }, ip });
}

async function count(table: string): Promise<number> {
  const [row] = await t.database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return row!.n;
}

describe('registration', () => {
  it('creates the user and profile with SPEC defaults, signs in, and stores only hashes', async () => {
    const body = newPlayer({ account_type: 'virtual' });
    const r = await call({ method: 'POST', url: '/api/auth/signup', body });
    expect(r.status).toBe(201);
    const { user, session } = r.json as unknown as { user: Body; session: Body };
    expect(user).toMatchObject({
      username: body.options.data.username,
      email: body.email.toLowerCase(),
      displayName: body.options.data.display_name,
      avatar: null,
      role: 'user',
      level: 1,
      wins: 0,
      losses: 0,
      streak: 0,
      rank: 5000,
      verified: { xbox: false, playstation: false, steam: false, identity: false, all: false },
      isFirstTimeSetup: true,
      verificationCompletedAt: null,
      accountType: 'virtual',
    });
    expect(user.lastLogin).toEqual(expect.any(String));
    expect(session).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    const claims = decodeJwt(session.access_token as string);
    expect(claims).toMatchObject({ sub: user.id, role: 'user', account_type: 'virtual' });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600);

    expect(r.refresh).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(r.refresh!.maxAge).toBe(30 * 24 * 60 * 60);
    expect(r.refresh!.value).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const [row] = await t.database.db.query<{ password_hash: string; email: string; full_name: string; timezone: string }>(
      `SELECT u.password_hash, u.email, p.full_name, p.timezone FROM users u JOIN profiles p USING (id) WHERE u.id = $1`,
      [user.id],
    );
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(row!.password_hash).not.toContain('secret123');
    expect(row).toMatchObject({ email: body.email.toLowerCase(), full_name: 'Test Player', timezone: 'Europe/London' });
    const tokens = await t.database.db.query<{ token_hash: string }>('SELECT token_hash FROM refresh_tokens WHERE user_id = $1', [user.id]);
    expect(tokens).toEqual([{ token_hash: crypto.createHash('sha256').update(r.refresh!.value).digest('hex') }]);
  });

  it('refuses a duplicate email (any case) and a duplicate username (any case) with 409', async () => {
    const first = await register();
    const sameEmail = newPlayer({ email: first.body.email.toUpperCase() });
    let r = await call({ method: 'POST', url: '/api/auth/signup', body: sameEmail });
    expect(r.status).toBe(409);
    expect(r.json!.error).toEqual({ code: 'email_taken', message: AUTH.emailTaken, field: 'email' });

    const sameName = newPlayer({ username: first.user.username.toUpperCase() });
    r = await call({ method: 'POST', url: '/api/auth/signup', body: sameName });
    expect(r.status).toBe(409);
    expect(r.json!.error).toEqual({ code: 'username_taken', message: AUTH.usernameTaken, field: 'username' });
  });

  it('lets exactly one of several simultaneous sign-ups with one email through', async () => {
    const email = `race_${crypto.randomBytes(4).toString('hex')}@example.com`;
    const results = await Promise.all(
      Array.from({ length: 6 }, () => call({ method: 'POST', url: '/api/auth/signup', body: newPlayer({ email }) })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const [row] = await t.database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE email = $1', [email]);
    expect(row!.n).toBe(1);
  });

  it('runs the SPEC checks server-side, in order, with the form field', async () => {
    const cases: [Parameters<typeof newPlayer>[0], string, string][] = [
      [{ account_type: null }, 'accountType', AUTH.accountTypeRequired],
      [{ full_name: '  ', username: '' }, 'fullName', AUTH.fullNameRequired],
      [{ username: '', email: '' }, 'username', AUTH.usernameRequired],
      [{ email: '', phone: '' }, 'email', AUTH.emailRequired],
      [{ phone: '' }, 'phone', AUTH.phoneRequired],
      [{ date_of_birth: '' }, 'dateOfBirth', AUTH.dateOfBirthRequired],
      [{ age_verified: false, password: '1' }, 'ageVerified', AUTH.mustBeAdult],
      [{ password: '12345' }, 'password', AUTH.passwordTooShort],
      [{ email: 'not-an-email' }, 'email', AUTH.invalidEmail],
      [{ username: 'a b' }, 'username', USERNAME_RULE],
    ];
    const before = await count('users');
    for (const [overrides, field, message] of cases) {
      const r = await call({ method: 'POST', url: '/api/auth/signup', body: newPlayer(overrides) });
      expect(r.status, message).toBe(400);
      expect(r.json!.error).toEqual({ code: 'invalid_input', message, field });
    }
    expect(await count('users')).toBe(before);
  });

  it('refuses a player under 18 even with the box ticked, and accepts one who turns 18 today', async () => {
    const today = new Date();
    const iso = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);
    const y = today.getUTCFullYear() - 18;
    const tomorrow18 = iso(y, today.getUTCMonth(), today.getUTCDate() + 1);
    const before = await count('profiles');
    const r = await call({
      method: 'POST',
      url: '/api/auth/signup',
      body: newPlayer({ date_of_birth: tomorrow18, age_verified: true, timezone: 'UTC' }),
    });
    expect(r.status).toBe(400);
    expect(r.json!.error).toEqual({ code: 'invalid_input', message: AUTH.mustBeAdult, field: 'dateOfBirth' });
    expect(await count('profiles')).toBe(before);

    const future = await call({ method: 'POST', url: '/api/auth/signup', body: newPlayer({ date_of_birth: '2999-01-01' }) });
    expect(future.json!.error).toMatchObject({ message: AUTH.mustBeAdult });

    await register({ date_of_birth: iso(y, today.getUTCMonth(), today.getUTCDate()), timezone: 'UTC' });
  });

  it('answers malformed JSON and wrong types with 400 and writes nothing', async () => {
    const before = { users: await count('users'), profiles: await count('profiles'), tokens: await count('refresh_tokens') };
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@b.co", ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: { code: 'malformed_json', message: GENERIC.malformedJson } });

    const wrongType = await call({ method: 'POST', url: '/api/auth/signup', body: { ...newPlayer(), email: 5 } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json!.error).toMatchObject({ code: 'invalid_input', field: 'email' });
    expect(wrongType.json!.error.message).toMatch(/^email: .*string/i);

    const noOptions = await call({ method: 'POST', url: '/api/auth/signup', body: { email: 'x@y.co', password: 'secret123' } });
    expect(noOptions.status).toBe(400);
    expect(noOptions.json!.error.field).toBe('options');

    const signInWrongType = await call({
      method: 'POST',
      url: '/api/auth/signin',
      body: { email: ['a'], password: 'x', account_type: 'real' },
    });
    expect(signInWrongType.status).toBe(400);
    expect(signInWrongType.json!.error.field).toBe('email');

    expect({ users: await count('users'), profiles: await count('profiles'), tokens: await count('refresh_tokens') }).toEqual(before);
  });

  it('refuses sign-ups when SIGNUPS_DISABLED is set, with the text the web app recognises', async () => {
    const closed = await createTestApp({ signupsDisabled: true });
    try {
      const res = await closed.app.inject({ method: 'POST', url: '/api/auth/signup', payload: newPlayer() });
      expect(res.statusCode).toBe(403);
      const { error } = res.json<{ error: { code: string; message: string } }>();
      expect(error.code).toBe('signups_disabled');
      expect(error.message).toContain('Signups not allowed');
      expect(error.message).toContain(AUTH.signupsDisabled);
      const [row] = await closed.database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
      expect(row!.n).toBe(0);
    } finally {
      await closed.close();
    }
  });
});

describe('sign-in', () => {
  it('signs in with the right password (email in any case) and stamps last_login', async () => {
    const { body, user } = await register();
    await t.database.db.query('UPDATE profiles SET last_login = NULL WHERE id = $1', [user.id]);
    const r = await signIn(body.email.toUpperCase(), body.password);
    expect(r.status).toBe(200);
    expect((r.json!.user as Body).id).toBe(user.id);
    expect(r.refresh?.value).toBeTruthy();
    const [row] = await t.database.db.query<{ last_login: Date | null }>('SELECT last_login FROM profiles WHERE id = $1', [user.id]);
    expect(row!.last_login).toBeInstanceOf(Date);
  });

  it('gives one message for a wrong password and an unknown email', async () => {
    const { body } = await register();
    const wrong = await signIn(body.email, 'wrong-password');
    const unknown = await signIn('nobody@example.com', 'wrong-password');
    for (const r of [wrong, unknown]) {
      expect(r.status).toBe(401);
      expect(r.json!.error).toEqual({ code: 'invalid_credentials', message: AUTH.invalidCredentials });
      expect(r.refresh).toBeUndefined();
    }
  });

  it('requires the account type, email and password, in that order', async () => {
    const cases: [Body, string, string][] = [
      [{ email: '', password: '' }, 'accountType', AUTH.accountTypeRequired],
      [{ email: ' ', password: '', account_type: 'real' }, 'email', AUTH.emailRequired],
      [{ email: 'a@b.co', password: '', account_type: 'virtual' }, 'password', AUTH.passwordRequired],
    ];
    for (const [body, field, message] of cases) {
      const r = await call({ method: 'POST', url: '/api/auth/signin', body, ip: freshIp() });
      expect(r.status).toBe(400);
      expect(r.json!.error).toEqual({ code: 'invalid_input', message, field });
    }
  });

  it('switches the stored account type to the one chosen at sign-in', async () => {
    const { body, user } = await register({ account_type: 'real' });
    const r = await signIn(body.email, body.password, freshIp(), 'virtual');
    expect(r.status).toBe(200);
    expect((r.json!.user as Body).accountType).toBe('virtual');
    expect(decodeJwt((r.json!.session as Body).access_token as string).account_type).toBe('virtual');
    const [row] = await t.database.db.query<{ account_type: string }>('SELECT account_type FROM profiles WHERE id = $1', [user.id]);
    expect(row!.account_type).toBe('virtual');
  });

  it('locks an account at an address after 5 failures in 15 minutes, even for the right password, and says when to retry', async () => {
    const { body } = await register();
    const ip = freshIp();
    for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i++) {
      expect((await signIn(body.email, `wrong-${i}`, ip)).status).toBe(401);
    }
    const locked = await signIn(body.email, body.password, ip);
    expect(locked.status).toBe(429);
    expect(locked.json!.error).toEqual({ code: 'too_many_attempts', message: AUTH.tooManyAttempts(15) });
    const retryAfter = Number(locked.res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(locked.refresh).toBeUndefined();

    // Once the oldest failure leaves the window, one more try is allowed.
    await t.database.db.query(
      `UPDATE sign_in_attempts SET attempted_at = attempted_at - interval '15 minutes'
       WHERE id = (SELECT min(id) FROM sign_in_attempts WHERE email = $1 AND outcome = 'failure')`,
      [body.email.toLowerCase()],
    );
    expect((await signIn(body.email, body.password, ip)).status).toBe(200);
  });

  it('clears the account count on success, so 5 more failures are allowed', async () => {
    const { body } = await register();
    const ip = freshIp();
    for (let i = 0; i < 4; i++) expect((await signIn(body.email, 'nope-nope', ip)).status).toBe(401);
    expect((await signIn(body.email, body.password, ip)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await signIn(body.email, 'nope-nope', ip)).status).toBe(401);
    expect((await signIn(body.email, 'nope-nope', ip)).status).toBe(429);
  });

  it('counts parallel guesses against each other', async () => {
    const { body } = await register();
    const ip = freshIp();
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn(body.email, `parallel-${i}`, ip)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(SIGN_IN_LIMITS.perAccount);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(12 - SIGN_IN_LIMITS.perAccount);
  });

  it("limits an address to 20 failures across accounts, without locking out others' correct passwords", async () => {
    const { body } = await register();
    const other = await register();
    const ip = '203.0.113.7';
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress; i++) {
      expect((await signIn(`unknown${i}@example.com`, 'guess-guess', ip)).status).toBe(401);
    }
    // Over the address's limit, an account with no failures from here still signs in.
    expect((await signIn(body.email, body.password, ip)).status).toBe(200);
    // A guess at a further account (known or not) is refused as the limit, and counts.
    for (const email of [other.body.email, 'one-more@example.com']) {
      const refused = await signIn(email, 'guess-guess', ip);
      expect(refused.status).toBe(429);
      expect(refused.json!.error).toEqual({ code: 'too_many_attempts', message: AUTH.tooManyAttempts(15) });
      expect(Number(refused.res.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.refresh).toBeUndefined();
    }
    // That account has a failure from here now: from here, even its right password waits.
    expect((await signIn(other.body.email, other.body.password, ip)).status).toBe(429);
    // From elsewhere it is fine: the lock is the address's.
    expect((await signIn(other.body.email, other.body.password, '198.51.100.1')).status).toBe(200);
  });

  it("does not let a stranger's guesses from one address lock the owner out at another", async () => {
    const { body } = await register();
    const stranger = freshIp();
    const guesses = Array.from({ length: SIGN_IN_LIMITS.perAccount }, (_, i) => `wrong-${i}`);
    for (const guess of guesses) expect((await signIn(body.email, guess, stranger)).status).toBe(401);
    // The guesser's next try is refused, even with the right password (as above)...
    expect((await signIn(body.email, body.password, stranger)).status).toBe(429);
    // ...but the owner, from their own address, signs in.
    expect((await signIn(body.email, body.password, freshIp())).status).toBe(200);
  });

  it("the owner's sign-in elsewhere does not give a guesser a fresh set of tries", async () => {
    const { body } = await register();
    const stranger = freshIp();
    for (let i = 1; i < SIGN_IN_LIMITS.perAccount; i++) expect((await signIn(body.email, `wrong-${i}`, stranger)).status).toBe(401);
    expect((await signIn(body.email, body.password, freshIp())).status).toBe(200);
    // The guesser has one try left, not five.
    expect((await signIn(body.email, 'wrong-last', stranger)).status).toBe(401);
    expect((await signIn(body.email, 'wrong-more', stranger)).status).toBe(429);
  });

  it('refuses an account everywhere once guesses from all addresses reach the ceiling', async () => {
    const { body } = await register();
    const ceiling = SIGN_IN_LIMITS.perAccountAllAddresses;
    // A distributed attack: one guess from each of many addresses, a batch at a time.
    for (let sent = 0; sent < ceiling; sent += 10) {
      const batch = Array.from({ length: Math.min(10, ceiling - sent) }, (_, i) => signIn(body.email, `spread-${sent + i}`));
      for (const r of await Promise.all(batch)) expect(r.status).toBe(401);
    }
    const locked = await signIn(body.email, body.password);
    expect(locked.status).toBe(429);
    expect(locked.json!.error).toEqual({ code: 'too_many_attempts', message: AUTH.tooManyAttempts(15) });
    expect(Number(locked.res.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect(locked.refresh).toBeUndefined();
  });
});

describe('sessions', () => {
  it('rotates the refresh token; a reused old token ends the whole family', async () => {
    const { cookie: first } = await register();
    const r1 = await call({ method: 'POST', url: '/api/auth/refresh', cookie: first });
    expect(r1.status).toBe(200);
    const second = r1.refresh!.value;
    expect(second).not.toBe(first);
    const access = (r1.json!.session as Body).access_token as string;
    expect((await call({ url: '/api/auth/user', token: access })).status).toBe(200);

    const r2 = await call({ method: 'POST', url: '/api/auth/refresh', cookie: second });
    expect(r2.status).toBe(200);
    const third = r2.refresh!.value;

    // A replay well after the first use (beyond the two-tab grace period).
    await t.database.db.query(`UPDATE refresh_tokens SET used_at = used_at - interval '1 minute' WHERE token_hash = $1`, [
      crypto.createHash('sha256').update(first).digest('hex'),
    ]);
    const replay = await call({ method: 'POST', url: '/api/auth/refresh', cookie: first });
    expect(replay.status).toBe(401);
    expect(replay.json!.error).toEqual({ code: 'session_expired', message: AUTH.refreshFailed });
    expect(replay.refresh).toMatchObject({ value: '' });

    const afterRevoke = await call({ method: 'POST', url: '/api/auth/refresh', cookie: third });
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.json!.error.code).toBe('session_expired');
  });

  it('answers simultaneous refreshes with one token (two tabs loading at once): one wins, the session goes on', async () => {
    const { cookie, user } = await register();
    const results = await Promise.all(Array.from({ length: 5 }, () => call({ method: 'POST', url: '/api/auth/refresh', cookie })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401]);
    // The losers leave the shared cookie alone: it may hold the winner's new token by now.
    expect(results.filter((r) => r.status === 401).every((r) => r.refresh === undefined)).toBe(true);
    const [row] = await t.database.db.query<{ used: number; fresh: number }>(
      `SELECT count(*) FILTER (WHERE used_at IS NOT NULL)::int AS used, count(*) FILTER (WHERE used_at IS NULL)::int AS fresh
       FROM refresh_tokens WHERE user_id = $1 AND revoked_at IS NULL`,
      [user.id],
    );
    expect(row).toEqual({ used: 1, fresh: 1 });
    const winner = results.find((r) => r.status === 200)!.refresh!.value;
    expect((await call({ method: 'POST', url: '/api/auth/refresh', cookie: winner })).status).toBe(200);
  });

  it('refuses a refresh with no cookie or an unknown one', async () => {
    const none = await call({ method: 'POST', url: '/api/auth/refresh' });
    expect(none.status).toBe(401);
    expect(none.json!.error).toEqual({ code: 'session_expired', message: AUTH.refreshFailed });
    const unknown = await call({ method: 'POST', url: '/api/auth/refresh', cookie: crypto.randomBytes(32).toString('base64url') });
    expect(unknown.status).toBe(401);
  });

  it('reports the session from the bearer token, from the cookie (rotating it), or none', async () => {
    const { token, cookie, user } = await register();
    const anonymous = await call({ url: '/api/auth/session' });
    expect(anonymous.status).toBe(200);
    expect(anonymous.json).toEqual({ user: null, session: null });

    const byToken = await call({ url: '/api/auth/session', token });
    expect(byToken.status).toBe(200);
    expect((byToken.json!.user as Body).id).toBe(user.id);
    expect((byToken.json!.session as Body).access_token).toBe(token);
    expect(byToken.refresh).toBeUndefined();

    const byCookie = await call({ url: '/api/auth/session', cookie });
    expect(byCookie.status).toBe(200);
    expect((byCookie.json!.user as Body).id).toBe(user.id);
    expect(byCookie.refresh!.value).not.toBe(cookie);
    const fresh = (byCookie.json!.session as Body).access_token as string;
    expect((await call({ url: '/api/auth/user', token: fresh })).status).toBe(200);

    const garbage = await call({ url: '/api/auth/session', cookie: 'garbage' });
    expect(garbage.json).toEqual({ user: null, session: null });
    expect(garbage.refresh).toMatchObject({ value: '' });
  });

  it('signs out: 204, cookie cleared, the refresh token no longer works', async () => {
    const { cookie, token } = await register();
    const out = await call({ method: 'POST', url: '/api/auth/signout', cookie, token });
    expect(out.status).toBe(204);
    expect(out.res.body).toBe('');
    expect(out.refresh).toMatchObject({ value: '' });
    expect((await call({ method: 'POST', url: '/api/auth/refresh', cookie })).status).toBe(401);
    expect((await call({ url: '/api/auth/session', cookie })).json).toEqual({ user: null, session: null });
    // Signing out twice, or with nothing, is harmless.
    expect((await call({ method: 'POST', url: '/api/auth/signout' })).status).toBe(204);
  });

  it('refuses missing, forged, tampered and unsigned access tokens', async () => {
    const { token, user } = await register();
    expect((await call({ url: '/api/auth/user' })).json!.error).toEqual({ code: 'unauthorized', message: AUTH.signInRequired });
    const forged = await new SignJWT({ role: 'admin', account_type: 'real', sid: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuer('versus')
      .setAudience('versus')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(crypto.randomBytes(32));
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Body;
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url')}.${signature}`;
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    for (const bad of [forged, tampered, unsigned, 'not-a-jwt']) {
      const r = await call({ url: '/api/auth/user', token: bad });
      expect(r.status).toBe(401);
      expect(r.json!.error.message).toBe(AUTH.signInRequired);
    }
    const basic = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { authorization: 'Basic abc' } });
    expect(basic.statusCode).toBe(401);
  });

  it('refuses an expired access token', async () => {
    const { user } = await register();
    const [key] = await t.database.db.query<{ value: string }>(`SELECT value FROM app_secrets WHERE name = 'auth_jwt_key'`);
    const expired = await new SignJWT({ role: 'user', account_type: 'real', sid: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuer('versus')
      .setAudience('versus')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(Buffer.from(key!.value, 'base64url'));
    expect((await call({ url: '/api/auth/user', token: expired })).status).toBe(401);
  });

  it('refuses a token once it has expired, though it was accepted before (verified tokens are remembered)', async () => {
    const { token } = await register();
    const [key] = await t.database.db.query<{ value: string }>(`SELECT value FROM app_secrets WHERE name = 'auth_jwt_key'`);
    const claims = decodeJwt(token);
    const exp = Math.floor(Date.now() / 1000) + 2;
    const shortLived = await new SignJWT({ role: claims.role, account_type: claims.account_type, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub!)
      .setIssuer('versus')
      .setAudience('versus')
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(Buffer.from(key!.value, 'base64url'));
    expect((await call({ url: '/api/auth/user', token: shortLived })).status).toBe(200);
    expect((await call({ url: '/api/auth/user', token: shortLived })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, exp * 1000 - Date.now() + 50));
    expect((await call({ url: '/api/auth/user', token: shortLived })).status).toBe(401);
  });
});

describe('the /auth/* proxy prefix', () => {
  it('answers sign-up, sign-in, session, user and sign-out with the same handlers', async () => {
    const body = newPlayer();
    const up = await call({ method: 'POST', url: '/auth/signup', body });
    expect(up.status).toBe(201);
    const signin = await call({
      method: 'POST',
      url: '/auth/signin',
      body: { email: body.email, password: body.password, account_type: 'real' },
      ip: freshIp(),
    });
    expect(signin.status).toBe(200);
    const token = (signin.json!.session as Body).access_token as string;
    expect(((await call({ url: '/auth/user', token })).json!.user as Body).email).toBe(body.email.toLowerCase());
    expect(((await call({ url: '/auth/session', token })).json!.session as Body).access_token).toBe(token);
    expect((await call({ method: 'POST', url: '/auth/refresh', cookie: signin.refresh!.value })).status).toBe(200);
    expect((await call({ method: 'POST', url: '/auth/signout', cookie: signin.refresh!.value })).status).toBe(204);
  });

  it('keeps the aliases out of the OpenAPI document, which shows the shared schemas', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{ paths: Record<string, Body> }>();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/auth/signup', '/api/auth/signin', '/api/profiles/{id}']));
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/auth/'))).toBe(false);
    const signup = doc.paths['/api/auth/signup'] as { post: { requestBody: unknown; responses: Record<string, unknown> } };
    expect(JSON.stringify(signup.post.requestBody)).toContain('date_of_birth');
    expect(JSON.stringify(signup.post.responses['201'])).toContain('accountType');
  });
});

describe('the signed-in user and profiles', () => {
  it('changes username, display name and avatar; checks them', async () => {
    const { token, user } = await register();
    const other = await register();
    const name = `renamed_${crypto.randomBytes(3).toString('hex')}`;
    const ok = await call({
      method: 'PATCH',
      url: '/api/auth/user',
      token,
      body: { username: name, display_name: '  Ace  ', avatar_url: 'https://cdn.example.com/a.png' },
    });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ user: { id: user.id, username: name, displayName: 'Ace', avatar: 'https://cdn.example.com/a.png' } });
    expect(ok.json!.session).toBeUndefined();

    const taken = await call({ method: 'PATCH', url: '/api/auth/user', token, body: { username: other.user.username.toUpperCase() } });
    expect(taken.status).toBe(409);
    expect(taken.json!.error).toEqual({ code: 'username_taken', message: AUTH.usernameTaken, field: 'username' });

    const bad: [Body, string][] = [
      [{ username: 'no spaces' }, USERNAME_RULE],
      [{ avatar_url: 'javascript:alert(1)' }, AUTH.avatarUrlInvalid],
      [{ display_name: '   ' }, `display_name: ${AUTH.displayNameInvalid}`],
      [{ role: 'admin' }, ''],
    ];
    for (const [body, message] of bad) {
      const r = await call({ method: 'PATCH', url: '/api/auth/user', token, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      if (message) expect(r.json!.error.message).toBe(message);
    }
    const [row] = await t.database.db.query<{ username: string; role: string }>('SELECT username, role FROM profiles WHERE id = $1', [
      user.id,
    ]);
    expect(row).toEqual({ username: name, role: 'user' });
  });

  it('returns a new session when the account type changes, and publishes the profile', async () => {
    const { token, user } = await register({ account_type: 'real' });
    const r = await call({ method: 'PATCH', url: '/api/auth/user', token, body: { account_type: 'virtual' } });
    expect(r.status).toBe(200);
    expect((r.json!.user as Body).accountType).toBe('virtual');
    const session = r.json!.session as Body;
    expect(decodeJwt(session.access_token as string)).toMatchObject({ sub: user.id, account_type: 'virtual' });
    const events = await t.database.db.query<{ type: string; payload: { user: Body } }>(
      'SELECT type, payload FROM realtime_events WHERE topic = $1',
      [`user:${user.id}`],
    );
    expect(events.at(-1)).toMatchObject({ type: 'profile.updated', payload: { user: { accountType: 'virtual' } } });
  });

  it("shows another player's public profile to a signed-in user only", async () => {
    const viewer = await register();
    const subject = await register();
    const r = await call({ url: `/api/profiles/${subject.user.id}`, token: viewer.token });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      profile: {
        id: subject.user.id,
        username: subject.user.username,
        display_name: subject.user.username,
        avatar_url: null,
        role: 'user',
        level: 1,
        wins: 0,
        losses: 0,
        streak: 0,
        rank: 5000,
        global_rank: 5000,
      },
    });
    expect((await call({ url: `/api/profiles/${subject.user.id}` })).status).toBe(401);
    expect((await call({ url: `/api/profiles/${crypto.randomUUID()}`, token: viewer.token })).json!.error).toEqual({
      code: 'not_found',
      message: AUTH.profileNotFound,
    });
    expect((await call({ url: '/api/profiles/not-a-uuid', token: viewer.token })).status).toBe(400);
  });

  it("refuses to change another player's profile (403) or anyone's while signed out (401)", async () => {
    const mallory = await register();
    const victim = await register();
    const change = { display_name: 'pwned', virtual_theme: 'retro' };
    const forbidden = await call({ method: 'PATCH', url: `/api/profiles/${victim.user.id}`, token: mallory.token, body: change });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json!.error).toEqual({ code: 'forbidden', message: AUTH.forbidden });
    const anonymous = await call({ method: 'PATCH', url: `/api/profiles/${victim.user.id}`, body: change });
    expect(anonymous.status).toBe(401);
    const [row] = await t.database.db.query<{ display_name: string; virtual_theme: string }>(
      'SELECT display_name, virtual_theme FROM profiles WHERE id = $1',
      [victim.user.id],
    );
    expect(row).toEqual({ display_name: victim.user.username, virtual_theme: 'virtual-neon' });

    const own = await call({ method: 'PATCH', url: `/api/profiles/${victim.user.id}`, token: victim.token, body: change });
    expect(own.status).toBe(200);
    expect((own.json!.user as Body).displayName).toBe('pwned');
  });
});

describe('request helpers', () => {
  const request = (access: Partial<VerifiedAccessToken> | null) =>
    ({
      versusAuth: access && {
        token: 'x',
        access: { userId: 'u', accountType: 'real', sessionId: 's', expiresAt: 0, role: 'user', ...access },
      },
    }) as unknown as FastifyRequest;

  it('requireRole: 401 signed out, 403 below the role, admins count as promoters', () => {
    expect(() => requireRole(request(null), 'user')).toThrow(AUTH.signInRequired);
    expect(() => requireRole(request({ role: 'user' }), 'admin')).toThrow(AUTH.forbidden);
    expect(() => requireRole(request({ role: 'promoter' }), 'admin')).toThrow(AUTH.forbidden);
    expect(requireRole(request({ role: 'admin' }), 'promoter').role).toBe('admin');
    expect(requireRole(request({ role: 'user' }), 'user').userId).toBe('u');
  });
});

describe('demo users', () => {
  it('seeds the demo accounts, who can sign in with the published passwords', async () => {
    await demoUsersSeeder.run(t.database.db);
    await demoUsersSeeder.run(t.database.db);
    for (const demo of DEMO_USERS) {
      const r = await signIn(demo.email, demo.password, freshIp(), demo.accountType);
      expect(r.status, demo.email).toBe(200);
      expect(r.json!.user).toMatchObject({ role: demo.role, accountType: demo.accountType, username: demo.username });
    }
  });
});

// ---------------------------------------------------------------------------------------
// Sessions under attack

const hashOf = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

async function liveTokens(userId: string): Promise<number> {
  const [row] = await t.database.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM refresh_tokens
     WHERE user_id = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()`,
    [userId],
  );
  return row!.n;
}

describe('refresh token rotation', () => {
  it('lets exactly one of two simultaneous refreshes with one token win; the loser mints nothing and keeps the cookie', async () => {
    const { cookie, user } = await register();
    const results = await Promise.all([1, 2].map(() => call({ method: 'POST', url: '/api/auth/refresh', cookie })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    const winner = results.find((r) => r.status === 200)!;
    const loser = results.find((r) => r.status === 401)!;
    expect(loser.json!.error).toEqual({ code: 'session_expired', message: AUTH.refreshFailed });
    // The loser's answer must not wipe the winner's fresh cookie out of the browser.
    expect(loser.refresh).toBeUndefined();
    expect(await liveTokens(user.id)).toBe(1);
    // The winner's session goes on.
    expect((await call({ method: 'POST', url: '/api/auth/refresh', cookie: winner.refresh!.value })).status).toBe(200);
  });

  it('never mints a second live token from a reused one, even right after its rotation', async () => {
    const { cookie, user } = await register();
    const first = await call({ method: 'POST', url: '/api/auth/refresh', cookie });
    expect(first.status).toBe(200);
    const again = await call({ method: 'POST', url: '/api/auth/refresh', cookie });
    expect(again.status).toBe(401);
    expect(again.refresh).toBeUndefined();
    expect(await liveTokens(user.id)).toBe(1);
    // The same through GET /session, which also rotates the cookie.
    const viaSession = await call({ url: '/api/auth/session', cookie });
    expect(viaSession.json).toEqual({ user: null, session: null });
    expect(await liveTokens(user.id)).toBe(1);
  });

  it('a replay after the grace period ends the family, the access tokens of it included', async () => {
    const { cookie, user } = await register();
    const first = await call({ method: 'POST', url: '/api/auth/refresh', cookie });
    const access = (first.json!.session as Body).access_token as string;
    await t.database.db.query(`UPDATE refresh_tokens SET used_at = used_at - interval '1 minute' WHERE token_hash = $1`, [hashOf(cookie)]);
    expect((await call({ method: 'POST', url: '/api/auth/refresh', cookie })).status).toBe(401);
    expect(await liveTokens(user.id)).toBe(0);
    expect((await call({ method: 'POST', url: '/api/auth/refresh', cookie: first.refresh!.value })).status).toBe(401);
    const user401 = await call({ url: '/api/auth/user', token: access });
    expect(user401.status).toBe(401);
    expect(user401.json!.error.message).toBe(AUTH.signInRequired);
  });
});

describe('access tokens follow their session and their user', () => {
  it('an access token stops working when its session is signed out', async () => {
    const { cookie, token } = await register();
    expect((await call({ url: '/api/profile', token })).status).toBe(200);
    expect((await call({ method: 'POST', url: '/api/auth/signout', cookie })).status).toBe(204);
    for (const url of ['/api/auth/user', '/api/profile']) {
      const r = await call({ url, token });
      expect(r.status, url).toBe(401);
      expect(r.json!.error.message).toBe(AUTH.signInRequired);
    }
    // GET /session reads a signed-out token as no session.
    expect((await call({ url: '/api/auth/session', token })).json).toEqual({ user: null, session: null });
  });

  it("signing out one session leaves the player's other sessions alone", async () => {
    const { body, token } = await register();
    const other = await signIn(body.email, body.password);
    expect(other.status).toBe(200);
    expect((await call({ method: 'POST', url: '/api/auth/signout', cookie: other.refresh!.value })).status).toBe(204);
    expect((await call({ url: '/api/auth/user', token })).status).toBe(200);
  });

  it("a demoted admin's old access token no longer opens admin routes; a promoted user's works at once", async () => {
    const { body, user } = await register();
    await t.database.db.query(`UPDATE profiles SET role = 'admin' WHERE id = $1`, [user.id]);
    const signedIn = await signIn(body.email, body.password);
    const adminToken = (signedIn.json!.session as Body).access_token as string;
    expect((await call({ url: '/api/admin/dashboard', token: adminToken })).status).toBe(200);

    await t.database.db.query(`UPDATE profiles SET role = 'user' WHERE id = $1`, [user.id]);
    const demoted = await call({ url: '/api/admin/dashboard', token: adminToken });
    expect(demoted.status).toBe(403);
    expect(demoted.json!.error.message).toBe(AUTH.forbidden);

    await t.database.db.query(`UPDATE profiles SET role = 'admin' WHERE id = $1`, [user.id]);
    expect((await call({ url: '/api/admin/dashboard', token: adminToken })).status).toBe(200);
  });

  it("a removed user's access token is refused", async () => {
    const { user, token } = await register();
    // Nothing but the account itself references a fresh user except its ledger accounts.
    await t.database.db.transaction(async (tx) => {
      await tx.query('DELETE FROM profiles WHERE id = $1', [user.id]);
    });
    const r = await call({ url: '/api/profile', token });
    expect(r.status).toBe(401);
    expect(r.json!.error.message).toBe(AUTH.signInRequired);
  });
});

describe('input limits', () => {
  it('refuses a 1 MB password quickly with a 400, without hashing it or leaking internals', async () => {
    const huge = 'a'.repeat(1024 * 1024 - 200);
    const started = performance.now();
    const signup = await call({ method: 'POST', url: '/api/auth/signup', body: newPlayer({ password: huge }) });
    const signin = await signIn('x@example.com', huge);
    expect(performance.now() - started).toBeLessThan(2000);
    for (const r of [signup, signin]) {
      expect([400, 413]).toContain(r.status);
      expect(r.res.body).not.toMatch(/\bat \S+ \(|node_modules|\.ts:\d+/);
    }
  });
});

describe('username races', () => {
  it('two sign-ups with one username (any case) at once: one 201, one 409, never a 500', async () => {
    for (let round = 0; round < 5; round++) {
      const name = `race_${crypto.randomBytes(4).toString('hex')}`;
      const results = await Promise.all([
        call({ method: 'POST', url: '/api/auth/signup', body: newPlayer({ username: name }) }),
        call({ method: 'POST', url: '/api/auth/signup', body: newPlayer({ username: name.toUpperCase() }) }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      const refused = results.find((r) => r.status === 409)!;
      expect(refused.json!.error.message).toBe(AUTH.usernameTaken);
    }
  });

  it('two players renaming to one username at once: one 200, one 409, never a 500', async () => {
    const a = await register();
    const b = await register();
    const name = `rn_${crypto.randomBytes(4).toString('hex')}`;
    const results = await Promise.all(
      [a, b].map((p) => call({ method: 'PATCH', url: '/api/auth/user', token: p.token, body: { username: name } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});
