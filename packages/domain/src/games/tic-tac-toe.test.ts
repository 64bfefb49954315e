import { describe, expect, it } from 'vitest';
import { ticTacToe, type TicTacToeState } from './tic-tac-toe.ts';

function play(cells: number[], firstSeat: 0 | 1 = 0): TicTacToeState {
  let state = ticTacToe.setup({ seed: 's', firstSeat });
  for (const cell of cells) {
    const [seat] = ticTacToe.toMove(state);
    if (seat === undefined) throw new Error('game over');
    const result = ticTacToe.applyMove(state, seat, cell);
    if (!result.ok) throw new Error(result.error);
    state = result.state;
  }
  return state;
}

describe('tic-tac-toe', () => {
  it('enumerates every reachable game through the interface: 255,168 games, 958 terminal positions', () => {
    let games = 0;
    const wins = [0, 0];
    let draws = 0;
    let stillToMove = 0;
    const terminal = new Set<string>();
    const walk = (state: TicTacToeState) => {
      const outcome = ticTacToe.outcome(state);
      if (outcome) {
        games += 1;
        terminal.add(state.cells.map((c) => (c === null ? '.' : c)).join(''));
        if ('winner' in outcome) wins[outcome.winner]! += 1;
        else draws += 1;
        if (ticTacToe.toMove(state).length !== 0) stillToMove += 1;
        return;
      }
      const [seat] = ticTacToe.toMove(state);
      for (const cell of ticTacToe.legalMoves(state, seat!)) {
        const result = ticTacToe.applyMove(state, seat!, cell);
        if (!result.ok) throw new Error(result.error);
        walk(result.state);
      }
    };
    walk(ticTacToe.setup({ seed: 's' }));
    expect(games).toBe(255_168);
    expect(terminal.size).toBe(958);
    expect(wins).toEqual([131_184, 77_904]);
    expect(draws).toBe(46_080);
    expect(stillToMove).toBe(0);
  });

  it('the first seat plays X and moves first; seats alternate', () => {
    const state = ticTacToe.setup({ seed: 's', firstSeat: 1 });
    expect(ticTacToe.toMove(state)).toEqual([1]);
    expect(ticTacToe.applyMove(state, 0, 4)).toMatchObject({ ok: false, code: 'not_your_turn' });
    const after = ticTacToe.applyMove(state, 1, { cell: 4 });
    expect(after).toMatchObject({ ok: true, move: 4, notation: 'X b2' });
  });

  it('refuses taken cells, junk and moves after the end, changing nothing', () => {
    const state = play([4]);
    const before = JSON.stringify(state);
    expect(ticTacToe.applyMove(state, 1, 4)).toMatchObject({ ok: false, code: 'illegal_move' });
    for (const junk of [9, -1, 1.5, '4', null, {}, { cell: 'x' }, [4]]) {
      expect(ticTacToe.applyMove(state, 1, junk)).toMatchObject({ ok: false, code: 'invalid_move' });
    }
    expect(JSON.stringify(state)).toBe(before);
    const won = play([0, 3, 1, 4, 2]);
    expect(ticTacToe.outcome(won)).toEqual({ winner: 0, reason: 'three-in-a-row' });
    expect(ticTacToe.applyMove(won, 1, 8)).toMatchObject({ ok: false, code: 'game_over' });
    expect(ticTacToe.viewFor(won, 'spectator').line).toEqual([0, 1, 2]);
  });

  it('a full board without a line is a draw', () => {
    expect(ticTacToe.outcome(play([0, 1, 2, 4, 3, 5, 7, 6, 8]))).toEqual({ draw: true, reason: 'board-full' });
  });
});
