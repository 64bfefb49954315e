// A match as the server referees it, pure functions over a JSON state: the series, the current game's rules state and its clock;
// time and randomness come in as arguments.
import crypto from 'node:crypto';
import { matchRules, matchTimeControl, canOfferDraw, type ClockView, type GameSummary, type WebGameId } from '@versus/domain/arena';
import {
  concedeSeries,
  createClock,
  flagFall,
  flagFallsAt,
  flagSeat,
  nextGame,
  otherSeat,
  pressClock,
  recordGame,
  remainingAt,
  seriesOutcome,
  seriesScore,
  sha256Hex,
  startSeries,
  startTurn,
  stopClock,
  type ClockState,
  type DecidedOutcome,
  type MoveErrorCode,
  type MoveMetrics,
  type Seat,
  type SeriesOutcome,
  type SeriesState,
  type TimeControl,
  type Viewer,
} from '@versus/domain/games/index';
import { knockoutMatchOutcome, type KnockoutMatchFormat } from '@versus/domain/tournaments';

export interface GameRecord {
  index: number;
  firstSeat: Seat;
  /** The game's randomness (ludo dice, the computer's throws): secret until the game is over. */
  seed: string;
  commitment: string;
  outcome: DecidedOutcome | null;
  startedAt: number;
  endedAt: number | null;
}

export interface ArenaState {
  format: 1;
  game: WebGameId;
  /** What decides the match: best of 3 when absent (a challenge's); a tournament's single game is best of 1. */
  matchFormat?: KnockoutMatchFormat;
  series: SeriesState;
  /** Every game started, the current one last. */
  games: GameRecord[];
  /** The current game's rules state (the last game's final one once the match is over). */
  board: unknown;
  clock: ClockState;
  drawOffer: Seat | null;
  /** Moves stored so far (the next one is seq + 1). */
  seq: number;
}

/** A high-entropy seed from the operating system's generator (never Math.random). */
export const randomSeed = (): string => crypto.randomBytes(32).toString('hex');

export interface StartOptions {
  game: WebGameId;
  /** Each player's clock per game (matchTimeControl); every game of the series uses it. Default: the game's standard. */
  control?: TimeControl;
  now: number;
  seed?: () => string;
  firstSeat?: Seat;
  matchFormat?: KnockoutMatchFormat;
}

function newGame(game: WebGameId, control: TimeControl, index: number, firstSeat: Seat, now: number, seed: string, previous: unknown) {
  const rules = matchRules(game);
  const board = rules.setup({ seed, firstSeat, ...(previous === undefined ? {} : { previous }) });
  const clock = startTurn(createClock(control), rules.toMove(board), now);
  const record: GameRecord = { index, firstSeat, seed, commitment: sha256Hex(seed), outcome: null, startedAt: now, endedAt: null };
  return { board, clock, record };
}

/** Both players are here: the series starts with game 1 and its clock. */
export function startArena({
  game,
  control = matchTimeControl(game, null),
  now,
  seed = randomSeed,
  firstSeat = 0,
  matchFormat,
}: StartOptions): ArenaState {
  const series = startSeries(firstSeat);
  const first = nextGame(series)!;
  const { board, clock, record } = newGame(game, control, first.index, first.firstSeat, now, seed(), undefined);
  const format = matchFormat && matchFormat !== 'best-of-3' ? { matchFormat } : {};
  return { format: 1, game, ...format, series, games: [record], board, clock, drawOffer: null, seq: 0 };
}

/** How the match stands under its format (null: not decided). */
const matchOutcome = (state: Pick<ArenaState, 'matchFormat'>, series: SeriesState): SeriesOutcome =>
  state.matchFormat ? knockoutMatchOutcome(state.matchFormat, series) : seriesOutcome(series);

export const isOver = (state: ArenaState): boolean => matchOutcome(state, state.series) !== null;

export function toMoveOf(state: ArenaState): Seat[] {
  if (isOver(state)) return [];
  return matchRules(state.game).toMove(state.board);
}

/** A game that ended, for events and views. */
export interface GameOver {
  record: GameRecord;
  /** The final position as a spectator sees it (the throws, once both are in, and the seed). */
  board: unknown;
}

export interface Transition {
  state: ArenaState;
  /** Set when a game ended. */
  gameOver: GameOver | null;
  /** Set when the match is over. */
  matchOutcome: SeriesOutcome;
}

/** Ends the current game with `outcome`; the next game (if any) starts at once. */
function endGame(
  state: ArenaState,
  board: unknown,
  clock: ClockState,
  outcome: DecidedOutcome,
  now: number,
  seed: () => string,
): Transition {
  const recorded = recordGame(state.series, outcome);
  if (!recorded.ok) throw new Error(`arena: ${recorded.error}`);
  const games = state.games.slice();
  const ended: GameRecord = { ...games[games.length - 1]!, outcome, endedAt: now };
  games[games.length - 1] = ended;
  const gameOver: GameOver = { record: ended, board };
  const decided = matchOutcome(state, recorded.series);
  const next = decided ? null : nextGame(recorded.series);
  if (!next) {
    return {
      state: { ...state, series: recorded.series, games, board, clock: stopClock(clock), drawOffer: null },
      gameOver,
      matchOutcome: decided,
    };
  }
  const fresh = newGame(state.game, state.clock.control, next.index, next.firstSeat, now, seed(), board);
  games.push(fresh.record);
  return {
    state: { ...state, series: recorded.series, games, board: fresh.board, clock: fresh.clock, drawOffer: null },
    gameOver,
    matchOutcome: null,
  };
}

export interface MoveInput {
  now: number;
  metrics?: MoveMetrics;
  seed?: () => string;
}

export interface MoveEntryRecord {
  seq: number;
  gameIndex: number;
  seat: Seat;
  move: unknown;
  notation: string;
  at: number;
  remainingMs: [number, number];
  elapsedMs: number;
  /** The lag the client reported (as given: the clock bounds it), and whether it was a premove: what a replay needs. */
  lagMs: number | null;
  premove: boolean;
}

export type MoveOutcome =
  | { kind: 'refused'; code: MoveErrorCode; error: string }
  /** The mover's time had run out before the move arrived: the game is lost on time, the move not played. */
  | ({ kind: 'flagged' } & Transition)
  | ({ kind: 'moved'; entry: MoveEntryRecord } & Transition);

const sameSeats = (a: readonly Seat[], b: readonly Seat[]) => a.length === b.length && a.every((s) => b.includes(s));

/** `seat` plays `input`: a refusal changes nothing; else the clock is pressed (lag credited within the quota), the move applied. */
export function applyArenaMove(
  state: ArenaState,
  seat: Seat,
  input: unknown,
  { now, metrics = {}, seed = randomSeed }: MoveInput,
): MoveOutcome {
  if (isOver(state)) return { kind: 'refused', code: 'game_over', error: 'The match is already over.' };
  const rules = matchRules(state.game);
  const result = rules.applyMove(state.board, seat, input);
  if (!result.ok) return { kind: 'refused', code: result.code, error: result.error };

  const elapsedMs = state.clock.since !== null && state.clock.running.includes(seat) ? Math.max(0, now - state.clock.since) : 0;
  const pressed = pressClock(state.clock, seat, now, metrics);
  if (pressed.clock.flagged !== null) {
    const outcome = rules.timeoutOutcome(state.board, seat);
    return { kind: 'flagged', ...endGame(state, state.board, flagSeat(state.clock, seat), outcome, now, seed) };
  }

  const seq = state.seq + 1;
  const entry: MoveEntryRecord = {
    seq,
    gameIndex: state.games.length - 1,
    seat,
    move: result.move,
    notation: result.notation,
    at: now,
    remainingMs: [pressed.clock.remainingMs[0], pressed.clock.remainingMs[1]],
    elapsedMs: Math.round(elapsedMs),
    lagMs: metrics.lagMs ?? null,
    premove: metrics.premove === true,
  };
  // A move by the other player answers a draw offer: it is declined.
  const drawOffer = state.drawOffer !== null && state.drawOffer !== seat ? null : state.drawOffer;
  const moved: ArenaState = { ...state, board: result.state, seq, drawOffer };
  const outcome = rules.outcome(result.state);
  if (outcome) return { kind: 'moved', entry, ...endGame(moved, result.state, pressed.clock, outcome, now, seed) };

  const toMove = rules.toMove(result.state);
  // Simultaneous throws: the other seat's time keeps running from when it started.
  const clock =
    pressed.clock.running.length > 0 && sameSeats(pressed.clock.running, toMove) ? pressed.clock : startTurn(pressed.clock, toMove, now);
  return { kind: 'moved', entry, state: { ...moved, clock }, gameOver: null, matchOutcome: null };
}

/** A stored move, as replayMoves needs it. */
export interface StoredMove {
  seq: number;
  seat: Seat;
  move: unknown;
  at: number;
  remainingMs: [number, number];
  lagMs: number | null;
  premove: boolean;
}

/** The state after `moves` (stored after the snapshot), each replayed at its time, lag and premove; one that does not replay throws. */
export function replayMoves(state: ArenaState, moves: readonly StoredMove[]): ArenaState {
  let current = state;
  for (const stored of moves) {
    const metrics: MoveMetrics = {
      ...(stored.lagMs === null ? {} : { lagMs: stored.lagMs }),
      ...(stored.premove ? { premove: true } : {}),
    };
    const noSeed = () => {
      throw new Error(`arena: replaying move ${stored.seq} would start a game`);
    };
    const outcome = applyArenaMove(current, stored.seat, stored.move, { now: stored.at, metrics, seed: noSeed });
    if (outcome.kind !== 'moved' || outcome.gameOver || outcome.entry.seq !== stored.seq) {
      throw new Error(`arena: stored move ${stored.seq} does not replay (${outcome.kind})`);
    }
    const [r0, r1] = outcome.entry.remainingMs;
    if (Math.round(r0) !== Math.round(stored.remainingMs[0]) || Math.round(r1) !== Math.round(stored.remainingMs[1])) {
      throw new Error(`arena: stored move ${stored.seq} replays to another clock`);
    }
    current = outcome.state;
  }
  return current;
}

/** Whether a flag fell by `now`; when both did (simultaneous throws, checked late), the first to fall loses, the same instant draws. */
export function checkFlag(state: ArenaState, now: number, seed: () => string = randomSeed): Transition | null {
  if (isOver(state)) return null;
  const fallen = flagFall(state.clock, now);
  if (fallen.length === 0) return null;
  const clock = state.clock;
  const first = Math.min(...fallen.map((seat) => flagFallsAt(clock, seat)));
  const flagged = fallen.length > 1 ? fallen.filter((seat) => flagFallsAt(clock, seat) === first) : fallen;
  const rules = matchRules(state.game);
  const outcome: DecidedOutcome = flagged.length > 1 ? { draw: true, reason: 'timeout' } : rules.timeoutOutcome(state.board, flagged[0]!);
  return endGame(state, state.board, flagSeat(clock, flagged[0]!), outcome, now, seed);
}

/** `seat` gives up the whole match (whatever the score). */
export function resignArena(state: ArenaState, seat: Seat, now: number): Transition | { error: string } {
  const conceded = concedeSeries(state.series, seat, 'resignation');
  if (!conceded.ok) return { error: conceded.error };
  const games = state.games.slice();
  const current = games[games.length - 1]!;
  const gameOver: GameOver | null = current.outcome
    ? null
    : { record: { ...current, outcome: { winner: otherSeat(seat), reason: 'resignation' }, endedAt: now }, board: state.board };
  if (gameOver) games[games.length - 1] = gameOver.record;
  return {
    state: { ...state, series: conceded.series, games, clock: stopClock(state.clock), drawOffer: null },
    gameOver,
    matchOutcome: conceded.outcome,
  };
}

export type DrawAction = 'offer' | 'accept' | 'decline';
export type DrawRefusal = 'not_allowed' | 'nothing_to_answer' | 'already_offered';

/** Draw offers (chess, checkers) stand until accepted, declined or the other moves; a crossing offer accepts; a drawn game is replayed. */
export function drawArena(
  state: ArenaState,
  seat: Seat,
  action: DrawAction,
  now: number,
  seed: () => string = randomSeed,
): { kind: 'offered' | 'declined'; state: ArenaState } | ({ kind: 'accepted' } & Transition) | { kind: 'refused'; reason: DrawRefusal } {
  if (!canOfferDraw(state.game) || isOver(state)) return { kind: 'refused', reason: 'not_allowed' };
  const other = otherSeat(seat);
  if (action === 'offer' && state.drawOffer !== other) {
    if (state.drawOffer === seat) return { kind: 'refused', reason: 'already_offered' };
    return { kind: 'offered', state: { ...state, drawOffer: seat } };
  }
  if (state.drawOffer !== other) return { kind: 'refused', reason: 'nothing_to_answer' };
  if (action === 'decline') return { kind: 'declined', state: { ...state, drawOffer: null } };
  return { kind: 'accepted', ...endGame(state, state.board, state.clock, { draw: true, reason: 'agreement' }, now, seed) };
}

// ---------------------------------------------------------------------------------------
// What viewers see

export function clockView(clock: ClockState, now: number): ClockView {
  return {
    initialMs: clock.control.initialMs,
    incrementMs: clock.control.incrementMs,
    remainingMs: [Math.round(remainingAt(clock, 0, now)), Math.round(remainingAt(clock, 1, now))],
    running: [...clock.running],
    at: now,
    flagged: clock.flagged,
  };
}

export function gameSummary(record: GameRecord): GameSummary {
  return {
    index: record.index,
    firstSeat: record.firstSeat,
    commitment: record.commitment,
    seed: record.outcome ? record.seed : null,
    outcome: record.outcome,
  };
}

export function currentGameView(state: ArenaState, viewer: Viewer) {
  const record = state.games[state.games.length - 1]!;
  return {
    index: record.index,
    firstSeat: record.firstSeat,
    commitment: record.commitment,
    toMove: toMoveOf(state),
    view: matchRules(state.game).viewFor(state.board, viewer),
  };
}

export function seriesView(state: ArenaState | null) {
  const score = state ? seriesScore(state.series) : { wins: [0, 0] as [number, number], draws: 0, played: 0 };
  return {
    wins: [score.wins[0], score.wins[1]] as [number, number],
    draws: score.draws,
    played: score.played,
    games: state ? state.games.map(gameSummary) : [],
  };
}

export const spectatorGameOver = (state: ArenaState, over: GameOver) => ({
  summary: gameSummary(over.record),
  view: matchRules(state.game).viewFor(over.board, 'spectator'),
});
