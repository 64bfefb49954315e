import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FALLING_GLYPHS, RAIN, canvasSize, columnCount, createDrops, pickGlyph, stepDrops } from './falling-text.ts';

describe('canvasSize', () => {
  it('scales the backing store by the device pixel ratio', () => {
    expect(canvasSize(400, 300, 2)).toEqual({ width: 800, height: 600, scale: 2 });
    expect(canvasSize(400, 300, 1)).toEqual({ width: 400, height: 300, scale: 1 });
    expect(canvasSize(401, 301, 1.5)).toEqual({ width: 602, height: 452, scale: 1.5 });
  });

  it('caps the ratio and survives odd inputs', () => {
    expect(canvasSize(100, 100, 4).scale).toBe(RAIN.maxPixelRatio);
    expect(canvasSize(100, 100, 0)).toEqual({ width: 100, height: 100, scale: 1 });
    expect(canvasSize(Number.NaN, -5, Number.NaN)).toEqual({ width: 0, height: 0, scale: 1 });
  });
});

describe('columnCount', () => {
  it('covers the whole width', () => {
    expect(columnCount(1280, 16)).toBe(80);
    expect(columnCount(390, 16)).toBe(25);
    expect(columnCount(0, 16)).toBe(0);
    expect(columnCount(100, 0)).toBe(0);
  });
});

describe('drops', () => {
  it('start at or above the top, one per column', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 1, max: 200 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (columns, rows, r) => {
          const drops = createDrops(columns, rows, () => r);
          expect(drops).toHaveLength(columns);
          for (const d of drops) {
            expect(d).toBeLessThanOrEqual(0);
            expect(d).toBeGreaterThan(-rows - 1);
          }
        },
      ),
    );
  });

  it('fall one row per step and only restart once past the bottom', () => {
    expect(stepDrops([0, 5, 10], 10, () => 0)).toEqual([1, 6, 11]);
    expect(stepDrops([11], 10, () => 0)).toEqual([0]);
    expect(stepDrops([11], 10, () => 0.99)).toEqual([12]);
  });

  it('never restart a drop that is still on screen', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 40 })), (drops) => {
        expect(stepDrops(drops, 40, () => 0)).toEqual(drops.map((d) => d + 1));
      }),
    );
  });
});

describe('pickGlyph', () => {
  it('always returns one glyph from the set', () => {
    const set = new Set(Array.from(FALLING_GLYPHS));
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (r) => {
        expect(set.has(pickGlyph(() => r))).toBe(true);
      }),
    );
  });
});
