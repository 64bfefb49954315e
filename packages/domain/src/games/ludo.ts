// Ludo for two players, red (seat 0) against yellow, classic rules without blockades; dice are
// provably fair: roll n is sha256(`${seed}:${n}`), sha256(seed) published first.
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
import { sha256, sha256Hex } from './sha256.ts';

export const LUDO_RULES = {
  tokens: 4,
  trackSquares: 52,
  /** Progress of the last track square before the home column. */
  lastTrack: 50,
  /** Progress of home. */
  home: 56,
  base: -1,
  /** Where each seat enters the track (absolute squares). */
  startSquares: [0, 26] as readonly [number, number],
  colors: ['red', 'yellow'] as const,
  safeSquares: [0, 8, 13, 21, 26, 34, 39, 47] as readonly number[],
  sixesEndingTurn: 3,
} as const;

export type LudoMove = { type: 'roll' } | { type: 'move'; token: number };

export interface LudoState {
  /** Secret until the game ends. */
  seed: string;
  /** sha256(seed) in hex, public from the start. */
  commitment: string;
  /** Progress of each seat's tokens: -1 in base, 0–50 on the track, 51–55 home column, 56 home. */
  tokens: [number[], number[]];
  turn: Seat;
  phase: 'roll' | 'move';
  /** The roll to be played, in the move phase. */
  die: number | null;
  /** Sixes rolled in a row in the current turn. */
  sixes: number;
  /** Every roll of the game, in order: roll n is `ludoRoll(seed, n)`. */
  rolls: number[];
  moves: string[];
  end: Outcome;
}

export interface LudoView {
  commitment: string;
  /** Revealed once the game is over. */
  seed: string | null;
  colors: readonly ['red', 'yellow'];
  tokens: [number[], number[]];
  turn: Seat;
  phase: 'roll' | 'move';
  die: number | null;
  rolls: number[];
  moves: string[];
  toMove: Seat[];
  legal: LudoMove[];
  outcome: Outcome;
}

/** `'roll'`, `{ type: 'roll' }`, `{ type: 'move', token }` or `{ token }` (token 0–3). */
export const ludoMoveInput = z.union([
  z.literal('roll').transform((): LudoMove => ({ type: 'roll' })),
  z.object({ type: z.literal('roll') }).transform((): LudoMove => ({ type: 'roll' })),
  z
    .object({
      type: z.literal('move').optional(),
      token: z
        .number()
        .int()
        .min(0)
        .max(LUDO_RULES.tokens - 1),
    })
    .transform((m): LudoMove => ({ type: 'move', token: m.token })),
]);

// ---- dice -----------------------------------------------------------------------------

/** Roll `n` (0-based) of the game with this seed: 1–6, unbiased (bytes ≥ 252 are skipped). */
export function ludoRoll(seed: string, n: number): number {
  let hash = sha256(`${seed}:${n}`);
  for (;;) {
    for (const byte of hash) if (byte < 252) return (byte % 6) + 1;
    hash = sha256(hash);
  }
}

export function ludoCommitment(seed: string): string {
  return sha256Hex(seed);
}

/** After the game: does the revealed seed match the commitment, and did it give exactly these rolls? */
export function verifyLudoRolls(commitment: string, revealedSeed: string, rolls: readonly number[]): boolean {
  if (ludoCommitment(revealedSeed) !== commitment.toLowerCase()) return false;
  return rolls.every((roll, n) => roll === ludoRoll(revealedSeed, n));
}

// ---- board ----------------------------------------------------------------------------

export type LudoSquare = { kind: 'base' } | { kind: 'track'; square: number } | { kind: 'home-column'; step: number } | { kind: 'home' };

/** Where a seat's token with this progress stands (track squares are absolute, 0–51). */
export function ludoSquare(seat: Seat, progress: number): LudoSquare {
  if (progress < 0) return { kind: 'base' };
  if (progress <= LUDO_RULES.lastTrack) {
    return { kind: 'track', square: (LUDO_RULES.startSquares[seat] + progress) % LUDO_RULES.trackSquares };
  }
  if (progress < LUDO_RULES.home) return { kind: 'home-column', step: progress - LUDO_RULES.lastTrack };
  return { kind: 'home' };
}

function trackSquare(seat: Seat, progress: number): number | null {
  const square = ludoSquare(seat, progress);
  return square.kind === 'track' ? square.square : null;
}

function canMove(progress: number, die: number): boolean {
  if (progress === LUDO_RULES.base) return die === 6;
  return progress >= 0 && progress + die <= LUDO_RULES.home;
}

function movableTokens(tokens: readonly number[], die: number): number[] {
  const movable: number[] = [];
  tokens.forEach((progress, token) => {
    if (canMove(progress, die)) movable.push(token);
  });
  return movable;
}

// ---- the game -------------------------------------------------------------------------

function toMove(state: LudoState): Seat[] {
  return state.end ? [] : [state.turn];
}

function legal(state: LudoState, seat: Seat): LudoMove[] {
  if (!toMove(state).includes(seat)) return [];
  if (state.phase === 'roll' || state.die === null) return [{ type: 'roll' }];
  return movableTokens(state.tokens[seat], state.die).map((token) => ({ type: 'move', token }));
}

/** The state for the next roll: the same seat after a 6, otherwise the opponent. */
function nextTurn(state: LudoState, rollAgain: boolean): Pick<LudoState, 'turn' | 'phase' | 'die' | 'sixes'> {
  return rollAgain
    ? { turn: state.turn, phase: 'roll', die: null, sixes: state.sixes }
    : { turn: otherSeat(state.turn), phase: 'roll', die: null, sixes: 0 };
}

function roll(state: LudoState): { state: LudoState; notation: string } {
  const value = ludoRoll(state.seed, state.rolls.length);
  const rolled: LudoState = { ...state, rolls: [...state.rolls, value], sixes: value === 6 ? state.sixes + 1 : 0 };
  const player = `Player ${state.turn + 1} rolled ${value}`;
  if (rolled.sixes >= LUDO_RULES.sixesEndingTurn) {
    const notation = `${player}: third six, turn over`;
    return { state: { ...rolled, ...nextTurn(rolled, false), moves: [...state.moves, notation] }, notation };
  }
  if (movableTokens(state.tokens[state.turn], value).length === 0) {
    const notation = `${player}: no move`;
    return { state: { ...rolled, ...nextTurn(rolled, value === 6), moves: [...state.moves, notation] }, notation };
  }
  const notation = player;
  return { state: { ...rolled, phase: 'move', die: value, moves: [...state.moves, notation] }, notation };
}

function moveToken(state: LudoState, token: number, die: number): { state: LudoState; notation: string } {
  const seat = state.turn;
  const opponent = otherSeat(seat);
  const from = state.tokens[seat][token]!;
  const to = from === LUDO_RULES.base ? 0 : from + die;
  const own = state.tokens[seat].slice();
  own[token] = to;
  let theirs = state.tokens[opponent].slice();
  const landing = trackSquare(seat, to);
  let captured = 0;
  if (landing !== null && !LUDO_RULES.safeSquares.includes(landing)) {
    theirs = theirs.map((progress) => {
      if (trackSquare(opponent, progress) !== landing) return progress;
      captured += 1;
      return LUDO_RULES.base;
    });
  }
  const tokens: [number[], number[]] = seat === 0 ? [own, theirs] : [theirs, own];
  const where = from === LUDO_RULES.base ? 'out of base' : to === LUDO_RULES.home ? 'home' : `to ${to}`;
  const notation = `Player ${seat + 1} moved token ${token + 1} ${where}${captured ? `, capturing ${captured}` : ''}`;
  const moved: LudoState = { ...state, tokens, moves: [...state.moves, notation] };
  if (own.every((progress) => progress === LUDO_RULES.home)) {
    return { state: { ...moved, phase: 'roll', die: null, end: { winner: seat, reason: 'all-tokens-home' } }, notation };
  }
  return { state: { ...moved, ...nextTurn(moved, die === 6) }, notation };
}

export const ludo: GameRules<LudoState, LudoMove, LudoView> = {
  id: 'ludo',
  name: 'Ludo',

  setup: ({ seed, firstSeat = 0 }) => ({
    seed,
    commitment: ludoCommitment(seed),
    tokens: [Array<number>(LUDO_RULES.tokens).fill(LUDO_RULES.base), Array<number>(LUDO_RULES.tokens).fill(LUDO_RULES.base)],
    turn: firstSeat,
    phase: 'roll',
    die: null,
    sixes: 0,
    rolls: [],
    moves: [],
    end: null,
  }),

  toMove,

  legalMoves: legal,

  applyMove(state, seat, input): MoveResult<LudoState, LudoMove> {
    const refused = turnError(state.end, toMove(state), seat);
    if (refused) return refused;
    const parsed = ludoMoveInput.safeParse(input);
    if (!parsed.success) return rejectMove('invalid_move', MOVE_ERRORS.invalidMove);
    const move = parsed.data;
    if (move.type === 'roll') {
      if (state.phase !== 'roll') return rejectMove('illegal_move', MOVE_ERRORS.alreadyRolled);
      return { ok: true, move, ...roll(state) };
    }
    if (state.phase !== 'move' || state.die === null) return rejectMove('illegal_move', MOVE_ERRORS.rollFirst);
    if (!canMove(state.tokens[seat][move.token]!, state.die)) {
      return rejectMove('illegal_move', MOVE_ERRORS.illegalMove(`token ${move.token + 1} by ${state.die}`));
    }
    return { ok: true, move, ...moveToken(state, move.token, state.die) };
  },

  outcome: (state) => state.end,

  timeoutOutcome: (_state, flagged) => ({ winner: otherSeat(flagged), reason: 'timeout' }),

  viewFor(state, viewer: Viewer) {
    return {
      commitment: state.commitment,
      seed: state.end ? state.seed : null,
      colors: LUDO_RULES.colors,
      tokens: [state.tokens[0].slice(), state.tokens[1].slice()],
      turn: state.turn,
      phase: state.phase,
      die: state.die,
      rolls: state.rolls.slice(),
      moves: state.moves.slice(),
      toMove: toMove(state),
      legal: viewer === 'spectator' ? [] : legal(state, viewer),
      outcome: state.end,
    };
  },
};
