// The prize pool and its split, fixed by the field's size and shown before anyone enters; amounts
// in minor units add up to the pool exactly.
import { TOURNAMENT_VIEW } from '../messages.ts';

/** Percent per place by field size: winner takes all up to 8, as a challenge does; then about one in five paid. */
export const PRIZE_TABLE: readonly { readonly upTo: number; readonly percents: readonly number[] }[] = [
  { upTo: 8, percents: [100] },
  { upTo: 16, percents: [60, 30, 10] },
  { upTo: Number.POSITIVE_INFINITY, percents: [50, 25, 15, 10] },
];

/** The pool the places share: every entrant's stake, or the sponsor's prize (no fee either way). */
export function prizePool(tournament: { entryStake: number; sponsoredPrize: number }, entrants: number): number {
  return tournament.sponsoredPrize > 0 ? tournament.sponsoredPrize : tournament.entryStake * entrants;
}

/** Percent per place (1st first) for a field of `players`. */
export function prizePercents(players: number): readonly number[] {
  if (!Number.isInteger(players) || players < 1) throw new RangeError(`${players} is not a number of players`);
  return PRIZE_TABLE.find((row) => players <= row.upTo)!.percents;
}

/** Minor units per place (1st first), summing exactly to `pool`; the rounding remainder goes to 1st. */
export function prizeSplit(pool: number, players: number): number[] {
  if (!Number.isSafeInteger(pool) || pool < 0) throw new RangeError(`${pool} is not an amount in minor units`);
  // BigInt: pool × percent stays exact whatever the pool.
  const amounts = prizePercents(players).map((percent) => Number((BigInt(pool) * BigInt(percent)) / 100n));
  amounts[0]! += pool - amounts.reduce((sum, amount) => sum + amount, 0);
  return amounts;
}

/** "Winner takes all", or "1st 60% · 2nd 30% · 3rd 10%": the split shown before entering. */
export function describePrizeSplit(players: number): string {
  const percents = prizePercents(players);
  if (percents.length === 1) return TOURNAMENT_VIEW.winnerTakesAll;
  return percents.map((percent, i) => `${TOURNAMENT_VIEW.place(i + 1)} ${percent}%`).join(' · ');
}

export interface Payout {
  userId: string;
  /** The first place of the player's group (3 for both players sharing 3rd–4th). */
  place: number;
  /** Minor units; players whose places pay nothing are left out. */
  amount: number;
}

/** A group spanning places p…q shares their prizes equally, spare cents to its better seeds first. */
export function payouts(standings: readonly (readonly string[])[], pool: number): Payout[] {
  const players = standings.reduce((n, group) => n + group.length, 0);
  const split = prizeSplit(pool, players);
  const result: Payout[] = [];
  let place = 1;
  for (const group of standings) {
    if (group.length === 0) continue;
    const share = split.slice(place - 1, place - 1 + group.length).reduce((sum, amount) => sum + amount, 0);
    const each = Math.floor(share / group.length);
    const leftover = share - each * group.length;
    group.forEach((userId, i) => {
      const amount = each + (i < leftover ? 1 : 0);
      if (amount > 0) result.push({ userId, place, amount });
    });
    place += group.length;
  }
  return result;
}
