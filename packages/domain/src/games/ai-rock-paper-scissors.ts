// AI rock-paper-scissors: the player (seat 0) against a computer that predicts from the player's
// history; its throw is fixed at setup from a committed seed, so fair play can be checked.
import { MOVE_ERRORS, rejectMove, turnError, type GameRules, type MoveResult, type Outcome, type Seat, type Viewer } from './game.ts';
import { BEATEN_BY, judgeThrows, THROWS, throwInput, type Throw } from './rock-paper-scissors.ts';
import { sha256, sha256Hex } from './sha256.ts';

export const AI_RPS = {
  /** The player's throws the computer remembers (the latest ones). */
  memory: 100,
  /** How much more a transition after the same previous throw counts than an overall frequency. */
  markovWeight: 3,
  playerSeat: 0 as Seat,
  computerSeat: 1 as Seat,
} as const;

/** Every throw keeps a non-zero chance, so the computer cannot be read. */
export function aiThrow(history: readonly Throw[], random: number): Throw {
  const weights = THROWS.map(() => 1);
  const last = history[history.length - 1];
  history.forEach((t, i) => {
    weights[THROWS.indexOf(t)]! += 1;
    if (last !== undefined && i > 0 && history[i - 1] === last) weights[THROWS.indexOf(t)]! += AI_RPS.markovWeight;
  });
  const total = weights.reduce((a, b) => a + b, 0);
  let pick = (Number.isFinite(random) ? Math.min(Math.max(random, 0), 0.999999) : 0) * total;
  for (let i = 0; i < THROWS.length; i++) {
    pick -= weights[i]!;
    if (pick < 0) return BEATEN_BY[THROWS[i]!];
  }
  return BEATEN_BY[THROWS[THROWS.length - 1]!];
}

/** The random number a seed gives the computer: the first 32 bits of sha256(`${seed}:ai`). */
export function aiRandom(seed: string): number {
  const h = sha256(`${seed}:ai`);
  return (((h[0]! << 24) | (h[1]! << 16) | (h[2]! << 8) | h[3]!) >>> 0) / 2 ** 32;
}

export interface AiRockPaperScissorsState {
  seed: string;
  /** sha256(seed) in hex, public from the start. */
  commitment: string;
  /** The player's earlier throws, oldest first (carried over from game to game). */
  history: Throw[];
  /** Chosen at setup; secret until the player has thrown. */
  computer: Throw;
  player: Throw | null;
}

export interface AiRockPaperScissorsView {
  commitment: string;
  /** Revealed once the game is over, to check the computer's throw with `verifyAiThrow`. */
  seed: string | null;
  history: Throw[];
  /** [player, computer]; the computer's only after the player has thrown. */
  throws: [Throw | null, Throw | null];
  toMove: Seat[];
  legal: Throw[];
  outcome: Outcome;
}

/** After the game: was the computer's throw the one the committed seed dictated? */
export function verifyAiThrow(commitment: string, seed: string, history: readonly Throw[], computer: Throw): boolean {
  return sha256Hex(seed) === commitment && aiThrow(history, aiRandom(seed)) === computer;
}

function outcome(state: AiRockPaperScissorsState): Outcome {
  return state.player ? judgeThrows(state.player, state.computer) : null;
}

function toMove(state: AiRockPaperScissorsState): Seat[] {
  return state.player ? [] : [AI_RPS.playerSeat];
}

export const aiRockPaperScissors: GameRules<AiRockPaperScissorsState, Throw, AiRockPaperScissorsView> = {
  id: 'ai-rock-paper-scissors',
  name: 'AI Rock Paper Scissors',

  setup({ seed, previous }) {
    const carried = previous ? [...previous.history, ...(previous.player ? [previous.player] : [])] : [];
    const history = carried.slice(-AI_RPS.memory);
    return {
      seed,
      commitment: sha256Hex(seed),
      history,
      computer: aiThrow(history, aiRandom(seed)),
      player: null,
    };
  },

  toMove,

  legalMoves: (state, seat) => (seat === AI_RPS.playerSeat && !state.player ? [...THROWS] : []),

  applyMove(state, seat, input): MoveResult<AiRockPaperScissorsState, Throw> {
    const refused = turnError(outcome(state), toMove(state), seat);
    if (refused)
      return seat === AI_RPS.computerSeat && !outcome(state) ? rejectMove('not_your_turn', MOVE_ERRORS.notYourComputer) : refused;
    const parsed = throwInput.safeParse(input);
    if (!parsed.success) return rejectMove('invalid_move', MOVE_ERRORS.invalidMove);
    return {
      ok: true,
      state: { ...state, history: state.history.slice(), player: parsed.data },
      move: parsed.data,
      notation: `Player threw ${parsed.data}; the computer threw ${state.computer}`,
    };
  },

  outcome,

  timeoutOutcome: (_state, flagged) => ({ winner: flagged === 0 ? 1 : 0, reason: 'timeout' }),

  viewFor(state, viewer: Viewer) {
    const over = outcome(state) !== null;
    return {
      commitment: state.commitment,
      seed: over ? state.seed : null,
      history: state.history.slice(),
      throws: [state.player, state.player ? state.computer : null],
      toMove: toMove(state),
      legal: viewer === AI_RPS.playerSeat && !state.player ? [...THROWS] : [],
      outcome: outcome(state),
    };
  },
};
