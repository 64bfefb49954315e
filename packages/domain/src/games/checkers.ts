// English draughts, squares 1–32 as in standard notation; capturing is forced but need not be the
// longest. The board is three 32-bit masks (black, white, kings); bit i is square i + 1.
import { z } from 'zod';
import {
  MOVE_ERRORS,
  otherSeat,
  rejectMove,
  turnError,
  type GameRules,
  type MoveResult,
  type Outcome,
  type Seat,
  type Viewer,
} from './game.ts';

export const CHECKERS_RULES = {
  /** Half-moves without a capture or a man moving before the game is drawn. */
  quietPliesForDraw: 80,
  repetitionsForDraw: 3,
} as const;

export type CheckersColor = 'black' | 'white';

export interface CheckersPosition {
  black: number;
  white: number;
  kings: number;
  turn: CheckersColor;
}

export interface CheckersState extends CheckersPosition {
  /** The seat playing black (moves first). */
  blackSeat: Seat;
  /** Half-moves since the last capture or man move. */
  quietPlies: number;
  /** Position keys since the last capture or man move; the current one last. */
  positions: string[];
  /** Moves in notation (`11-15`, `22x15x6`): the canonical, stored form. */
  moves: string[];
  end: Outcome;
}

export type CheckersPiece = 'b' | 'B' | 'w' | 'W' | null;

export interface CheckersView {
  /** Squares 1–32 (index 0 is square 1): b/w men, B/W kings. */
  board: CheckersPiece[];
  blackSeat: Seat;
  turn: Seat;
  quietPlies: number;
  moves: string[];
  lastMove: string | null;
  toMove: Seat[];
  legal: string[];
  outcome: Outcome;
}

// ---- geometry -------------------------------------------------------------------------

/** Neighbour and jump-landing squares (0-based, -1 off the board) per square and direction. */
const STEP = new Int8Array(32 * 4).fill(-1);
const JUMP = new Int8Array(32 * 4).fill(-1);
// Directions: 0 down-left, 1 down-right (black men), 2 up-left, 3 up-right (white men).
const DIRS: ReadonlyArray<readonly [number, number]> = [
  [1, -1],
  [1, 1],
  [-1, -1],
  [-1, 1],
];
const BLACK_MAN_DIRS = [0, 1];
const WHITE_MAN_DIRS = [2, 3];
const KING_DIRS = [0, 1, 2, 3];

function squareAt(row: number, col: number): number {
  if (row < 0 || row > 7 || col < 0 || col > 7 || (row + col) % 2 === 0) return -1;
  return row * 4 + (col >> 1);
}

for (let sq = 0; sq < 32; sq++) {
  const row = sq >> 2;
  const col = 2 * (sq & 3) + (row % 2 === 0 ? 1 : 0);
  DIRS.forEach(([dr, dc], d) => {
    STEP[sq * 4 + d] = squareAt(row + dr, col + dc);
    JUMP[sq * 4 + d] = squareAt(row + 2 * dr, col + 2 * dc);
  });
}

const BLACK_CROWN_ROW = 0xf0000000; // squares 29–32
const WHITE_CROWN_ROW = 0x0000000f; // squares 1–4

const bit = (sq: number) => (1 << sq) >>> 0;
const has = (mask: number, sq: number) => ((mask >>> sq) & 1) === 1;

// ---- move generation ------------------------------------------------------------------

/** A move as the path of 0-based squares it visits, origin first. */
export type CheckersPath = number[];

/** The direction from `from` whose jump lands on `to`, or -1 (not a jump). */
function jumpDirection(from: number, to: number): number {
  for (let d = 0; d < 4; d++) if (JUMP[from * 4 + d] === to) return d;
  return -1;
}

function isCapture(path: readonly number[]): boolean {
  const [a, b] = path;
  if (a === undefined || b === undefined) return false;
  return jumpDirection(a, b) >= 0;
}

/** Every legal move of the side to move (captures only, when any exists). */
export function generateMoves(pos: CheckersPosition): CheckersPath[] {
  const own = pos.turn === 'black' ? pos.black : pos.white;
  const opp = pos.turn === 'black' ? pos.white : pos.black;
  const occupied = (pos.black | pos.white) >>> 0;
  const manDirs = pos.turn === 'black' ? BLACK_MAN_DIRS : WHITE_MAN_DIRS;
  const crownRow = pos.turn === 'black' ? BLACK_CROWN_ROW : WHITE_CROWN_ROW;

  const captures: CheckersPath[] = [];
  const jumpFrom = (sq: number, king: boolean, taken: number, path: number[], empty: number) => {
    let extended = false;
    for (const d of king ? KING_DIRS : manDirs) {
      const over = STEP[sq * 4 + d]!;
      const land = JUMP[sq * 4 + d]!;
      if (land < 0 || !has(opp, over) || has(taken, over) || !has(empty, land)) continue;
      extended = true;
      const next = [...path, land];
      if (!king && has(crownRow, land)) captures.push(next);
      else jumpFrom(land, king, (taken | bit(over)) >>> 0, next, empty);
    }
    if (!extended && path.length > 1) captures.push(path);
  };
  for (let sq = 0; sq < 32; sq++) {
    if (!has(own, sq)) continue;
    // The moving piece has left its square, so a chain may pass back through it.
    jumpFrom(sq, has(pos.kings, sq), 0, [sq], ~(occupied & ~bit(sq)) >>> 0);
  }
  if (captures.length > 0) return captures;

  const quiet: CheckersPath[] = [];
  for (let sq = 0; sq < 32; sq++) {
    if (!has(own, sq)) continue;
    for (const d of has(pos.kings, sq) ? KING_DIRS : manDirs) {
      const to = STEP[sq * 4 + d]!;
      if (to >= 0 && !has(occupied, to)) quiet.push([sq, to]);
    }
  }
  return quiet;
}

/** The position after a legal move. */
export function makeMove(pos: CheckersPosition, path: readonly number[]): CheckersPosition {
  const from = path[0]!;
  const to = path[path.length - 1]!;
  const blackMoves = pos.turn === 'black';
  let own = blackMoves ? pos.black : pos.white;
  let opp = blackMoves ? pos.white : pos.black;
  let kings = pos.kings;
  const wasKing = has(kings, from);
  own = (own & ~bit(from)) >>> 0;
  kings = (kings & ~bit(from)) >>> 0;
  if (isCapture(path)) {
    for (let i = 0; i + 1 < path.length; i++) {
      const a = path[i]!;
      const over = STEP[a * 4 + jumpDirection(a, path[i + 1]!)]!;
      opp = (opp & ~bit(over)) >>> 0;
      kings = (kings & ~bit(over)) >>> 0;
    }
  }
  own = (own | bit(to)) >>> 0;
  if (wasKing || has(blackMoves ? BLACK_CROWN_ROW : WHITE_CROWN_ROW, to)) kings = (kings | bit(to)) >>> 0;
  return {
    black: blackMoves ? own : opp,
    white: blackMoves ? opp : own,
    kings,
    turn: blackMoves ? 'white' : 'black',
  };
}

/** The position a view's board describes, so a client that follows events can work out legal moves. */
export function checkersPositionOf(board: readonly CheckersPiece[], turn: CheckersColor): CheckersPosition {
  let black = 0;
  let white = 0;
  let kings = 0;
  board.forEach((piece, sq) => {
    if (!piece) return;
    if (piece === 'b' || piece === 'B') black = (black | bit(sq)) >>> 0;
    else white = (white | bit(sq)) >>> 0;
    if (piece === 'B' || piece === 'W') kings = (kings | bit(sq)) >>> 0;
  });
  return { black, white, kings, turn };
}

/** Move-path enumeration ("perft"): the number of move sequences of `depth` plies. */
export function checkersPerft(pos: CheckersPosition, depth: number): number {
  const moves = generateMoves(pos);
  if (depth <= 1) return depth === 1 ? moves.length : 1;
  let nodes = 0;
  for (const move of moves) nodes += checkersPerft(makeMove(pos, move), depth - 1);
  return nodes;
}

// ---- notation -------------------------------------------------------------------------

export function checkersNotation(path: readonly number[]): string {
  return path.map((sq) => sq + 1).join(isCapture(path) ? 'x' : '-');
}

/** `11-15`, `22x15x6`, a capture given by its ends only (`22x6`) when unambiguous, or `{ path }` (1–32). */
export const checkersMoveInput = z.union([
  z
    .string()
    .trim()
    .regex(/^\d{1,2}([-x]\d{1,2}){1,12}$/i)
    .transform((s) => s.split(/[-x]/i).map(Number)),
  z.object({ path: z.array(z.number().int()).min(2).max(13) }).transform((m) => m.path),
]);

// ---- the game -------------------------------------------------------------------------

export const CHECKERS_START: CheckersPosition = { black: 0x00000fff, white: 0xfff00000, kings: 0, turn: 'black' };

function positionKey(pos: CheckersPosition): string {
  return `${pos.black}:${pos.white}:${pos.kings}:${pos.turn[0]}`;
}

function seatOf(state: Pick<CheckersState, 'blackSeat'>, color: CheckersColor): Seat {
  return color === 'black' ? state.blackSeat : otherSeat(state.blackSeat);
}

function judge(state: Omit<CheckersState, 'end'>): Outcome {
  if (generateMoves(state).length === 0) return { winner: otherSeat(seatOf(state, state.turn)), reason: 'no-moves-left' };
  const current = state.positions[state.positions.length - 1];
  if (state.positions.filter((p) => p === current).length >= CHECKERS_RULES.repetitionsForDraw) {
    return { draw: true, reason: 'threefold-repetition' };
  }
  if (state.quietPlies >= CHECKERS_RULES.quietPliesForDraw) return { draw: true, reason: 'forty-move-rule' };
  return null;
}

/** A game from any position, given with square numbers 1–32 (tests, puzzles). */
export function checkersFromPosition(
  setup: { black: number[]; white: number[]; kings?: number[]; turn?: CheckersColor },
  blackSeat: Seat = 0,
): CheckersState {
  const mask = (squares: number[]) => squares.reduce((m, s) => (m | bit(s - 1)) >>> 0, 0);
  const pos: CheckersPosition = {
    black: mask(setup.black),
    white: mask(setup.white),
    kings: mask(setup.kings ?? []),
    turn: setup.turn ?? 'black',
  };
  const base = { ...pos, blackSeat, quietPlies: 0, positions: [positionKey(pos)], moves: [] };
  return { ...base, end: judge(base) };
}

function toMove(state: CheckersState): Seat[] {
  return state.end ? [] : [seatOf(state, state.turn)];
}

function legal(state: CheckersState, seat: Seat): string[] {
  return toMove(state).includes(seat) ? generateMoves(state).map(checkersNotation) : [];
}

function pieceAt(state: CheckersPosition, sq: number): CheckersPiece {
  const king = has(state.kings, sq);
  if (has(state.black, sq)) return king ? 'B' : 'b';
  if (has(state.white, sq)) return king ? 'W' : 'w';
  return null;
}

export const checkers: GameRules<CheckersState, string, CheckersView> = {
  id: 'checkers',
  name: 'Checkers',

  setup: ({ firstSeat = 0 }) => {
    const base = { ...CHECKERS_START, blackSeat: firstSeat, quietPlies: 0, positions: [positionKey(CHECKERS_START)], moves: [] };
    return { ...base, end: null };
  },

  toMove,

  legalMoves: legal,

  applyMove(state, seat, input): MoveResult<CheckersState, string> {
    const refused = turnError(state.end, toMove(state), seat);
    if (refused) return refused;
    const parsed = checkersMoveInput.safeParse(input);
    if (!parsed.success || parsed.data.some((s) => s < 1 || s > 32)) return rejectMove('invalid_move', MOVE_ERRORS.invalidMove);
    const wanted = parsed.data.map((s) => s - 1);
    const text = typeof input === 'string' ? input.trim() : wanted.map((s) => s + 1).join('-');
    const moves = generateMoves(state);
    const same = (path: number[]) => path.length === wanted.length && path.every((sq, i) => sq === wanted[i]);
    let path = moves.find(same);
    if (!path && wanted.length === 2) {
      const ends = moves.filter((p) => p[0] === wanted[0] && p[p.length - 1] === wanted[1]);
      if (ends.length > 1) return rejectMove('illegal_move', MOVE_ERRORS.ambiguousMove(text));
      path = ends[0];
    }
    if (!path) return rejectMove('illegal_move', MOVE_ERRORS.illegalMove(text));

    const next = makeMove(state, path);
    const manMoved = !has(state.kings, path[0]!);
    const reset = manMoved || isCapture(path);
    const key = positionKey(next);
    const notation = checkersNotation(path);
    // Written out: in V8 a spread followed by new keys costs microseconds, and this is every move's path.
    const after: CheckersState = {
      black: next.black,
      white: next.white,
      kings: next.kings,
      turn: next.turn,
      blackSeat: state.blackSeat,
      quietPlies: reset ? 0 : state.quietPlies + 1,
      positions: reset ? [key] : [...state.positions, key],
      moves: [...state.moves, notation],
      end: null,
    };
    after.end = judge(after);
    return { ok: true, state: after, move: notation, notation };
  },

  outcome: (state) => state.end,

  timeoutOutcome: (_state, flagged) => ({ winner: otherSeat(flagged), reason: 'timeout' }),

  viewFor(state, viewer: Viewer) {
    return {
      board: Array.from({ length: 32 }, (_, sq) => pieceAt(state, sq)),
      blackSeat: state.blackSeat,
      turn: seatOf(state, state.turn),
      quietPlies: state.quietPlies,
      moves: state.moves.slice(),
      lastMove: state.moves[state.moves.length - 1] ?? null,
      toMove: toMove(state),
      legal: viewer === 'spectator' ? [] : legal(state, viewer),
      outcome: state.end,
    };
  },
};
