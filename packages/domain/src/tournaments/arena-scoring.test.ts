import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  arenaNoShow,
  arenaPayoutStandings,
  arenaPerformance,
  arenaScore,
  arenaStandings,
  scoreGame,
  type GameResult,
} from './arena-scoring.ts';

const aResult = fc.constantFrom<GameResult>('win', 'draw', 'loss');
const BASE = { win: 2, draw: 1, loss: 0 } as const;

describe('scoreGame', () => {
  it('scores 2 a win, 1 a draw, 0 a loss; double once two wins in a row started a streak', () => {
    expect(scoreGame(0, 'win')).toEqual({ points: 2, winStreak: 1, onFire: false });
    expect(scoreGame(1, 'win')).toEqual({ points: 2, winStreak: 2, onFire: true });
    expect(scoreGame(2, 'win')).toEqual({ points: 4, winStreak: 3, onFire: true });
    expect(scoreGame(2, 'draw')).toEqual({ points: 2, winStreak: 0, onFire: false });
    expect(scoreGame(5, 'loss')).toEqual({ points: 0, winStreak: 0, onFire: false });
    expect(scoreGame(1, 'draw')).toEqual({ points: 1, winStreak: 0, onFire: false });
  });

  it('follows lichess: two wins then a draw is 2 + 2 + 2 = 6', () => {
    expect(arenaScore(['win', 'win', 'draw']).score).toBe(6);
    expect(arenaScore(['win', 'win', 'win', 'win', 'loss', 'win']).score).toBe(2 + 2 + 4 + 4 + 0 + 2);
    expect(arenaScore(['win', 'draw', 'win', 'win', 'win'])).toEqual({ score: 2 + 1 + 2 + 2 + 4, winStreak: 3, onFire: true });
  });

  it('doubles a game exactly when the two games before it were wins', () => {
    fc.assert(
      fc.property(fc.array(aResult, { maxLength: 60 }), (results) => {
        const expected = results.reduce(
          (sum, result, i) => sum + BASE[result] * (i >= 2 && results[i - 1] === 'win' && results[i - 2] === 'win' ? 2 : 1),
          0,
        );
        expect(arenaScore(results).score).toBe(expected);
        // A score never falls, and a non-win always ends the streak.
        let streak = 0;
        for (const result of results) {
          const game = scoreGame(streak, result);
          expect(game.points).toBeGreaterThanOrEqual(0);
          if (result !== 'win') expect(game.winStreak).toBe(0);
          streak = game.winStreak;
        }
      }),
    );
  });
});

describe('arenaNoShow', () => {
  it('loses the game for whoever was not ready and pauses them', () => {
    expect(arenaNoShow([true, true])).toBeNull();
    expect(arenaNoShow([true, false])).toEqual({ results: ['win', 'loss'], pause: [false, true] });
    expect(arenaNoShow([false, false])).toEqual({ results: ['loss', 'loss'], pause: [true, true] });
  });
});

describe('standings', () => {
  it('computes performance as lichess does, none before a game', () => {
    expect(arenaPerformance([])).toBeNull();
    expect(
      arenaPerformance([
        { result: 'win', opponentRating: 1500 },
        { result: 'loss', opponentRating: 1700 },
      ]),
    ).toBe(1600);
    expect(
      arenaPerformance([
        { result: 'draw', opponentRating: 1501 },
        { result: 'win', opponentRating: 1500 },
      ]),
    ).toBe(1751);
  });

  it('ranks by score, then performance, then entry rating, then id', () => {
    const win = (opponentRating: number) => ({ result: 'win' as const, opponentRating });
    const standings = arenaStandings([
      { id: 'idle', rating: 2000, games: [] },
      { id: 'weak-wins', rating: 1500, games: [win(1200)] },
      { id: 'strong-wins', rating: 1400, games: [win(1800)] },
      { id: 'b-twin', rating: 1400, games: [win(1800)] },
      { id: 'streak', rating: 1000, games: [win(1000), win(1000), win(1000)] },
      { id: 'loser', rating: 1600, games: [{ result: 'loss', opponentRating: 1500 }] },
    ]);
    expect(standings.map((s) => [s.rank, s.id, s.score])).toEqual([
      [1, 'streak', 8],
      [2, 'b-twin', 2],
      [3, 'strong-wins', 2],
      [4, 'weak-wins', 2],
      [5, 'loser', 0],
      [6, 'idle', 0],
    ]);
    expect(standings[0]).toMatchObject({ onFire: true, games: 3, wins: 3, performance: 1500 });
    expect(arenaPayoutStandings(standings)).toEqual([['streak'], ['b-twin'], ['strong-wins'], ['weak-wins'], ['loser'], ['idle']]);
  });

  it('is a total order that does not depend on the order of the records', () => {
    const record = fc.record({
      id: fc.string({ minLength: 1, maxLength: 3 }),
      rating: fc.integer({ min: 1000, max: 1100 }),
      games: fc.array(fc.record({ result: aResult, opponentRating: fc.integer({ min: 1000, max: 1100 }) }), { maxLength: 4 }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(record, { selector: (r) => r.id, maxLength: 20 }), (records) => {
        const standings = arenaStandings(records);
        expect(arenaStandings([...records].reverse())).toEqual(standings);
        expect(standings.map((s) => s.rank)).toEqual(records.map((_, i) => i + 1));
        for (let i = 1; i < standings.length; i++) expect(standings[i - 1]!.score).toBeGreaterThanOrEqual(standings[i]!.score);
      }),
    );
  });
});
