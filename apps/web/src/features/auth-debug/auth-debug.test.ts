import { describe, expect, it } from 'vitest';
import { GENERIC } from '@versus/domain';
import { checkHealth, formatRemaining, readTokenClaims } from './auth-debug.ts';

const b64url = (value: object) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

describe('readTokenClaims', () => {
  it('reads subject, role, account type and times from a JWT body', () => {
    const token = `${b64url({ alg: 'HS256' })}.${b64url({ sub: 'u1', role: 'admin', account_type: 'real', iat: 1_700_000_000, exp: 1_700_003_600 })}.sig`;
    expect(readTokenClaims(token)).toEqual({ subject: 'u1', role: 'admin', accountType: 'real', issuedAt: 1_700_000_000_000, expiresAt: 1_700_003_600_000 });
  });
  it('is null for no token or one that is not a JWT', () => {
    expect(readTokenClaims(null)).toBeNull();
    expect(readTokenClaims('nodots')).toBeNull();
    expect(readTokenClaims('a.!!!.c')).toBeNull();
    expect(readTokenClaims(`a.${btoa('not json')}.c`)).toBeNull();
  });
});

describe('formatRemaining', () => {
  it('shows minutes and seconds under an hour, hours and minutes above, Expired at zero', () => {
    expect(formatRemaining(54 * 60_000 + 7_000)).toBe('54m 07s');
    expect(formatRemaining(62 * 60_000)).toBe('1h 02m');
    expect(formatRemaining(0)).toBe('Expired');
    expect(formatRemaining(-5)).toBe('Expired');
  });
});

describe('checkHealth', () => {
  it('reports the latency of a good answer and the status of a bad one', async () => {
    let t = 100;
    const clock = () => (t += 25);
    const ok = await checkHealth((async () => new Response('{}', { status: 200 })) as typeof fetch, clock);
    expect(ok).toMatchObject({ ok: true, latencyMs: 25, status: 200 });
    const down = await checkHealth((async () => new Response('{}', { status: 503 })) as typeof fetch, clock);
    expect(down).toMatchObject({ ok: false, status: 503, detail: 'HTTP 503' });
  });
  it('maps a timeout and a network failure to SPEC texts', async () => {
    const timeout = await checkHealth((async () => {
      throw new DOMException('timed out', 'TimeoutError');
    }) as typeof fetch);
    expect(timeout).toMatchObject({ ok: false, detail: GENERIC.connectionTimeout });
    const network = await checkHealth((async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch);
    expect(network).toMatchObject({ ok: false, detail: GENERIC.network });
  });
});
