import { describe, expect, it } from 'vitest';
import { checkers, checkersFromPosition } from '@versus/domain/games/checkers';
import {
  cellOf,
  checkersSquareLabel,
  completedPath,
  legalPaths,
  nextSteps,
  notationIfLegal,
  screenCells,
  squareAt,
} from './checkers-geometry.ts';

describe('checkers board geometry', () => {
  it('places square 1 top row right of the corner and square 32 bottom-left of it', () => {
    expect(cellOf(0)).toEqual({ row: 0, col: 1 });
    expect(cellOf(4)).toEqual({ row: 1, col: 0 });
    expect(cellOf(31)).toEqual({ row: 7, col: 6 });
    for (let sq = 0; sq < 32; sq++) {
      const { row, col } = cellOf(sq);
      expect(squareAt(row, col)).toBe(sq);
    }
    expect(squareAt(0, 0)).toBe(-1);
  });

  it('lays the 32 dark squares out for both orientations', () => {
    for (const flipped of [false, true]) {
      const cells = screenCells(flipped);
      expect(cells).toHaveLength(64);
      expect(cells.filter((c) => c >= 0).sort((a, b) => a - b)).toEqual(Array.from({ length: 32 }, (_, i) => i));
    }
    expect(screenCells(false)[1]).toBe(0);
    expect(screenCells(true)[62]).toBe(0);
  });

  it("finds the rules' legal moves from a view's board", () => {
    const view = checkers.viewFor(checkers.setup({ seed: 's' }), 0);
    const paths = legalPaths(view.board, 'black');
    expect(paths.map((p) => notationIfLegal(paths, p)).sort()).toEqual([...view.legal].sort());
    expect(paths).toHaveLength(7);
    // A premove for white looks as if it were white's turn.
    expect(legalPaths(view.board, 'white')).toHaveLength(7);
  });

  it('enters a multi-jump one landing square at a time', () => {
    // Black man on 1 can jump 6 then 15: 1x10x19.
    const state = checkersFromPosition({ black: [1], white: [6, 15, 30] });
    const board = checkers.viewFor(state, 0).board;
    const paths = legalPaths(board, 'black');
    expect(paths.map((p) => p.map((s) => s + 1))).toEqual([[1, 10, 19]]);
    expect(nextSteps(paths, [0])).toEqual([9]);
    expect(completedPath(paths, [0])).toBeNull();
    expect(completedPath(paths, [0, 9])).toBeNull();
    expect(nextSteps(paths, [0, 9])).toEqual([18]);
    expect(completedPath(paths, [0, 9, 18])).toEqual([0, 9, 18]);
    expect(notationIfLegal(paths, [0, 9, 18])).toBe('1x10x19');
    expect(notationIfLegal(paths, [0, 9])).toBeNull();
  });

  it('labels squares by their number and piece', () => {
    expect(checkersSquareLabel(10, 'b')).toBe('Square 11, black man');
    expect(checkersSquareLabel(14, null)).toBe('Square 15, empty');
    expect(checkersSquareLabel(0, 'W')).toBe('Square 1, white king');
  });
});
