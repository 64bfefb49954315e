import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { concedeSeries, recordGame, startSeries, type DecidedOutcome, type Seat, type SeriesState } from '../games/index.ts';
import { deciderFirstSeat, deciderResult, knockoutMatchOutcome } from './knockout-match.ts';
import { TOURNAMENT_GAMES } from './schemas.ts';

const win = (winner: Seat): DecidedOutcome => ({ winner, reason: 'checkmate' });
const draw: DecidedOutcome = { draw: true, reason: 'stalemate' };

function played(games: DecidedOutcome[], firstSeat: Seat = 0): SeriesState {
  let series = startSeries(firstSeat);
  for (const game of games) {
    const result = recordGame(series, game);
    if (!result.ok) throw new Error(result.error);
    series = result.series;
  }
  return series;
}

describe('knockoutMatchOutcome', () => {
  it('best of 1: the first game decides; a drawn one draws the match (a decider follows)', () => {
    expect(knockoutMatchOutcome('best-of-1', played([]))).toBeNull();
    expect(knockoutMatchOutcome('best-of-1', played([win(1)]))).toEqual({ winner: 1, reason: 'games-won' });
    expect(knockoutMatchOutcome('best-of-1', played([draw]))).toEqual({ draw: true, reason: 'drawn-game-cap' });
    const conceded = concedeSeries(startSeries(), 0, 'forfeit');
    expect(conceded.ok && knockoutMatchOutcome('best-of-1', conceded.series)).toEqual({ winner: 1, reason: 'forfeit' });
  });

  it('best of 3: the challenges’ series', () => {
    expect(knockoutMatchOutcome('best-of-3', played([win(0)]))).toBeNull();
    expect(knockoutMatchOutcome('best-of-3', played([win(0), win(1), win(1)]))).toEqual({ winner: 1, reason: 'games-won' });
    expect(knockoutMatchOutcome('best-of-3', played([draw, draw, draw]))).toEqual({ draw: true, reason: 'drawn-game-cap' });
  });
});

describe('the deciding game', () => {
  it('swaps the first move of game 1', () => {
    expect(deciderFirstSeat(0)).toBe(1);
    expect(deciderFirstSeat(1)).toBe(0);
  });

  it('goes to its winner; drawn, to the second mover in a turn-based game; replayed in rock-paper-scissors', () => {
    expect(deciderResult('chess', 1, win(1))).toEqual({ winner: 1, byDrawOdds: false });
    expect(deciderResult('chess', 1, draw)).toEqual({ winner: 0, byDrawOdds: true });
    expect(deciderResult('tic-tac-toe', 0, { draw: true, reason: 'board-full' })).toEqual({ winner: 1, byDrawOdds: true });
    expect(deciderResult('rock-paper-scissors', 0, { draw: true, reason: 'same-throw' })).toEqual({ replay: true });
  });

  it('always sends someone through, except a replayed throw', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TOURNAMENT_GAMES),
        fc.constantFrom<Seat>(0, 1),
        fc.constantFrom(win(0), win(1), draw),
        (game, first, outcome) => {
          const result = deciderResult(game, first, outcome);
          if ('replay' in result) expect(game === 'rock-paper-scissors' && 'draw' in outcome).toBe(true);
          else expect(result.winner).toBe('winner' in outcome ? outcome.winner : first === 0 ? 1 : 0);
        },
      ),
    );
  });
});
