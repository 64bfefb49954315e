// Chess through chess.js; the state keeps the positions since the last irreversible move so
// threefold repetition survives a reload without a replay. Draws are automatic (no claim).
import { Chess, DEFAULT_POSITION, validateFen, type Square } from 'chess.js';
import { z } from 'zod';
import {
  MOVE_ERRORS,
  otherSeat,
  rejectMove,
  turnError,
  type DecidedOutcome,
  type GameRules,
  type MoveResult,
  type Outcome,
  type Seat,
  type Viewer,
} from './game.ts';

export const CHESS_START_FEN = DEFAULT_POSITION;

export interface ChessState {
  initialFen: string;
  fen: string;
  /** The seat playing white. */
  white: Seat;
  /** Moves in UCI (`e2e4`, `e7e8q`): the canonical, stored form. */
  moves: string[];
  /** The same moves in SAN, for the move list. */
  sans: string[];
  /** Repetition keys (FEN without the clocks) since the last irreversible move; the current one last. */
  positions: string[];
  end: Outcome;
}

export interface ChessView {
  fen: string;
  white: Seat;
  /** The seat whose turn it is on the board (also while the game is over). */
  turn: Seat;
  inCheck: boolean;
  sans: string[];
  moves: string[];
  lastMove: string | null;
  toMove: Seat[];
  /** The viewer's legal moves in UCI, when it is its turn. */
  legal: string[];
  outcome: Outcome;
}

/** UCI (`e2e4`, `e7e8q`), SAN (`Nf3`, `O-O`, `exd8=Q+`), or `{ from, to, promotion? }`. */
export const chessMoveInput = z.union([
  z.string().trim().min(2).max(12),
  z.object({
    from: z.string().regex(/^[a-h][1-8]$/),
    to: z.string().regex(/^[a-h][1-8]$/),
    promotion: z.enum(['q', 'r', 'b', 'n']).optional(),
  }),
]);

const UCI = /^([a-h][1-8])([a-h][1-8])([qrbn])?$/;

function positionKey(fen: string): string {
  return fen.split(' ').slice(0, 4).join(' ');
}

function seatOf(state: Pick<ChessState, 'white'>, color: 'w' | 'b'): Seat {
  return color === 'w' ? state.white : otherSeat(state.white);
}

function sideToMove(fen: string): 'w' | 'b' {
  return fen.split(' ')[1] === 'b' ? 'b' : 'w';
}

function judge(chess: Chess, white: Seat, positions: readonly string[]): Outcome {
  if (chess.isCheckmate()) return { winner: otherSeat(seatOf({ white }, chess.turn())), reason: 'checkmate' };
  if (chess.isStalemate()) return { draw: true, reason: 'stalemate' };
  if (chess.isInsufficientMaterial()) return { draw: true, reason: 'insufficient-material' };
  const current = positions[positions.length - 1];
  if (positions.filter((p) => p === current).length >= 3) return { draw: true, reason: 'threefold-repetition' };
  if (chess.isDrawByFiftyMoves()) return { draw: true, reason: 'fifty-move-rule' };
  return null;
}

/** A game from any legal position (tests, puzzles). Throws on an invalid FEN: setup input is trusted. */
export function chessFromFen(fen: string, white: Seat = 0): ChessState {
  const valid = validateFen(fen);
  if (!valid.ok) throw new Error(`Invalid FEN: ${valid.error ?? fen}`);
  const chess = new Chess(fen);
  const normalised = chess.fen();
  const positions = [positionKey(normalised)];
  return { initialFen: normalised, fen: normalised, white, moves: [], sans: [], positions, end: judge(chess, white, positions) };
}

function toMove(state: ChessState): Seat[] {
  return state.end ? [] : [seatOf(state, sideToMove(state.fen))];
}

function legal(state: ChessState, seat: Seat): string[] {
  if (!toMove(state).includes(seat)) return [];
  return legalUci(new Chess(state.fen));
}

const SAN_TARGET = /([a-h][1-8])(?:=([QRBN]))?[+#]?$/;

/** UCI of a SAN move made from `from` (SAN names the target square, promotion and castling side). */
function sanToUci(from: string, san: string): string {
  if (san.startsWith('O-O')) return `${from}${san.startsWith('O-O-O') ? 'c' : 'g'}${from[1]}`;
  const target = SAN_TARGET.exec(san);
  return `${from}${target?.[1] ?? ''}${target?.[2]?.toLowerCase() ?? ''}`;
}

/** The side to move's moves of one square, in UCI. */
function squareMoves(board: Chess, square: Square): string[] {
  return board.moves({ square }).map((san) => sanToUci(square, san));
}

// chess.js's verbose moves cost a full move generation per move, so this reads the plain SAN lists.
function legalUci(board: Chess): string[] {
  const turn = board.turn();
  const uci: string[] = [];
  for (const row of board.board()) {
    for (const piece of row) if (piece && piece.color === turn) uci.push(...squareMoves(board, piece.square));
  }
  return uci;
}

function normaliseSan(san: string): string {
  return san
    .replace(/[+#?!]+$/, '')
    .replace(/=/g, '')
    .replace(/^0-0-0$/, 'O-O-O')
    .replace(/^0-0$/, 'O-O');
}

type Found = { from: string; to: string; promotion?: string } | string | { error: string };

/** Finds the legal move the input names, without letting chess.js parse it (it accepts null moves). */
function findMove(board: Chess, input: z.infer<typeof chessMoveInput>): Found {
  const uci = UCI.exec(typeof input === 'string' ? input.toLowerCase() : `${input.from}${input.to}${input.promotion ?? ''}`);
  if (uci) {
    const [text, from, to, promotion] = uci as unknown as [string, string, string, string | undefined];
    const candidates = squareMoves(board, from as Square).filter((m) => m.slice(2, 4) === to);
    if (candidates.includes(text)) return promotion ? { from, to, promotion } : { from, to };
    if (!promotion && candidates.length > 0) return { error: MOVE_ERRORS.noPromotion };
    return { error: MOVE_ERRORS.illegalMove(text) };
  }
  if (typeof input !== 'string') return { error: MOVE_ERRORS.invalidMove };
  // SAN is matched against the full list, where chess.js disambiguates (Nbd7) correctly.
  const wanted = normaliseSan(input);
  const san = board.moves().find((m) => normaliseSan(m) === wanted);
  if (san) return san;
  return { error: MOVE_ERRORS.illegalMove(input) };
}

function timeoutOutcome(state: ChessState, flagged: Seat): DecidedOutcome {
  const winner = otherSeat(flagged);
  const board = state.fen.split(' ')[0] ?? '';
  const winnerIsWhite = winner === state.white;
  const pieces = board.split('').filter((c) => /[a-z]/i.test(c) && (c === c.toUpperCase()) === winnerIsWhite);
  if (pieces.length === 1) return { draw: true, reason: 'timeout-vs-insufficient-material' };
  return { winner, reason: 'timeout' };
}

export const chess: GameRules<ChessState, string, ChessView> = {
  id: 'chess',
  name: 'Chess',

  setup: ({ firstSeat = 0 }) => chessFromFen(CHESS_START_FEN, firstSeat),

  toMove,

  legalMoves: legal,

  applyMove(state, seat, input): MoveResult<ChessState, string> {
    const refused = turnError(state.end, toMove(state), seat);
    if (refused) return refused;
    const parsed = chessMoveInput.safeParse(input);
    if (!parsed.success) return rejectMove('invalid_move', MOVE_ERRORS.invalidMove);
    const board = new Chess(state.fen);
    const found = findMove(board, parsed.data);
    if (typeof found !== 'string' && 'error' in found)
      return rejectMove(found.error === MOVE_ERRORS.invalidMove ? 'invalid_move' : 'illegal_move', found.error);
    const played = board.move(found);
    const fen = board.fen();
    const key = positionKey(fen);
    const irreversible = fen.split(' ')[4] === '0';
    const positions = irreversible ? [key] : [...state.positions, key];
    return {
      ok: true,
      state: {
        initialFen: state.initialFen,
        fen,
        white: state.white,
        moves: [...state.moves, played.lan],
        sans: [...state.sans, played.san],
        positions,
        end: judge(board, state.white, positions),
      },
      move: played.lan,
      notation: played.san,
    };
  },

  outcome: (state) => state.end,

  timeoutOutcome,

  viewFor(state, viewer: Viewer) {
    const board = new Chess(state.fen);
    return {
      fen: state.fen,
      white: state.white,
      turn: seatOf(state, board.turn()),
      inCheck: board.inCheck(),
      sans: state.sans.slice(),
      moves: state.moves.slice(),
      lastMove: state.moves[state.moves.length - 1] ?? null,
      toMove: toMove(state),
      legal: viewer === 'spectator' ? [] : legal(state, viewer),
      outcome: state.end,
    };
  },
};
