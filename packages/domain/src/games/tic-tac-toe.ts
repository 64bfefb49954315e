// Tic-tac-toe: cells 0–8 row by row from the top left; the first seat plays X.
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

export type TicTacToeCell = Seat | null;

export interface TicTacToeState {
  cells: TicTacToeCell[];
  /** The seat playing X (moves first). */
  x: Seat;
  turn: Seat;
  moves: number[];
  end: Outcome;
}

export interface TicTacToeView {
  cells: TicTacToeCell[];
  x: Seat;
  toMove: Seat[];
  moves: number[];
  legal: number[];
  /** The winning line, when there is one. */
  line: number[] | null;
  outcome: Outcome;
}

export const TIC_TAC_TOE_LINES: readonly (readonly [number, number, number])[] = [
  [0, 1, 2],
  [3, 4, 5],
  [6, 7, 8],
  [0, 3, 6],
  [1, 4, 7],
  [2, 5, 8],
  [0, 4, 8],
  [2, 4, 6],
];

/** A cell number, or `{ cell }`. */
export const ticTacToeMoveInput = z.union([
  z.number().int().min(0).max(8),
  z.object({ cell: z.number().int().min(0).max(8) }).transform((m) => m.cell),
]);

/** `X b2`: columns a–c from the left, rows 1–3 from the top. */
export function ticTacToeNotation(mark: 'X' | 'O', cell: number): string {
  return `${mark} ${'abc'[cell % 3]}${Math.floor(cell / 3) + 1}`;
}

function winningLine(cells: readonly TicTacToeCell[]): readonly number[] | null {
  for (const line of TIC_TAC_TOE_LINES) {
    const [a, b, c] = line;
    const mark = cells[a];
    if (mark !== null && mark !== undefined && cells[b] === mark && cells[c] === mark) return line;
  }
  return null;
}

function judge(cells: readonly TicTacToeCell[]): Outcome {
  const line = winningLine(cells);
  if (line) return { winner: cells[line[0]!] as Seat, reason: 'three-in-a-row' };
  if (cells.every((cell) => cell !== null)) return { draw: true, reason: 'board-full' };
  return null;
}

function toMove(state: TicTacToeState): Seat[] {
  return state.end ? [] : [state.turn];
}

function legal(state: TicTacToeState, seat: Seat): number[] {
  if (state.end || state.turn !== seat) return [];
  const free: number[] = [];
  state.cells.forEach((cell, i) => {
    if (cell === null) free.push(i);
  });
  return free;
}

export const ticTacToe: GameRules<TicTacToeState, number, TicTacToeView> = {
  id: 'tic-tac-toe',
  name: 'Tic-Tac-Toe',

  setup({ firstSeat = 0 }) {
    return { cells: Array<TicTacToeCell>(9).fill(null), x: firstSeat, turn: firstSeat, moves: [], end: null };
  },

  toMove,

  legalMoves: legal,

  applyMove(state, seat, input): MoveResult<TicTacToeState, number> {
    const refused = turnError(state.end, toMove(state), seat);
    if (refused) return refused;
    const parsed = ticTacToeMoveInput.safeParse(input);
    if (!parsed.success) return rejectMove('invalid_move', MOVE_ERRORS.invalidMove);
    const cell = parsed.data;
    const mark = seat === state.x ? 'X' : 'O';
    if (state.cells[cell] !== null) return rejectMove('illegal_move', MOVE_ERRORS.illegalMove(ticTacToeNotation(mark, cell)));
    const cells = state.cells.slice();
    cells[cell] = seat;
    return {
      ok: true,
      state: { cells, x: state.x, turn: otherSeat(seat), moves: [...state.moves, cell], end: judge(cells) },
      move: cell,
      notation: ticTacToeNotation(mark, cell),
    };
  },

  outcome: (state) => state.end,

  timeoutOutcome: (_state, flagged) => ({ winner: otherSeat(flagged), reason: 'timeout' }),

  viewFor(state, viewer: Viewer) {
    const line = winningLine(state.cells);
    return {
      cells: state.cells.slice(),
      x: state.x,
      toMove: toMove(state),
      moves: state.moves.slice(),
      legal: viewer === 'spectator' ? [] : legal(state, viewer),
      line: line ? [...line] : null,
      outcome: state.end,
    };
  },
};
