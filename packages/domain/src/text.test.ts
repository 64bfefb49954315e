import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isUnstorable, unstorablePath } from './text.ts';

describe('unstorable text', () => {
  it('finds a NUL and an unpaired surrogate of either half, not a pair', () => {
    expect(isUnstorable('a\u0000b')).toBe(true);
    expect(isUnstorable('hi \ud800')).toBe(true);
    expect(isUnstorable('x\udc00')).toBe(true);
    expect(isUnstorable('\udc00\ud800')).toBe(true);
    expect(isUnstorable('gg \ud83c\udfc6')).toBe(false);
    expect(isUnstorable('a\u0000b', { allowNul: true })).toBe(false);
    expect(isUnstorable('a\u0000\ud800', { allowNul: true })).toBe(true);
  });

  it('agrees with String.prototype.isWellFormed on any string without NUL', () => {
    fc.assert(
      // Any UTF-16 code units, so halves of pairs turn up alone, in order and reversed.
      fc.property(fc.array(fc.oneof(fc.integer({ min: 1, max: 0xffff }), fc.integer({ min: 0xd800, max: 0xdfff }))), (units) => {
        const clean = String.fromCharCode(...units);
        expect(isUnstorable(clean)).toBe(!(clean as unknown as { isWellFormed(): boolean }).isWellFormed());
      }),
    );
  });

  it('names where in a nested value the first one sits, a key naming its object', () => {
    expect(unstorablePath({ rules: ['ok', 'x\udc00'] })).toBe('rules.1');
    expect(unstorablePath({ a: { [`k\ud800`]: 1 } })).toBe('a');
    expect(unstorablePath('\ud800')).toBe('');
    expect(unstorablePath({ a: ['fine', { b: 'gg \ud83c\udfc6' }], n: 1, z: null })).toBeNull();
  });
});
