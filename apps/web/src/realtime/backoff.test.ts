import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RECONNECT, backoffDelay, checkVersion } from './backoff.ts';

describe('backoffDelay', () => {
  it('starts at 0.5 s and doubles up to 30 s', () => {
    const ceilings = Array.from({ length: 10 }, (_, attempt) => backoffDelay(attempt, 1));
    expect(ceilings).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 30_000]);
  });

  it('jitters down to half the ceiling, never below 0.5 s', () => {
    expect(backoffDelay(0, 0)).toBe(500);
    expect(backoffDelay(1, 0)).toBe(500);
    expect(backoffDelay(3, 0)).toBe(2000);
    expect(backoffDelay(3, 0.5)).toBe(3000);
    expect(backoffDelay(50, 0)).toBe(15_000);
  });

  it('always stays within [0.5 s, 30 s], and the ceiling never shrinks as attempts grow', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (attempt, random) => {
        const delay = backoffDelay(attempt, random);
        expect(delay).toBeGreaterThanOrEqual(RECONNECT.minMs);
        expect(delay).toBeLessThanOrEqual(RECONNECT.maxMs);
        expect(backoffDelay(attempt + 1, 1)).toBeGreaterThanOrEqual(backoffDelay(attempt, 1));
      }),
    );
  });

  it('spreads clients out: different random draws give different delays', () => {
    const delays = new Set([0, 0.25, 0.5, 0.75, 1].map((r) => backoffDelay(5, r)));
    expect(delays.size).toBe(5);
  });
});

describe('checkVersion', () => {
  it('takes anything first, then the next version, refusing repeats and flagging gaps', () => {
    expect(checkVersion(undefined, 7)).toBe('next');
    expect(checkVersion(6, 7)).toBe('next');
    expect(checkVersion(7, 7)).toBe('duplicate');
    expect(checkVersion(7, 3)).toBe('duplicate');
    expect(checkVersion(7, 9)).toBe('gap');
    expect(checkVersion(0, 1)).toBe('next');
  });
});
