// Pure helpers for the checkers board: square positions, a view's legal paths, and the tap-by-tap
// entry of a multi-jump.
import { checkersNotation, checkersPositionOf, generateMoves, type CheckersColor, type CheckersPiece } from '@versus/domain/games/checkers';

/** Row (0 = black's back row, the top) and column of a 0-based square. */
export function cellOf(square: number): { row: number; col: number } {
  const row = square >> 2;
  return { row, col: 2 * (square & 3) + (row % 2 === 0 ? 1 : 0) };
}

/** The 0-based square at a row and column, or -1 for a light square. */
export function squareAt(row: number, col: number): number {
  if (row < 0 || row > 7 || col < 0 || col > 7 || (row + col) % 2 === 0) return -1;
  return row * 4 + (col >> 1);
}

/** The 64 cells from the top-left of the screen: the square number or -1 (light). Flipped: white's side on top. */
export function screenCells(flipped: boolean): number[] {
  const cells: number[] = [];
  for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) cells.push(flipped ? squareAt(7 - r, 7 - c) : squareAt(r, c));
  return cells;
}

/** Every legal path (0-based squares) for `color` in this board (a premove looks as if it were its turn). */
export function legalPaths(board: readonly CheckersPiece[], color: CheckersColor): number[][] {
  return generateMoves(checkersPositionOf(board, color));
}

export const pieceColor = (piece: CheckersPiece): CheckersColor | null =>
  piece === 'b' || piece === 'B' ? 'black' : piece === 'w' || piece === 'W' ? 'white' : null;

const startsWith = (path: readonly number[], prefix: readonly number[]) => prefix.every((sq, i) => path[i] === sq);

/** The squares the path being entered may continue to. */
export function nextSteps(paths: readonly number[][], partial: readonly number[]): number[] {
  const steps = new Set<number>();
  for (const path of paths) if (path.length > partial.length && startsWith(path, partial)) steps.add(path[partial.length]!);
  return [...steps];
}

/** Null while a prefix; a finished chain is never the start of a longer one, as it stops only with no jump left. */
export function completedPath(paths: readonly number[][], partial: readonly number[]): number[] | null {
  return paths.find((path) => path.length === partial.length && startsWith(path, partial)) ?? null;
}

/** Whether a path is one of the legal ones: the notation the server is sent. */
export function notationIfLegal(paths: readonly number[][], path: readonly number[]): string | null {
  const found = paths.find((p) => p.length === path.length && startsWith(p, path));
  return found ? checkersNotation(found) : null;
}

const PIECE_NAMES: Record<Exclude<CheckersPiece, null>, string> = { b: 'black man', B: 'black king', w: 'white man', W: 'white king' };

/** "Square 11, black man" or "Square 15, empty". */
export function checkersSquareLabel(square: number, piece: CheckersPiece): string {
  return `Square ${square + 1}, ${piece ? PIECE_NAMES[piece] : 'empty'}`;
}
