// Pure helpers for the chess board: screen order, screen-reader names, legal moves by origin and
// premove targets.

export const FILES = 'abcdefgh';

export type PieceColor = 'w' | 'b';
export type PieceType = 'p' | 'n' | 'b' | 'r' | 'q' | 'k';
export interface Piece {
  color: PieceColor;
  type: PieceType;
}

const NAMES: Record<PieceType, string> = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };

export const pieceName = (piece: Piece): string => `${piece.color === 'w' ? 'white' : 'black'} ${NAMES[piece.type]}`;

/** "e4, white knight" or "e4, empty". */
export function squareLabel(square: string, piece: Piece | null): string {
  return `${square}, ${piece ? pieceName(piece) : 'empty'}`;
}

/** The 64 squares from the top-left of the screen, row by row: a8…h1 for white, h1…a8 when flipped. */
export function screenSquares(flipped: boolean): string[] {
  const squares: string[] = [];
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const file = flipped ? 7 - col : col;
      const rank = flipped ? row + 1 : 8 - row;
      squares.push(`${FILES[file]}${rank}`);
    }
  }
  return squares;
}

/** The pieces of a FEN's board, by square. */
export function piecesOf(fen: string): Map<string, Piece> {
  const pieces = new Map<string, Piece>();
  const rows = (fen.split(' ')[0] ?? '').split('/');
  rows.forEach((row, r) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) {
        file += Number(ch);
        continue;
      }
      const lower = ch.toLowerCase();
      if ('pnbrqk'.includes(lower)) pieces.set(`${FILES[file]}${8 - r}`, { color: ch === lower ? 'b' : 'w', type: lower as PieceType });
      file += 1;
    }
  });
  return pieces;
}

export const sideToMove = (fen: string): PieceColor => (fen.split(' ')[1] === 'b' ? 'b' : 'w');

/** Legal UCI moves grouped by origin square, then by target (with the promotion letters). */
export function movesByOrigin(legalUci: readonly string[]): Map<string, Map<string, string[]>> {
  const byFrom = new Map<string, Map<string, string[]>>();
  for (const uci of legalUci) {
    const from = uci.slice(0, 2);
    const to = uci.slice(2, 4);
    let targets = byFrom.get(from);
    if (!targets) byFrom.set(from, (targets = new Map<string, string[]>()));
    const promotions = targets.get(to) ?? [];
    if (uci.length > 4) promotions.push(uci[4]!);
    targets.set(to, promotions);
  }
  return byFrom;
}

/** The legal move a from/to pair names: the queen for a premoved promotion, or null. */
export function resolveChessMove(move: { from: string; to: string; promotion?: string }, legalUci: readonly string[]): string | null {
  const base = `${move.from}${move.to}`;
  const candidates = legalUci.filter((m) => m.startsWith(base));
  if (candidates.length === 0) return null;
  if (candidates.length === 1) return candidates[0]!;
  return candidates.find((m) => m === `${base}${move.promotion ?? 'q'}`) ?? null;
}

const coords = (square: string): [number, number] => [FILES.indexOf(square[0]!), Number(square[1]) - 1];
const name = (file: number, rank: number): string | null =>
  file >= 0 && file < 8 && rank >= 0 && rank < 8 ? `${FILES[file]}${rank + 1}` : null;

/** By the piece's movement alone (lichess-style), since the position will have changed when the move is played. */
export function premoveTargets(pieces: ReadonlyMap<string, Piece>, from: string): string[] {
  const piece = pieces.get(from);
  if (!piece) return [];
  const [f, r] = coords(from);
  const out = new Set<string>();
  const add = (file: number, rank: number) => {
    const sq = name(file, rank);
    if (sq && pieces.get(sq)?.color !== piece.color) out.add(sq);
  };
  const ray = (df: number, dr: number) => {
    for (let i = 1; i < 8; i++) add(f + df * i, r + dr * i);
  };
  switch (piece.type) {
    case 'p': {
      const dir = piece.color === 'w' ? 1 : -1;
      add(f, r + dir);
      if ((piece.color === 'w' && r === 1) || (piece.color === 'b' && r === 6)) add(f, r + 2 * dir);
      add(f - 1, r + dir);
      add(f + 1, r + dir);
      break;
    }
    case 'n':
      for (const [df, dr] of [
        [1, 2],
        [2, 1],
        [2, -1],
        [1, -2],
        [-1, -2],
        [-2, -1],
        [-2, 1],
        [-1, 2],
      ] as const)
        add(f + df, r + dr);
      break;
    case 'k': {
      for (let df = -1; df <= 1; df++) for (let dr = -1; dr <= 1; dr++) if (df || dr) add(f + df, r + dr);
      const home = piece.color === 'w' ? 0 : 7;
      if (f === 4 && r === home) {
        add(6, home);
        add(2, home);
      }
      break;
    }
    case 'r':
    case 'b':
    case 'q': {
      const straight = piece.type === 'r' || piece.type === 'q';
      const diagonal = piece.type === 'b' || piece.type === 'q';
      if (straight)
        for (const [df, dr] of [
          [1, 0],
          [-1, 0],
          [0, 1],
          [0, -1],
        ] as const)
          ray(df, dr);
      if (diagonal)
        for (const [df, dr] of [
          [1, 1],
          [1, -1],
          [-1, 1],
          [-1, -1],
        ] as const)
          ray(df, dr);
    }
  }
  out.delete(from);
  return [...out];
}

/** The king of `color`'s square, for the check highlight. */
export function kingSquare(pieces: ReadonlyMap<string, Piece>, color: PieceColor): string | null {
  for (const [square, piece] of pieces) if (piece.type === 'k' && piece.color === color) return square;
  return null;
}
