// One knockout pairing: its match, then a decider if drawn, since someone must go through
// (docs/decisions.md, "Knockouts").
import {
  otherSeat,
  seriesOutcome,
  SERIES_RULES,
  type DecidedOutcome,
  type Seat,
  type SeriesOutcome,
  type SeriesState,
} from '../games/index.ts';
import type { KnockoutMatchFormat, TournamentGame } from './schemas.ts';

/** Game wins that take a knockout match (labels: TOURNAMENT_VIEW.matchFormats). */
export const KNOCKOUT_MATCH_RULES: Readonly<Record<KnockoutMatchFormat, { winsNeeded: number }>> = {
  'best-of-1': { winsNeeded: 1 },
  'best-of-3': { winsNeeded: SERIES_RULES.winsNeeded },
};

/** Games whose moves are simultaneous throws: no first move to swap, no draw odds to give. */
export const SIMULTANEOUS_GAMES: readonly TournamentGame[] = ['rock-paper-scissors'];

/** Best of 1 is the series' first game, though a resignation or a no-show still ends it. */
export function knockoutMatchOutcome(format: KnockoutMatchFormat, series: SeriesState): SeriesOutcome {
  if (format === 'best-of-3' || series.conceded) return seriesOutcome(series);
  const first = series.games[0];
  if (!first) return null;
  return 'winner' in first ? { winner: first.winner, reason: 'games-won' } : { draw: true, reason: 'drawn-game-cap' };
}

/** Who moves first in the decider: the other seat from game 1 of the match. */
export const deciderFirstSeat = (matchFirstSeat: Seat): Seat => otherSeat(matchFirstSeat);

export type DeciderResult = { winner: Seat; byDrawOdds: boolean } | { replay: true };

/** Who goes through after a deciding game that `firstSeat` started (a draw: the second mover, Armageddon's odds). */
export function deciderResult(game: TournamentGame, firstSeat: Seat, outcome: DecidedOutcome): DeciderResult {
  if ('winner' in outcome) return { winner: outcome.winner, byDrawOdds: false };
  if (SIMULTANEOUS_GAMES.includes(game)) return { replay: true };
  return { winner: otherSeat(firstSeat), byDrawOdds: true };
}
