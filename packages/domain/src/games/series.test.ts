import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { concedeSeries, nextGame, recordGame, SERIES_RULES, seriesOutcome, seriesScore, startSeries, type SeriesState } from './series.ts';
import type { DecidedOutcome, Seat } from './game.ts';

const win = (winner: Seat): DecidedOutcome => ({ winner, reason: 'checkmate' });
const draw: DecidedOutcome = { draw: true, reason: 'stalemate' };
const aGame = fc.oneof(fc.constant(win(0)), fc.constant(win(1)), fc.constant(draw));

function record(series: SeriesState, games: DecidedOutcome[]): SeriesState {
  for (const game of games) {
    const result = recordGame(series, game);
    if (!result.ok) throw new Error(result.error);
    series = result.series;
  }
  return series;
}

/** Plays games until the match is over, returning the final state. */
function playOut(games: DecidedOutcome[], firstSeat: Seat = 0): SeriesState {
  let series = startSeries(firstSeat);
  for (const game of games) {
    if (seriesOutcome(series)) break;
    series = record(series, [game]);
  }
  return series;
}

describe('best-of-3 series', () => {
  it('the first to 2 game wins takes the match', () => {
    expect(seriesOutcome(record(startSeries(), [win(0), win(0)]))).toEqual({ winner: 0, reason: 'games-won' });
    expect(seriesOutcome(record(startSeries(), [win(0), win(1), win(1)]))).toEqual({ winner: 1, reason: 'games-won' });
    expect(seriesOutcome(record(startSeries(), [win(0), win(1)]))).toBeNull();
  });

  it('a drawn game is replayed; the third draw ends it on the score', () => {
    expect(seriesOutcome(record(startSeries(), [draw, draw]))).toBeNull();
    expect(seriesOutcome(record(startSeries(), [draw, draw, draw]))).toEqual({ draw: true, reason: 'drawn-game-cap' });
    expect(seriesOutcome(record(startSeries(), [win(1), draw, draw, draw]))).toEqual({ draw: true, reason: 'drawn-game-cap' });
    expect(seriesOutcome(record(startSeries(), [win(1), draw, win(0), draw, draw]))).toEqual({ draw: true, reason: 'drawn-game-cap' });
  });

  it('the starter alternates every game, replays included', () => {
    let series = startSeries(1);
    const starters: Seat[] = [];
    for (const game of [draw, win(0), draw]) {
      starters.push(nextGame(series)!.firstSeat);
      series = record(series, [game]);
    }
    starters.push(nextGame(series)!.firstSeat);
    expect(starters).toEqual([1, 0, 1, 0]);
  });

  it('nothing can be recorded after the end; a conceded match is lost whatever the score', () => {
    const over = record(startSeries(), [win(0), win(0)]);
    expect(recordGame(over, win(1))).toMatchObject({ ok: false });
    expect(nextGame(over)).toBeNull();
    const conceded = concedeSeries(record(startSeries(), [win(0)]), 0, 'forfeit');
    expect(conceded).toMatchObject({ ok: true, outcome: { winner: 1, reason: 'forfeit' } });
  });

  it('properties: every match ends within 2 wins + 3 draws games, and its result follows the score', () => {
    fc.assert(
      fc.property(fc.array(aGame, { minLength: 8, maxLength: 8 }), fc.constantFrom<Seat>(0, 1), (games, first) => {
        const series = playOut(games, first);
        const outcome = seriesOutcome(series);
        const { wins, draws, played } = seriesScore(series);
        expect(outcome).not.toBeNull();
        expect(played).toBeLessThanOrEqual(2 * SERIES_RULES.winsNeeded - 1 + SERIES_RULES.maxDrawnGames);
        expect(Math.max(...wins)).toBeLessThanOrEqual(SERIES_RULES.winsNeeded);
        expect(draws).toBeLessThanOrEqual(SERIES_RULES.maxDrawnGames);
        if (outcome && 'winner' in outcome) {
          expect(wins[outcome.winner]).toBe(SERIES_RULES.winsNeeded);
        } else {
          // A drawn match: the drawn-game cap was reached, whatever the score.
          expect(draws).toBe(SERIES_RULES.maxDrawnGames);
        }
        // The match was not over one game earlier.
        expect(seriesOutcome({ ...series, games: series.games.slice(0, -1) })).toBeNull();
      }),
    );
  });
});
