import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SHELL } from '@versus/domain';
import { indexAfterSwipe, nextIndex, previousIndex, swipeStep, wrapIndex } from './carousel.ts';

const threshold = SHELL.swipeThresholdPx;

describe('carousel index arithmetic', () => {
  it('cycles forward and backward through four slides', () => {
    expect([0, 1, 2, 3].map((i) => nextIndex(i, 4))).toEqual([1, 2, 3, 0]);
    expect([0, 1, 2, 3].map((i) => previousIndex(i, 4))).toEqual([3, 0, 1, 2]);
  });

  it('always lands inside the slide range, and next undoes previous', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: 1, max: 50 }), (i, count) => {
        const w = wrapIndex(i, count);
        expect(w).toBeGreaterThanOrEqual(0);
        expect(w).toBeLessThan(count);
        expect(Number.isInteger(w)).toBe(true);
        expect(previousIndex(nextIndex(w, count), count)).toBe(w);
        expect(nextIndex(previousIndex(w, count), count)).toBe(w);
      }),
    );
  });

  it('n steps forward come back to the start', () => {
    let i = 2;
    for (let k = 0; k < 4; k += 1) i = nextIndex(i, 4);
    expect(i).toBe(2);
  });

  it('answers 0 for no slides or a non-number', () => {
    expect(wrapIndex(3, 0)).toBe(0);
    expect(wrapIndex(Number.NaN, 4)).toBe(0);
    expect(nextIndex(0, 1)).toBe(0);
  });
});

describe('swipe decision', () => {
  it('uses the SPEC threshold of 50 px', () => {
    expect(threshold).toBe(50);
  });

  it('needs strictly more than the threshold', () => {
    expect(swipeStep(-50, 0, threshold)).toBe(0);
    expect(swipeStep(50, 0, threshold)).toBe(0);
    expect(swipeStep(-51, 0, threshold)).toBe(1);
    expect(swipeStep(51, 0, threshold)).toBe(-1);
  });

  it('dragging left goes to the next slide, right to the previous one, wrapping', () => {
    expect(indexAfterSwipe(3, 4, -120, 4, threshold)).toBe(0);
    expect(indexAfterSwipe(0, 4, 120, -4, threshold)).toBe(3);
    expect(indexAfterSwipe(1, 4, 10, 0, threshold)).toBe(1);
  });

  it('ignores mostly vertical gestures', () => {
    expect(swipeStep(-80, 120, threshold)).toBe(0);
    expect(swipeStep(80, -80, threshold)).toBe(0);
  });

  it('never moves more than one slide and only past the threshold', () => {
    fc.assert(
      fc.property(fc.double({ min: -2000, max: 2000, noNaN: true }), fc.double({ min: -2000, max: 2000, noNaN: true }), (dx, dy) => {
        const step = swipeStep(dx, dy, threshold);
        expect([-1, 0, 1]).toContain(step);
        if (Math.abs(dx) <= threshold) expect(step).toBe(0);
        if (step !== 0) expect(Math.sign(step)).toBe(-Math.sign(dx));
      }),
    );
  });

  it('ignores non-finite travel', () => {
    expect(swipeStep(Number.NaN, 0, threshold)).toBe(0);
    expect(swipeStep(Number.NEGATIVE_INFINITY, 0, threshold)).toBe(0);
  });
});
