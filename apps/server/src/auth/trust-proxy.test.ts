// The sign-in limit per address counts the address the request really came from: an
// X-Forwarded-For header is believed only from the proxies TRUST_PROXY names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS } from '@versus/domain';
import { loadConfig } from '../config.ts';
import { createTestApp, type TestApp } from '../test/app.ts';

describe('TRUST_PROXY', () => {
  it('is parsed as off, any proxy, a number of hops, or a list of proxies', () => {
    const of = (value: string | undefined) => loadConfig({ TRUST_PROXY: value }).trustProxy;
    expect(of(undefined)).toBe(false);
    expect(of('')).toBe(false);
    expect(of('false')).toBe(false);
    expect(of('true')).toBe(true);
    expect(of('1')).toBe(1);
    expect(of('10.0.0.1, 10.0.0.0/8')).toBe('10.0.0.1, 10.0.0.0/8');
  });
});

describe.each([
  { trustProxy: false, spoofable: false },
  { trustProxy: true, spoofable: true },
  { trustProxy: 1, spoofable: true },
])('sign-in limit per address with trustProxy $trustProxy', ({ trustProxy, spoofable }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ trustProxy });
  });
  afterAll(async () => t?.close());

  const guess = (i: number) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: `nobody${i}@example.com`, password: 'guess-guess', account_type: 'real' },
      remoteAddress: '192.0.2.50',
      headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
    });

  it(spoofable ? 'believes X-Forwarded-For (behind a trusted proxy)' : 'ignores an X-Forwarded-For header a client made up', async () => {
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress; i++) expect((await guess(i)).statusCode).toBe(401);
    expect((await guess(SIGN_IN_LIMITS.perAddress)).statusCode).toBe(spoofable ? 401 : 429);
  });
});
