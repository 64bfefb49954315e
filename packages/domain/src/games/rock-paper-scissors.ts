// Rock-paper-scissors: one simultaneous throw per game, secret until both are in.
import { z } from 'zod';
import { MOVE_ERRORS, rejectMove, turnError, type GameRules, type MoveResult, type Outcome, type Seat, type Viewer } from './game.ts';

export const THROWS = ['rock', 'paper', 'scissors'] as const;
export type Throw = (typeof THROWS)[number];

/** The throw each throw beats. */
export const BEATS: Readonly<Record<Throw, Throw>> = { rock: 'scissors', paper: 'rock', scissors: 'paper' };
/** The throw that beats each throw. */
export const BEATEN_BY: Readonly<Record<Throw, Throw>> = { rock: 'paper', paper: 'scissors', scissors: 'rock' };

/** `'rock'` or `{ throw: 'rock' }`, case-insensitive. */
export const throwInput = z.union([
  z.string().trim().toLowerCase().pipe(z.enum(THROWS)),
  z.object({ throw: z.string().trim().toLowerCase().pipe(z.enum(THROWS)) }).transform((m) => m.throw),
]);

/** Seat 0 wins, seat 1 wins, or a draw, for two throws. */
export function judgeThrows(a: Throw, b: Throw): Outcome {
  if (a === b) return { draw: true, reason: 'same-throw' };
  return { winner: BEATS[a] === b ? 0 : 1, reason: 'throw' };
}

export interface RockPaperScissorsState {
  throws: [Throw | null, Throw | null];
}

export interface RockPaperScissorsView {
  /** Whether each seat has thrown (public from the start). */
  thrown: [boolean, boolean];
  /** The throws a viewer may see: its own at once, the other's only once both are in. */
  throws: [Throw | null, Throw | null];
  toMove: Seat[];
  legal: Throw[];
  outcome: Outcome;
}

function outcome(state: RockPaperScissorsState): Outcome {
  const [a, b] = state.throws;
  return a && b ? judgeThrows(a, b) : null;
}

function toMove(state: RockPaperScissorsState): Seat[] {
  return ([0, 1] as const).filter((seat) => state.throws[seat] === null);
}

export const rockPaperScissors: GameRules<RockPaperScissorsState, Throw, RockPaperScissorsView> = {
  id: 'rock-paper-scissors',
  name: 'Rock Paper Scissors',

  setup: () => ({ throws: [null, null] }),

  toMove,

  legalMoves: (state, seat) => (state.throws[seat] === null ? [...THROWS] : []),

  applyMove(state, seat, input): MoveResult<RockPaperScissorsState, Throw> {
    if (state.throws[seat] !== null && !outcome(state)) return rejectMove('not_your_turn', MOVE_ERRORS.alreadyThrown);
    const refused = turnError(outcome(state), toMove(state), seat);
    if (refused) return refused;
    const parsed = throwInput.safeParse(input);
    if (!parsed.success) return rejectMove('invalid_move', MOVE_ERRORS.invalidMove);
    const throws: RockPaperScissorsState['throws'] = [...state.throws];
    throws[seat] = parsed.data;
    return { ok: true, state: { throws }, move: parsed.data, notation: `Player ${seat + 1} threw` };
  },

  outcome,

  timeoutOutcome: (_state, flagged) => ({ winner: flagged === 0 ? 1 : 0, reason: 'timeout' }),

  viewFor(state, viewer: Viewer) {
    const revealed = state.throws[0] !== null && state.throws[1] !== null;
    const visible = (seat: Seat) => (revealed || viewer === seat ? state.throws[seat] : null);
    return {
      thrown: [state.throws[0] !== null, state.throws[1] !== null],
      throws: [visible(0), visible(1)],
      toMove: toMove(state),
      legal: viewer !== 'spectator' && state.throws[viewer] === null ? [...THROWS] : [],
      outcome: outcome(state),
    };
  },
};
