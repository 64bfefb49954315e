import { describe, expect, it } from 'vitest';
import { formatRemaining, readTokenClaims } from './auth-debug.ts';

const b64url = (value: object) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

describe('readTokenClaims', () => {
  it('reads subject, role, account type and times from a JWT body', () => {
    const token = `${b64url({ alg: 'HS256' })}.${b64url({ sub: 'u1', role: 'admin', account_type: 'real', iat: 1_700_000_000, exp: 1_700_003_600 })}.sig`;
    expect(readTokenClaims(token)).toEqual({
      subject: 'u1',
      role: 'admin',
      accountType: 'real',
      issuedAt: 1_700_000_000_000,
      expiresAt: 1_700_003_600_000,
    });
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
