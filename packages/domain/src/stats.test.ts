import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SIMULATED_STATS } from './constants.ts';
import { driftStats, initialStats, randomIntInclusive, type RandomSource, type SimulatedStats } from './stats.ts';

/** mulberry32: a tiny seeded generator, so a walk can be replayed. */
function seeded(seed: number): RandomSource {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Replays the given draws in order, so a test can pick the exact drift. */
function scripted(draws: number[]): RandomSource {
  let i = 0;
  return () => {
    const value = draws[i % draws.length];
    i += 1;
    if (value === undefined) throw new Error('scripted random needs at least one draw');
    return value;
  };
}

const unit = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
const stats = fc.record({
  onlinePlayers: fc.integer({ min: 1000, max: 1_000_000 }),
  activeChallenges: fc.integer({ min: SIMULATED_STATS.activeChallengesFloor, max: 100_000 }),
  prizePool: fc.integer({ min: 1000, max: 10_000_000 }),
});

describe('initialStats', () => {
  it('starts at the SPEC figures', () => {
    expect(initialStats()).toEqual({ onlinePlayers: 1247, activeChallenges: 89, prizePool: 89420 });
  });

  it('returns a fresh object each time', () => {
    const a = initialStats();
    a.onlinePlayers = 0;
    expect(initialStats().onlinePlayers).toBe(1247);
  });
});

describe('randomIntInclusive', () => {
  it('maps [0, 1) onto every integer of the range and nothing else', () => {
    fc.assert(
      fc.property(unit, fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 500 }), (r, min, span) => {
        const n = randomIntInclusive(() => r, min, min + span);
        expect(Number.isInteger(n)).toBe(true);
        expect(n).toBeGreaterThanOrEqual(min);
        expect(n).toBeLessThanOrEqual(min + span);
      }),
    );
    expect(randomIntInclusive(() => 0, -2, 2)).toBe(-2);
    expect(randomIntInclusive(() => 0.9999999, -2, 2)).toBe(2);
  });

  it('holds a misbehaving source inside the range', () => {
    expect(randomIntInclusive(() => 1, -2, 2)).toBe(2);
    expect(randomIntInclusive(() => 7, -2, 2)).toBe(2);
    expect(randomIntInclusive(() => -3, -2, 2)).toBe(-2);
    expect(randomIntInclusive(() => Number.NaN, -2, 2)).toBe(-2);
  });
});

describe('driftStats', () => {
  it('keeps every drift within its SPEC bounds, in integers', () => {
    fc.assert(
      fc.property(stats, unit, unit, unit, (before, a, b, c) => {
        const after = driftStats(before, scripted([a, b, c]));
        const players = after.onlinePlayers - before.onlinePlayers;
        const challenges = after.activeChallenges - before.activeChallenges;
        const pool = after.prizePool - before.prizePool;
        expect(players).toBeGreaterThanOrEqual(-2);
        expect(players).toBeLessThanOrEqual(2);
        expect(challenges).toBeGreaterThanOrEqual(-1);
        expect(challenges).toBeLessThanOrEqual(1);
        expect(pool).toBeGreaterThanOrEqual(-100);
        expect(pool).toBeLessThanOrEqual(99);
        for (const value of Object.values(after)) expect(Number.isInteger(value)).toBe(true);
      }),
    );
  });

  it('reaches both ends of every range', () => {
    const start: SimulatedStats = { onlinePlayers: 1000, activeChallenges: 100, prizePool: 50_000 };
    expect(driftStats(start, () => 0)).toEqual({ onlinePlayers: 998, activeChallenges: 99, prizePool: 49_900 });
    expect(driftStats(start, () => 0.99999999)).toEqual({
      onlinePlayers: 1002,
      activeChallenges: 101,
      prizePool: 50_099,
    });
  });

  it('draws players, then challenges, then prize pool', () => {
    const start = initialStats();
    expect(driftStats(start, scripted([0, 0.5, 0.99999]))).toEqual({
      onlinePlayers: 1245,
      activeChallenges: 89,
      prizePool: 89_519,
    });
  });

  it('never lets active challenges fall below the floor of 50, however long it runs', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 3000 }), (seed, ticks) => {
        const random = seeded(seed);
        let current = initialStats();
        for (let i = 0; i < ticks; i += 1) {
          current = driftStats(current, random);
          expect(current.activeChallenges).toBeGreaterThanOrEqual(50);
        }
      }),
      { numRuns: 50 },
    );
  });

  it('holds the floor under a source that always drifts down', () => {
    let current = initialStats();
    for (let i = 0; i < 10_000; i += 1) current = driftStats(current, () => 0);
    expect(current.activeChallenges).toBe(50);
    expect(current.onlinePlayers).toBe(0);
    expect(current.prizePool).toBe(0);
  });

  it('is deterministic for a seeded source and does not mutate its input', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const walk = (random: RandomSource) => {
          const seen: SimulatedStats[] = [];
          let current = initialStats();
          for (let i = 0; i < 20; i += 1) {
            const before = { ...current };
            const next = driftStats(current, random);
            expect(current).toEqual(before);
            seen.push(next);
            current = next;
          }
          return seen;
        };
        expect(walk(seeded(seed))).toEqual(walk(seeded(seed)));
      }),
      { numRuns: 50 },
    );
  });
});
