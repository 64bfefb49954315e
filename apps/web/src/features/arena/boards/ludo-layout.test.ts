import { describe, expect, it } from 'vitest';
import { LUDO_RULES } from '@versus/domain/games/ludo';
import { canMoveToken, HOME_COLUMNS, TRACK, tokenCell, tokenLabel } from './ludo-layout.ts';

const key = (c: { row: number; col: number }) => `${c.row},${c.col}`;
// Next to each other; the track turns its four inner corners diagonally, as on a real board.
const adjacent = (a: { row: number; col: number }, b: { row: number; col: number }) =>
  Math.max(Math.abs(a.row - b.row), Math.abs(a.col - b.col)) === 1;

describe('ludo board layout', () => {
  it('draws 52 distinct track squares, each next to the one before, in a loop', () => {
    expect(TRACK).toHaveLength(LUDO_RULES.trackSquares);
    expect(new Set(TRACK.map(key)).size).toBe(52);
    TRACK.forEach((cell, i) => {
      expect(adjacent(cell, TRACK[(i + 1) % 52]!), `square ${i} to ${(i + 1) % 52}`).toBe(true);
      expect(cell.row >= 0 && cell.row < 15 && cell.col >= 0 && cell.col < 15).toBe(true);
      // Never inside a base or the home triangle.
      expect(cell.row >= 6 && cell.row <= 8 && cell.col >= 6 && cell.col <= 8).toBe(false);
    });
  });

  it('starts each colour beside its base and leads into its own home column', () => {
    expect(TRACK[LUDO_RULES.startSquares[0]]).toEqual({ row: 6, col: 1 });
    expect(TRACK[LUDO_RULES.startSquares[1]]).toEqual({ row: 8, col: 13 });
    for (const seat of [0, 1] as const) {
      const last = tokenCell(seat, 0, LUDO_RULES.lastTrack);
      const first = tokenCell(seat, 0, LUDO_RULES.lastTrack + 1);
      expect(adjacent(last, first)).toBe(true);
      expect(HOME_COLUMNS[seat].every((c) => !TRACK.some((t) => key(t) === key(c)))).toBe(true);
    }
  });

  it('knows which tokens may move and says where each is', () => {
    expect(canMoveToken(-1, 6)).toBe(true);
    expect(canMoveToken(-1, 5)).toBe(false);
    expect(canMoveToken(50, 6)).toBe(true);
    expect(canMoveToken(52, 5)).toBe(false);
    expect(canMoveToken(56, 1)).toBe(false);
    expect(tokenLabel(0, 1, -1)).toBe('Red token 2, in base');
    expect(tokenLabel(1, 0, 12)).toBe('Yellow token 1, 12 squares along');
    expect(tokenLabel(0, 3, 56)).toBe('Red token 4, home');
    expect(tokenLabel(0, 0, 53)).toBe('Red token 1, in the home column, 3 from home');
  });
});
