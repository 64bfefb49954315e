import { describe, expect, it } from 'vitest';
import type { Replay } from './arena.ts';
import type { Seat } from './games/game.ts';
import { replayPositions } from './replay.ts';

type Game = Pick<Replay, 'match' | 'games'>;

function replayOf(gameType: string, games: { seed: string | null; firstSeat?: Seat; moves: [Seat, unknown][] }[]): Game {
  return {
    match: { gameType } as Replay['match'],
    games: games.map((game, index) => ({
      index,
      firstSeat: game.firstSeat ?? 0,
      commitment: 'c',
      seed: game.seed,
      outcome: null,
      moves: game.moves.map(([seat, move], seq) => ({
        seq,
        gameIndex: index,
        seat,
        notation: String(move),
        at: '',
        remainingMs: [0, 0],
        move,
        elapsedMs: 0,
      })),
    })),
  };
}

describe('replayPositions', () => {
  it('rebuilds every position of each game, the start included', () => {
    const [first, second] = replayPositions(
      replayOf('tic-tac-toe', [
        {
          seed: 's1',
          moves: [
            [0, 4],
            [1, 0],
            [0, 2],
            [1, 8],
            [0, 6],
          ],
        },
        { seed: 's2', firstSeat: 1, moves: [[1, 0]] },
      ]),
    );
    expect(first!.views).toHaveLength(6);
    expect((first!.views[0] as { cells: unknown[] }).cells.every((c) => c === null)).toBe(true);
    expect((first!.views[5] as { cells: unknown[] }).cells).toEqual([1, null, 0, null, 0, null, 0, null, 1]);
    expect(second!.views).toHaveLength(2);
    expect((second!.views[1] as { cells: unknown[] }).cells[0]).toBe(1);
  });

  it("replays a chess game to its final position (scholar's mate)", () => {
    const [game] = replayPositions(
      replayOf('chess', [
        {
          seed: 's',
          moves: [
            [0, 'e2e4'],
            [1, 'e7e5'],
            [0, 'f1c4'],
            [1, 'b8c6'],
            [0, 'd1h5'],
            [1, 'g8f6'],
            [0, 'h5f7'],
          ],
        },
      ]),
    );
    expect(game!.views).toHaveLength(8);
    expect((game!.views[7] as { fen: string }).fen.startsWith('r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b')).toBe(true);
  });

  it('refuses a game whose stored moves no longer apply, or whose seed is still secret', () => {
    expect(() =>
      replayPositions(
        replayOf('tic-tac-toe', [
          {
            seed: 's',
            moves: [
              [0, 4],
              [1, 4],
            ],
          },
        ]),
      ),
    ).toThrow(/move 1/);
    expect(() => replayPositions(replayOf('tic-tac-toe', [{ seed: null, moves: [] }]))).toThrow(/seed/);
  });

  it('has nothing to replay for an external game', () => {
    expect(replayPositions(replayOf('fifa-24', [{ seed: 's', moves: [] }]))).toEqual([]);
  });
});
