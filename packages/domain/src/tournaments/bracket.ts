// The knockout bracket, pure and plain JSON, advanced one result at a time so it runs live, not
// round by round (docs/decisions.md, "Knockouts").
import { z } from 'zod';
import { TOURNAMENT } from '../messages.ts';

export const bracketEntrantSchema = z.object({
  id: z.string(),
  rating: z.number(),
  /** 1 for the highest rating. */
  seed: z.number().int().positive(),
});

export const bracketMatchSchema = z.object({
  /** 0 for the first round. */
  round: z.number().int().nonnegative(),
  index: z.number().int().nonnegative(),
  /** Later rounds: slot 0 from match 2i of the round before, slot 1 from 2i+1; null while unknown or a bye. */
  players: z.tuple([z.string().nullable(), z.string().nullable()]),
  winner: z.string().nullable(),
  /** A first-round match without an opponent: its one player goes through without playing. */
  bye: z.boolean(),
});
export type BracketMatch = z.infer<typeof bracketMatchSchema>;

export const bracketSchema = z.object({
  /** Slots in the first round: the field rounded up to a power of two. */
  size: z.number().int().positive(),
  /** By seed. */
  entrants: z.array(bracketEntrantSchema),
  /** Every round from the first to the final, each match in bracket order. */
  rounds: z.array(z.array(bracketMatchSchema)),
});
export type KnockoutBracket = z.infer<typeof bracketSchema>;

export interface KnockoutResult {
  round: number;
  index: number;
  winner: string;
}

export const nextPowerOfTwo = (n: number): number => 2 ** Math.ceil(Math.log2(Math.max(1, n)));

/** Seeds in bracket order, so 1 and 2 can meet only in the final (every first-round pair sums to size + 1). */
export function seedingOrder(size: number): number[] {
  let order = [1];
  while (order.length < size) {
    const n = order.length * 2;
    order = order.flatMap((seed) => [seed, n + 1 - seed]);
  }
  return order;
}

const cloneRounds = (rounds: KnockoutBracket['rounds']): BracketMatch[][] =>
  rounds.map((round) => round.map((match) => ({ ...match, players: [match.players[0], match.players[1]] })));

/** Puts a decided match's winner into its slot of the next round (the final has none). */
function sendOn(rounds: BracketMatch[][], match: BracketMatch): BracketMatch | null {
  const next = rounds[match.round + 1]?.[Math.floor(match.index / 2)];
  if (!next) return null;
  next.players[match.index % 2] = match.winner;
  return next;
}

/** Equal ratings: the earlier entrant in `players` seeds higher; seeds beyond the field are byes. */
export function seedBracket(players: readonly { id: string; rating: number }[]): KnockoutBracket {
  if (players.length < 2) throw new RangeError('a bracket needs at least 2 players');
  if (new Set(players.map((p) => p.id)).size !== players.length) throw new RangeError('a player can enter a bracket once');
  const entrants = players
    .map((p, order) => ({ p, order }))
    .sort((a, b) => b.p.rating - a.p.rating || a.order - b.order)
    .map(({ p }, i) => ({ id: p.id, rating: p.rating, seed: i + 1 }));
  const size = nextPowerOfTwo(entrants.length);
  const order = seedingOrder(size);
  const idOfSeed = (seed: number): string | null => entrants[seed - 1]?.id ?? null;

  const rounds: BracketMatch[][] = [];
  for (let round = 0, matches = size / 2; matches >= 1; round++, matches /= 2) {
    rounds.push(Array.from({ length: matches }, (_, index) => ({ round, index, players: [null, null], winner: null, bye: false })));
  }
  for (const match of rounds[0]!) {
    match.players = [idOfSeed(order[2 * match.index]!), idOfSeed(order[2 * match.index + 1]!)];
    // The better seed is in slot 0, so only slot 1 can be empty.
    if (match.players[1] === null) {
      match.bye = true;
      match.winner = match.players[0];
      sendOn(rounds, match);
    }
  }
  return { size, entrants, rounds };
}

export type AdvanceResult =
  | { ok: true; bracket: KnockoutBracket; ready: BracketMatch[] }
  | { ok: false; code: 'unknown_match' | 'match_not_ready' | 'match_decided' | 'not_in_match'; message: string };

/** Answers the matches that became ready; all or nothing, so one bad result leaves the bracket as it was. */
export function advance(bracket: KnockoutBracket, results: readonly KnockoutResult[]): AdvanceResult {
  const rounds = cloneRounds(bracket.rounds);
  const ready: BracketMatch[] = [];
  for (const result of results) {
    const match = rounds[result.round]?.[result.index];
    if (!match) return { ok: false, code: 'unknown_match', message: TOURNAMENT.unknownMatch };
    if (match.winner !== null) return { ok: false, code: 'match_decided', message: TOURNAMENT.matchDecided };
    if (match.players[0] === null || match.players[1] === null)
      return { ok: false, code: 'match_not_ready', message: TOURNAMENT.matchNotReady };
    if (!match.players.includes(result.winner)) return { ok: false, code: 'not_in_match', message: TOURNAMENT.notInMatch };
    match.winner = result.winner;
    const next = sendOn(rounds, match);
    if (next && next.players[0] !== null && next.players[1] !== null) ready.push(next);
  }
  return { ok: true, bracket: { ...bracket, rounds }, ready: ready.filter((m) => m.winner === null) };
}

/** Matches to play now: both players known, no winner yet. */
export const playableMatches = (bracket: KnockoutBracket): BracketMatch[] =>
  bracket.rounds.flat().filter((m) => m.winner === null && m.players[0] !== null && m.players[1] !== null);

/** The final's winner, once there is one. */
export const champion = (bracket: KnockoutBracket): string | null => bracket.rounds.at(-1)?.[0]?.winner ?? null;

/** Rounds from this one to the final, counting both (1 is the final): for naming a round. */
export const roundsLeft = (bracket: KnockoutBracket, round: number): number => bracket.rounds.length - round;

const seedOf = (bracket: KnockoutBracket, id: string): number =>
  bracket.entrants.find((e) => e.id === id)?.seed ?? Number.POSITIVE_INFINITY;

/** The better-seeded of two players. */
export const betterSeed = (bracket: KnockoutBracket, a: string, b: string): string => (seedOf(bracket, b) < seedOf(bracket, a) ? b : a);

/** Neither ready: the better seed, as a knockout match cannot be void; null when both were ready. */
export function noShowWinner(bracket: KnockoutBracket, match: BracketMatch, ready: readonly [boolean, boolean]): string | null {
  const [a, b] = match.players;
  if (a === null || b === null || (ready[0] && ready[1])) return null;
  if (ready[0] !== ready[1]) return ready[0] ? a : b;
  return betterSeed(bracket, a, b);
}

/** Groups sharing a place, for `payouts` (no third-place match: semifinal losers share 3rd–4th). */
export function knockoutStandings(bracket: KnockoutBracket): string[][] | null {
  const winner = champion(bracket);
  if (winner === null) return null;
  const groups: string[][] = [[winner]];
  for (let round = bracket.rounds.length - 1; round >= 0; round--) {
    const losers = bracket.rounds[round]!.filter((m) => !m.bye)
      .map((m) => (m.players[0] === m.winner ? m.players[1] : m.players[0]) as string)
      .sort((a, b) => seedOf(bracket, a) - seedOf(bracket, b));
    if (losers.length > 0) groups.push(losers);
  }
  return groups;
}
