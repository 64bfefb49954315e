// The one interface every web game implements: pure functions over a JSON state, with randomness
// arriving as a seed and time left to the clock module.

/** The two players of a match. Seat 0 is the match's player 1. */
export type Seat = 0 | 1;
export type Viewer = Seat | 'spectator';

export const GAME_IDS = ['tic-tac-toe', 'rock-paper-scissors', 'chess', 'checkers', 'ludo', 'ai-rock-paper-scissors'] as const;
export type GameId = (typeof GAME_IDS)[number];

/** Why a game ended. A closed set, so a screen can switch over it exhaustively. */
export const OUTCOME_REASONS = [
  // board results
  'checkmate',
  'stalemate',
  'threefold-repetition',
  'fifty-move-rule',
  'insufficient-material',
  'three-in-a-row',
  'board-full',
  'no-moves-left',
  'forty-move-rule',
  'all-tokens-home',
  'throw',
  'same-throw',
  // ways the server ends a game (not produced by the rules themselves except timeout)
  'timeout',
  'timeout-vs-insufficient-material',
  'resignation',
  'agreement',
  'forfeit',
] as const;
export type OutcomeReason = (typeof OUTCOME_REASONS)[number];

export type DecidedOutcome = { winner: Seat; reason: OutcomeReason } | { draw: true; reason: OutcomeReason };
export type Outcome = DecidedOutcome | null;

export interface SetupContext<State> {
  /** Server randomness for this game (ludo dice, the AI's choices): high-entropy, secret until the end. */
  seed: string;
  /** Who starts: X in tic-tac-toe, white in chess, black in checkers, the first roll in ludo. Default 0. */
  firstSeat?: Seat;
  /** The previous game of the same series, for games that carry something over (the AI's memory). */
  previous?: State;
}

export const MOVE_ERROR_CODES = ['game_over', 'not_your_turn', 'invalid_move', 'illegal_move'] as const;
export type MoveErrorCode = (typeof MOVE_ERROR_CODES)[number];

export type MoveResult<State, Move> =
  | {
      ok: true;
      state: State;
      /** The move in its canonical form: what the server stores and replays. May be secret (a throw). */
      move: Move;
      /** A short public description for the move list; never contains a secret. */
      notation: string;
    }
  | { ok: false; code: MoveErrorCode; error: string };

export interface GameRules<State, Move, View> {
  readonly id: GameId;
  readonly name: string;
  setup(ctx: SetupContext<State>): State;
  /** Seats expected to move now; empty when the game is over. Both seats while RPS throws are missing. */
  toMove(state: State): Seat[];
  /** Every legal move of `seat` now (empty when it is not that seat's turn or the game is over). */
  legalMoves(state: State, seat: Seat): Move[];
  /** Validates untrusted input; never throws and never mutates `state`. */
  applyMove(state: State, seat: Seat, input: unknown): MoveResult<State, Move>;
  outcome(state: State): Outcome;
  /** How the game ends when `flagged` runs out of time (a loss, unless the rules say otherwise). */
  timeoutOutcome(state: State, flagged: Seat): DecidedOutcome;
  /** What one seat, or a spectator, may see: secrets are removed here, before anything is sent. */
  viewFor(state: State, viewer: Viewer): View;
}

export function otherSeat(seat: Seat): Seat {
  return seat === 0 ? 1 : 0;
}

/** Texts of the move refusals (ours: SPEC is silent). */
export const MOVE_ERRORS = {
  gameOver: 'The game is already over.',
  notYourTurn: 'It is not your turn.',
  invalidMove: 'That is not a valid move.',
  illegalMove: (move: string) => `Illegal move: ${move}`,
  ambiguousMove: (move: string) => `Ambiguous move: ${move}. Give the full path.`,
  noPromotion: 'Choose a piece to promote to (q, r, b or n).',
  notYourComputer: 'The computer plays this seat.',
  alreadyThrown: 'You have already thrown.',
  rollFirst: 'Roll the die first.',
  alreadyRolled: 'You have already rolled; move a token.',
} as const;

export function rejectMove(code: MoveErrorCode, error: string): { ok: false; code: MoveErrorCode; error: string } {
  return { ok: false, code, error };
}

/** The common refusals every game checks before looking at the move itself. */
export function turnError(outcome: Outcome, toMove: readonly Seat[], seat: Seat) {
  if (outcome) return rejectMove('game_over', MOVE_ERRORS.gameOver);
  if (!toMove.includes(seat)) return rejectMove('not_your_turn', MOVE_ERRORS.notYourTurn);
  return null;
}
