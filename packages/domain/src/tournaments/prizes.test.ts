import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { advance, knockoutStandings, playableMatches, seedBracket } from './bracket.ts';
import { describePrizeSplit, payouts, prizePercents, prizePool, prizeSplit, PRIZE_TABLE } from './prizes.ts';

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

describe('prize table', () => {
  it('pays the winner alone up to 8 players, 60/30/10 up to 16, then 50/25/15/10', () => {
    for (const n of [1, 2, 4, 8]) expect(prizePercents(n)).toEqual([100]);
    for (const n of [9, 12, 16]) expect(prizePercents(n)).toEqual([60, 30, 10]);
    for (const n of [17, 32, 64, 65]) expect(prizePercents(n)).toEqual([50, 25, 15, 10]);
    for (const row of PRIZE_TABLE) expect(sum(row.percents)).toBe(100);
    expect(() => prizePercents(0)).toThrow(RangeError);
  });

  it('is written out before entering', () => {
    expect(describePrizeSplit(8)).toBe('Winner takes all');
    expect(describePrizeSplit(16)).toBe('1st 60% · 2nd 30% · 3rd 10%');
    expect(describePrizeSplit(64)).toBe('1st 50% · 2nd 25% · 3rd 15% · 4th 10%');
  });

  it('is every stake, or the sponsored prize', () => {
    expect(prizePool({ entryStake: 2500, sponsoredPrize: 0 }, 12)).toBe(30_000);
    expect(prizePool({ entryStake: 0, sponsoredPrize: 50_000 }, 12)).toBe(50_000);
  });
});

describe('prizeSplit', () => {
  it('gives the cents a percentage cannot split to first place', () => {
    expect(prizeSplit(1001, 12)).toEqual([601, 300, 100]);
    expect(prizeSplit(999, 20)).toEqual([502, 249, 149, 99]);
    expect(prizeSplit(7, 4)).toEqual([7]);
    expect(prizeSplit(0, 40)).toEqual([0, 0, 0, 0]);
  });

  it('sums exactly to the pool, in places that never pay less than the next', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 1, max: 200 }), (pool, players) => {
        const split = prizeSplit(pool, players);
        expect(split).toHaveLength(prizePercents(players).length);
        expect(split.every((a) => Number.isSafeInteger(a) && a >= 0)).toBe(true);
        expect(split.reduce((a, b) => BigInt(a) + BigInt(b), 0n)).toBe(BigInt(pool));
        for (let i = 1; i < split.length; i++) expect(split[i - 1]!).toBeGreaterThanOrEqual(split[i]!);
      }),
    );
  });

  it('refuses an amount that is not minor units', () => {
    expect(() => prizeSplit(10.5, 4)).toThrow(RangeError);
    expect(() => prizeSplit(-1, 4)).toThrow(RangeError);
  });
});

describe('payouts', () => {
  it('pays a knockout: the semifinal losers share 3rd and 4th', () => {
    const standings = [['w'], ['r'], ['s1', 's2'], ['q1', 'q2', 'q3', 'q4'], ['x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7', 'x8']];
    // 16 players, 60/30/10 of 16,001: 3rd's 1,600 and 4th's 0 shared.
    expect(payouts(standings, 16_001)).toEqual([
      { userId: 'w', place: 1, amount: 9601 },
      { userId: 'r', place: 2, amount: 4800 },
      { userId: 's1', place: 3, amount: 800 },
      { userId: 's2', place: 3, amount: 800 },
    ]);
    // 20 players, 50/25/15/10 of 1,001: 3rd and 4th (150 + 100) shared, odd cent to the better seed.
    const twenty = [['w'], ['r'], ['s1', 's2'], ['q1', 'q2', 'q3', 'q4'], Array.from({ length: 12 }, (_, i) => `x${i}`)];
    expect(payouts(twenty, 1001)).toEqual([
      { userId: 'w', place: 1, amount: 501 },
      { userId: 'r', place: 2, amount: 250 },
      { userId: 's1', place: 3, amount: 125 },
      { userId: 's2', place: 3, amount: 125 },
    ]);
    // 1,030: 3rd 154 + 4th 103 is odd: the cent goes to the better seed.
    expect(payouts(twenty, 1030).slice(2)).toEqual([
      { userId: 's1', place: 3, amount: 129 },
      { userId: 's2', place: 3, amount: 128 },
    ]);
  });

  it('pays an arena place by place, and a small field winner-takes-all', () => {
    expect(payouts([['a'], ['b'], ['c'], ['d'], ['e'], ['f'], ['g'], ['h'], ['i']], 900)).toEqual([
      { userId: 'a', place: 1, amount: 540 },
      { userId: 'b', place: 2, amount: 270 },
      { userId: 'c', place: 3, amount: 90 },
    ]);
    expect(payouts([['a'], ['b'], ['c', 'd']], 400)).toEqual([{ userId: 'a', place: 1, amount: 400 }]);
  });

  it('sums exactly to the pool for any standings, ties differing by a cent at most', () => {
    const standings = fc
      .array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 20 })
      .map((sizes) => sizes.map((size, g) => Array.from({ length: size }, (_, i) => `g${g}p${i}`)));
    fc.assert(
      fc.property(standings, fc.integer({ min: 0, max: 10_000_000_000 }), (groups, pool) => {
        const paid = payouts(groups, pool);
        expect(sum(paid.map((p) => p.amount))).toBe(pool);
        expect(new Set(paid.map((p) => p.userId)).size).toBe(paid.length);
        for (const group of groups) {
          const amounts = group.map((id) => paid.find((p) => p.userId === id)?.amount ?? 0);
          expect(Math.max(...amounts) - Math.min(...amounts)).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it('pays a played-out bracket exactly its pool', () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 64 }), fc.integer({ min: 0, max: 64_000_00 }), (n, pool) => {
        let bracket = seedBracket(Array.from({ length: n }, (_, i) => ({ id: `p${i}`, rating: i })));
        for (let playable = playableMatches(bracket); playable.length > 0; playable = playableMatches(bracket)) {
          const result = advance(
            bracket,
            playable.map((m) => ({ round: m.round, index: m.index, winner: m.players[m.index % 2]! })),
          );
          if (!result.ok) throw new Error(result.message);
          bracket = result.bracket;
        }
        expect(sum(payouts(knockoutStandings(bracket)!, pool).map((p) => p.amount))).toBe(pool);
      }),
      { numRuns: 50 },
    );
  });
});
