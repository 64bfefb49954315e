// The match format: best of 3, drawn games replayed up to a cap; who starts alternates every game,
// replays included.
import { otherSeat, type DecidedOutcome, type Seat } from './game.ts';

export const SERIES_RULES = {
  winsNeeded: 2,
  /** Drawn games after which the match is a draw, whatever the score (issue 5). */
  maxDrawnGames: 3,
} as const;

export type SeriesEndReason = 'games-won' | 'drawn-game-cap' | 'resignation' | 'forfeit';
export type SeriesOutcome = { winner: Seat; reason: SeriesEndReason } | { draw: true; reason: SeriesEndReason } | null;

export interface SeriesState {
  /** Who starts game 1. */
  firstSeat: Seat;
  /** The result of every finished game, in order. */
  games: DecidedOutcome[];
  /** The match was given up as a whole (a resigned match, a no-show): `loser` lost it. */
  conceded: { loser: Seat; reason: 'resignation' | 'forfeit' } | null;
}

export interface SeriesScore {
  wins: [number, number];
  draws: number;
  played: number;
}

export function startSeries(firstSeat: Seat = 0): SeriesState {
  return { firstSeat, games: [], conceded: null };
}

export function seriesScore(series: SeriesState): SeriesScore {
  const wins: [number, number] = [0, 0];
  let draws = 0;
  for (const game of series.games) {
    if ('winner' in game) wins[game.winner] += 1;
    else draws += 1;
  }
  return { wins, draws, played: series.games.length };
}

export function seriesOutcome(series: SeriesState): SeriesOutcome {
  if (series.conceded) return { winner: otherSeat(series.conceded.loser), reason: series.conceded.reason };
  const { wins, draws } = seriesScore(series);
  for (const seat of [0, 1] as const) if (wins[seat] >= SERIES_RULES.winsNeeded) return { winner: seat, reason: 'games-won' };
  if (draws >= SERIES_RULES.maxDrawnGames) return { draw: true, reason: 'drawn-game-cap' };
  return null;
}

/** The game to play next (0-based index and who starts it), or null when the match is over. */
export function nextGame(series: SeriesState): { index: number; firstSeat: Seat } | null {
  if (seriesOutcome(series)) return null;
  const index = series.games.length;
  return { index, firstSeat: index % 2 === 0 ? series.firstSeat : otherSeat(series.firstSeat) };
}

export type SeriesResult = { ok: true; series: SeriesState; outcome: SeriesOutcome } | { ok: false; error: string };

export const SERIES_ERRORS = { over: 'The match is already over.' } as const;

/** Records a finished game (by the board, a timeout, a resignation or an agreed draw). */
export function recordGame(series: SeriesState, result: DecidedOutcome): SeriesResult {
  if (seriesOutcome(series)) return { ok: false, error: SERIES_ERRORS.over };
  const next = { ...series, games: [...series.games, result] };
  return { ok: true, series: next, outcome: seriesOutcome(next) };
}

/** Ends the whole match against `loser`, whatever the score. */
export function concedeSeries(series: SeriesState, loser: Seat, reason: 'resignation' | 'forfeit'): SeriesResult {
  if (seriesOutcome(series)) return { ok: false, error: SERIES_ERRORS.over };
  const next = { ...series, conceded: { loser, reason } };
  return { ok: true, series: next, outcome: seriesOutcome(next) };
}
