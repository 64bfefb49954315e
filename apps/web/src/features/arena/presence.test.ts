import { describe, expect, it } from 'vitest';
import { MATCH_PRESENCE } from '@versus/domain/realtime-constants';
import { NOBODY, heard, isHere, nextExpiry, presenceHint } from './presence.ts';

const T = MATCH_PRESENCE.timeoutMs;

describe('match presence', () => {
  it('reads presence hints and nothing else', () => {
    expect(presenceHint('presence', { userId: 'a', here: true, ask: true })).toEqual({ userId: 'a', here: true });
    expect(presenceHint('presence', { userId: 'a' })).toBeNull();
    expect(presenceHint('balance', { userId: 'a', here: true })).toBeNull();
    expect(presenceHint('presence', null)).toBeNull();
  });

  it('is Here once heard, Away once left, and Away again after the timeout without a word', () => {
    let p = heard(NOBODY, { userId: 'a', here: true }, 1000);
    expect(isHere(p, 'a', 1000)).toBe(true);
    expect(isHere(p, 'b', 1000)).toBe(false);
    expect(isHere(p, 'a', 1000 + T - 1)).toBe(true);
    expect(isHere(p, 'a', 1000 + T)).toBe(false);
    p = heard(p, { userId: 'a', here: true }, 1000 + T - 1);
    expect(isHere(p, 'a', 1000 + T)).toBe(true);
    p = heard(p, { userId: 'a', here: false }, 1000 + T);
    expect(isHere(p, 'a', 1000 + T)).toBe(false);
  });

  it('knows when the next Here runs out', () => {
    expect(nextExpiry(NOBODY)).toBeNull();
    const p = heard(heard(NOBODY, { userId: 'a', here: true }, 500), { userId: 'b', here: true }, 100);
    expect(nextExpiry(p)).toBe(100 + T);
    expect(nextExpiry(heard(p, { userId: 'b', here: false }, 600))).toBe(500 + T);
  });
});
