import { describe, expect, it } from 'vitest';
import { CHESS_START_FEN, chess, chessFromFen } from '@versus/domain/games/chess';
import {
  kingSquare,
  movesByOrigin,
  piecesOf,
  premoveTargets,
  resolveChessMove,
  screenSquares,
  sideToMove,
  squareLabel,
} from './chess-geometry.ts';

describe('chess board geometry', () => {
  it('lists squares from a8 for white and from h1 when flipped for black', () => {
    const white = screenSquares(false);
    expect(white.slice(0, 2)).toEqual(['a8', 'b8']);
    expect(white[63]).toBe('h1');
    const black = screenSquares(true);
    expect(black.slice(0, 2)).toEqual(['h1', 'g1']);
    expect(black[63]).toBe('a8');
    expect(new Set(black).size).toBe(64);
  });

  it('reads the pieces of a FEN and labels squares for screen readers', () => {
    const pieces = piecesOf(CHESS_START_FEN);
    expect(pieces.size).toBe(32);
    expect(squareLabel('g1', pieces.get('g1') ?? null)).toBe('g1, white knight');
    expect(squareLabel('e8', pieces.get('e8') ?? null)).toBe('e8, black king');
    expect(squareLabel('e4', pieces.get('e4') ?? null)).toBe('e4, empty');
    expect(kingSquare(pieces, 'w')).toBe('e1');
    expect(sideToMove(CHESS_START_FEN)).toBe('w');
  });

  it('groups the legal moves by origin, with promotion letters', () => {
    const state = chessFromFen('8/4P3/8/8/8/8/k7/4K3 w - - 0 1');
    const byFrom = movesByOrigin(chess.legalMoves(state, 0));
    expect(byFrom.get('e7')?.get('e8')?.sort()).toEqual(['b', 'n', 'q', 'r']);
    expect(byFrom.get('e1')?.get('d1')).toEqual([]);
    expect(byFrom.has('a2')).toBe(false);
  });

  it('resolves a from/to pair to the legal move, a premoved promotion to a queen', () => {
    const legal = ['e7e8q', 'e7e8r', 'e7e8b', 'e7e8n', 'e1d1'];
    expect(resolveChessMove({ from: 'e1', to: 'd1' }, legal)).toBe('e1d1');
    expect(resolveChessMove({ from: 'e7', to: 'e8' }, legal)).toBe('e7e8q');
    expect(resolveChessMove({ from: 'e7', to: 'e8', promotion: 'n' }, legal)).toBe('e7e8n');
    expect(resolveChessMove({ from: 'e1', to: 'e2' }, legal)).toBeNull();
  });

  it('offers premove targets by how the piece moves, never onto its own pieces', () => {
    const start = piecesOf(CHESS_START_FEN);
    expect(premoveTargets(start, 'e7').sort()).toEqual(['d6', 'e5', 'e6', 'f6']);
    expect(premoveTargets(start, 'g8').sort()).toEqual(['f6', 'h6']);
    // A bishop's rays ignore blockers (the position will change), but stop at nothing of its own colour.
    const bishop = premoveTargets(start, 'f8');
    expect(bishop).toContain('b4');
    expect(bishop).toContain('a3');
    expect(bishop).not.toContain('e7');
    expect(premoveTargets(start, 'e4')).toEqual([]);
    // The king may premove castling from home.
    const open = piecesOf('r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1');
    expect(premoveTargets(open, 'e8').sort()).toEqual(['c8', 'd7', 'd8', 'e7', 'f7', 'f8', 'g8']);
  });
});
