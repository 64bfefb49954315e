// The landing page's headline figures (SPEC §1) are simulated on the client, not served.
// Pure: the caller supplies the randomness, so a seeded generator replays the same walk.
import { SIMULATED_STATS } from './constants.ts';

export interface SimulatedStats {
  onlinePlayers: number;
  activeChallenges: number;
  prizePool: number;
}

/** A source of uniform numbers in [0, 1), like Math.random. */
export type RandomSource = () => number;

export function initialStats(): SimulatedStats {
  return { ...SIMULATED_STATS.initial };
}

/** A uniform integer in [min, max]; a source that misbehaves (1, NaN) is held inside the range. */
export function randomIntInclusive(random: RandomSource, min: number, max: number): number {
  const r = random();
  const unit = Number.isFinite(r) ? Math.min(Math.max(r, 0), 1 - Number.EPSILON) : 0;
  return min + Math.floor(unit * (max - min + 1));
}

/** Draws from `random` exactly three times, in that order, so a seeded walk replays. */
export function driftStats(stats: SimulatedStats, random: RandomSource): SimulatedStats {
  const { drift, activeChallengesFloor } = SIMULATED_STATS;
  const players = randomIntInclusive(random, drift.onlinePlayers.min, drift.onlinePlayers.max);
  const challenges = randomIntInclusive(random, drift.activeChallenges.min, drift.activeChallenges.max);
  const pool = randomIntInclusive(random, drift.prizePool.min, drift.prizePool.max);
  return {
    onlinePlayers: Math.max(0, stats.onlinePlayers + players),
    activeChallenges: Math.max(activeChallengesFloor, stats.activeChallenges + challenges),
    prizePool: Math.max(0, stats.prizePool + pool),
  };
}
