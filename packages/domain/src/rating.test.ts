import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GLICKO2, displayRating, rate, rateMatch, type Glicko2Rating } from './rating.ts';

describe('Glicko-2', () => {
  it("reproduces the worked example of Glickman's paper", () => {
    // The paper rounds μ' on the way to its 1464.06; unrounded code finds 1464.0507.
    const player: Glicko2Rating = { rating: 1500, rd: 200, volatility: 0.06 };
    const after = rate(
      player,
      [
        { opponent: { rating: 1400, rd: 30, volatility: 0.06 }, score: 1 },
        { opponent: { rating: 1550, rd: 100, volatility: 0.06 }, score: 0 },
        { opponent: { rating: 1700, rd: 300, volatility: 0.06 }, score: 0 },
      ],
      { tau: 0.5, clamp: false },
    );
    expect(after.rating).toBeCloseTo(1464.06, 1);
    expect(after.rating).toBeCloseTo(1464.0507, 3);
    expect(after.rd).toBeCloseTo(151.52, 2);
    expect(after.volatility).toBeCloseTo(0.059996, 6);
  });

  it('grows only the deviation over a period without games', () => {
    const after = rate({ rating: 1500, rd: 200, volatility: 0.06 }, [], { clamp: false });
    expect(after.rating).toBe(1500);
    expect(after.rd).toBeCloseTo(Math.sqrt(200 ** 2 + (0.06 * GLICKO2.scale) ** 2), 6);
    expect(rate(GLICKO2.initial, []).rd).toBe(GLICKO2.maxRd);
  });

  it('moves two new players symmetrically after a match', () => {
    const [winner, loser] = rateMatch(GLICKO2.initial, GLICKO2.initial, 1);
    expect(winner.rating).toBeGreaterThan(1500);
    expect(loser.rating).toBeLessThan(1500);
    expect(winner.rating - 1500).toBeCloseTo(1500 - loser.rating, 6);
    expect(winner.rd).toBeLessThan(350);
    const [a, b] = rateMatch(GLICKO2.initial, GLICKO2.initial, 0.5);
    expect(a.rating).toBeCloseTo(1500, 6);
    expect(b.rating).toBeCloseTo(1500, 6);
    expect(displayRating(winner)).toEqual({ value: Math.round(winner.rating), provisional: true });
  });

  it('always: a win never lowers, a loss never raises, the deviation stays in bounds', () => {
    const rating = fc.record({
      rating: fc.double({ min: 600, max: 2800, noNaN: true }),
      rd: fc.double({ min: 45, max: 350, noNaN: true }),
      volatility: fc.double({ min: 0.03, max: 0.1, noNaN: true }),
    });
    fc.assert(
      fc.property(rating, rating, fc.constantFrom(0, 0.5, 1), (a, b, score) => {
        const [na, nb] = rateMatch(a, b, score);
        for (const r of [na, nb]) {
          expect(Number.isFinite(r.rating) && Number.isFinite(r.rd) && Number.isFinite(r.volatility)).toBe(true);
          expect(r.rd).toBeGreaterThanOrEqual(GLICKO2.minRd);
          expect(r.rd).toBeLessThanOrEqual(GLICKO2.maxRd);
        }
        if (score === 1) expect(na.rating).toBeGreaterThanOrEqual(a.rating - 1e-9);
        if (score === 0) expect(na.rating).toBeLessThanOrEqual(a.rating + 1e-9);
      }),
      { numRuns: 300 },
    );
  });
});
