// Cookie-only routes refuse another site's request (CSRF), and the cookie is Secure over HTTPS.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC } from '@versus/domain';
import { createTestApp, type TestApp } from '../test/app.ts';
import { REFRESH_COOKIE } from './auth.routes.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type Headers = Record<string, string>;

async function signUp(headers: Headers = {}, on: TestApp = t) {
  const name = `csrf_${crypto.randomBytes(4).toString('hex')}`;
  const res = await on.app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    headers,
    payload: {
      email: `${name}@example.com`,
      password: 'secret123',
      options: {
        data: {
          account_type: 'real',
          username: name,
          full_name: 'Test Player',
          phone: '+44 20 7946 0000',
          date_of_birth: '1995-06-15',
          age_verified: true,
        },
      },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.cookies.find((c) => c.name === REFRESH_COOKIE)!;
}

const post = (url: string, cookie: string, headers: Headers) =>
  t.app.inject({ method: 'POST', url, headers: { host: 'versus.example', ...headers }, cookies: { [REFRESH_COOKIE]: cookie } });

const crossSite: [string, Headers][] = [
  ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
  ['Sec-Fetch-Site: same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site', origin: 'https://evil.versus.example' }],
  ['Sec-Fetch-Site: cross-site, even with a matching Origin', { 'sec-fetch-site': 'cross-site', origin: 'http://versus.example' }],
  ['another Origin (an older browser)', { origin: 'https://evil.example' }],
  ['Origin null (a sandboxed frame)', { origin: 'null' }],
  ['an Origin on another port', { origin: 'http://versus.example:8080' }],
];

const sameSite: [string, Headers][] = [
  ['Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin', origin: 'http://versus.example' }],
  ['a matching Origin only', { origin: 'http://versus.example' }],
  ['a matching Origin with the default port spelled out', { origin: 'https://versus.example', host: 'versus.example:443' }],
  ['neither header (not a browser: curl, a script)', {}],
];

describe.each(['/api/auth', '/auth'])('CSRF under %s', (base) => {
  it.each(crossSite)('refresh and sign-out refuse %s with 403; the session lives on', async (_label, headers) => {
    const cookie = await signUp();
    for (const path of ['refresh', 'signout']) {
      const res = await post(`${base}/${path}`, cookie.value, headers);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(403);
      expect(res.json()).toEqual({ error: { code: 'cross_site', message: GENERIC.crossSite } });
      expect(res.cookies, path).toEqual([]);
    }
    const session = await t.app.inject({
      method: 'GET',
      url: `${base}/session`,
      headers: { host: 'versus.example', ...headers },
      cookies: { [REFRESH_COOKIE]: cookie.value },
    });
    expect(session.statusCode).toBe(403);
    // Nothing was spent or revoked: the same cookie still refreshes from our own page.
    expect((await post(`${base}/refresh`, cookie.value, { 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
  });

  it.each(sameSite)('refresh and sign-out accept %s', async (_label, headers) => {
    const cookie = await signUp();
    const refreshed = await post(`${base}/refresh`, cookie.value, headers);
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const next = refreshed.cookies.find((c) => c.name === REFRESH_COOKIE)!;
    expect((await post(`${base}/signout`, next.value, headers)).statusCode).toBe(204);
  });
});

describe('the refresh cookie', () => {
  it('is Secure when a trusted proxy says the request came over HTTPS, and not over plain HTTP', async () => {
    expect((await signUp({ 'x-forwarded-proto': 'https' })).secure).toBe(true);
    expect((await signUp()).secure).toBeFalsy();
    const cookie = await signUp();
    const refreshed = await post('/api/auth/refresh', cookie.value, { 'x-forwarded-proto': 'https' });
    expect(refreshed.cookies.find((c) => c.name === REFRESH_COOKIE)?.secure).toBe(true);
  });

  it("is not Secure on a client's own X-Forwarded-Proto when no proxy is trusted", async () => {
    const direct = await createTestApp({ trustProxy: false });
    try {
      expect((await signUp({ 'x-forwarded-proto': 'https' }, direct)).secure).toBeFalsy();
    } finally {
      await direct.close();
    }
  });
});
