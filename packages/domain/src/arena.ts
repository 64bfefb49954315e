// The live arena on the wire: match lifecycle, views, requests and events, shared by server and web;
// also the rules each match plays (`matchRules`).
import { z } from 'zod';
import { CURRENCIES } from './constants.ts';
import { matchSchema, MATCH_STATUSES, type MatchStatus } from './challenges.ts';
import {
  aiRockPaperScissors,
  gameRules,
  isWebGame,
  MOVE_ERRORS,
  OUTCOME_REASONS,
  rejectMove,
  SERIES_RULES,
  sha256Hex,
  type AiRockPaperScissorsState,
  type AiRockPaperScissorsView,
  type AnyGameRules,
  type GameId as WebGameId,
  type GameRules,
  type MoveResult,
  type Outcome,
  type Seat,
  type Throw,
  type TimeControl,
  type Viewer,
  TIME_CONTROLS,
} from './games/index.ts';

export type { WebGameId };

// ---------------------------------------------------------------------------------------
// Lifecycle

/**
 * The database refuses any other change of status (db/functions/matches_status_transition.sql).
 * @public The reference for that SQL function; no code reads it yet.
 */
export const MATCH_TRANSITIONS: Readonly<Record<MatchStatus, readonly MatchStatus[]>> = {
  pending: ['accepted', 'in_progress', 'completed', 'disputed', 'cancelled'],
  accepted: ['in_progress', 'completed', 'disputed', 'cancelled'],
  in_progress: ['completed', 'disputed', 'cancelled'],
  completed: ['disputed'],
  disputed: ['completed', 'cancelled'],
  cancelled: [],
};

/** Matches a player is still playing (or waiting to play). */
export const ACTIVE_MATCH_STATUSES: readonly MatchStatus[] = ['pending', 'accepted', 'in_progress'];

export const ARENA_RULES = {
  /** A player not ready this long after the scheduled start forfeits; neither ready: void. */
  noShowMs: 5 * 60_000,
  /** How often one process looks for overdue clocks and no-shows (a crash or restart still ends them). */
  sweepEveryMs: 5_000,
  /** The sweep waits this long past a deadline so an action that arrived in time at another process commits first. */
  sweepGraceMs: 2_000,
  /** The most lag a client may report for one move; the clock's quota bounds what is credited. */
  maxReportedLagMs: 60_000,
  /** Games where a draw may be offered (the others have nothing to agree on). */
  drawOfferGames: ['chess', 'checkers'] as readonly WebGameId[],
  /** Level = 1 + floor(wins / winsPerLevel). */
  winsPerLevel: 5,
} as const;

/** SPEC §3 `level` (default 1): one level per 5 match wins. */
export const levelFor = (wins: number): number => 1 + Math.floor(Math.max(0, wins) / ARENA_RULES.winsPerLevel);

/** A win streak: a win adds one, a loss ends it, a draw leaves it. */
export function nextStreak(streak: number, result: 'win' | 'loss' | 'draw'): number {
  if (result === 'win') return Math.max(0, streak) + 1;
  if (result === 'loss') return 0;
  return streak;
}

export const canOfferDraw = (game: string): boolean => (ARENA_RULES.drawOfferGames as readonly string[]).includes(game);

/** A fifth of the length per player per game: a best of 3 averages 2.5 games of two clocks; null length: the standard control. */
export function matchTimeControl(game: WebGameId, lengthMinutes: number | null): TimeControl {
  const standard = TIME_CONTROLS[game];
  if (lengthMinutes === null || !Number.isFinite(lengthMinutes) || lengthMinutes <= 0) return standard;
  return { initialMs: Math.round((lengthMinutes * 60) / 5) * 1000, incrementMs: standard.incrementMs };
}

/** "1 min + 5 s", "1 min 24 s + 3 s", "30 s": a time control in words, per player per game. */
export function describeTimeControl({ initialMs, incrementMs }: TimeControl): string {
  const seconds = Math.round(initialMs / 1000);
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  const base = minutes === 0 ? `${rest} s` : rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
  return incrementMs > 0 ? `${base} + ${Math.round(incrementMs / 1000)} s` : base;
}

/** The time control of a `game` challenge of that length, in words; null for an external game (no clock). */
export const timeControlLabel = (game: string, lengthMinutes: number | null): string | null =>
  isWebGame(game) ? describeTimeControl(matchTimeControl(game, lengthMinutes)) : null;

/** "1 min + 5 s per player per game": the clock as a player agrees to it. */
export const clockPerGame = (label: string): string => `${label} per player per game`;

/** How a match ended: the series' reasons, or void (nobody showed up). */
export const MATCH_END_REASONS = ['games-won', 'drawn-game-cap', 'resignation', 'forfeit', 'void'] as const;
export type MatchEndReason = (typeof MATCH_END_REASONS)[number];

// ---------------------------------------------------------------------------------------
// What a viewer sees

export const seatSchema = z.union([z.literal(0), z.literal(1)]);
const pair = <T extends z.ZodType>(item: T) => z.tuple([item, item]);

export const outcomeSchema = z.union([
  z.object({ winner: seatSchema, reason: z.enum(OUTCOME_REASONS) }),
  z.object({ draw: z.literal(true), reason: z.enum(OUTCOME_REASONS) }),
]);

export const arenaPlayerSchema = z.object({
  seat: seatSchema,
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  avatar: z.string().nullable(),
  gamertag: z.string().nullable(),
  /** Said they are here (POST /ready; the web readies on arrival with auto_ready=true). */
  ready: z.boolean(),
  readyAt: z.string().nullable(),
  /** The last time the server heard from the player in this match (ready, move, resign, draw). */
  lastSeenAt: z.string().nullable(),
  /** This game's Glicko-2 rating; provisional while the deviation is high. */
  rating: z.object({ value: z.number().int(), provisional: z.boolean(), games: z.number().int() }),
  level: z.number().int(),
  wins: z.number().int(),
  losses: z.number().int(),
  streak: z.number().int(),
});
export type ArenaPlayer = z.infer<typeof arenaPlayerSchema>;

export const clockViewSchema = z.object({
  initialMs: z.number().int(),
  incrementMs: z.number().int(),
  /** Each seat's time left at `at`. */
  remainingMs: pair(z.number()),
  /** Seats whose time is running from `at` on. */
  running: z.array(seatSchema),
  /** Server time of the reading (epoch ms); a client counts down from it, corrected by its own offset. */
  at: z.number(),
  flagged: seatSchema.nullable(),
});
export type ClockView = z.infer<typeof clockViewSchema>;

export const gameSummarySchema = z.object({
  index: z.number().int(),
  firstSeat: seatSchema,
  /** sha256 of the game's seed, public from the start. */
  commitment: z.string(),
  /** The seed itself, once the game is over (ludo dice and the AI's throws can then be checked). */
  seed: z.string().nullable(),
  outcome: outcomeSchema.nullable(),
});
export type GameSummary = z.infer<typeof gameSummarySchema>;

export const seriesViewSchema = z.object({
  wins: pair(z.number().int()),
  draws: z.number().int(),
  played: z.number().int(),
  winsNeeded: z.number().int(),
  maxDrawnGames: z.number().int(),
  games: z.array(gameSummarySchema),
});

export const currentGameSchema = z.object({
  index: z.number().int(),
  firstSeat: seatSchema,
  commitment: z.string(),
  toMove: z.array(seatSchema),
  /** The game's own view for this viewer (`viewFor(state, seat | 'spectator')`): secrets removed. */
  view: z.unknown(),
});

export const moveEntrySchema = z.object({
  seq: z.number().int(),
  gameIndex: z.number().int(),
  seat: seatSchema,
  /** Public notation: never a secret (an RPS throw reads "Player 1 threw"). */
  notation: z.string(),
  /** Server time the move was received. */
  at: z.string(),
  remainingMs: pair(z.number()),
});
export type MoveEntry = z.infer<typeof moveEntrySchema>;

export const ratingChangeSchema = z.object({
  userId: z.string(),
  before: z.number().int(),
  after: z.number().int(),
});

export const matchResultSchema = z.object({
  outcome: z.enum(['win', 'draw', 'void']),
  winnerId: z.string().nullable(),
  winnerSeat: seatSchema.nullable(),
  reason: z.enum(MATCH_END_REASONS),
  /** How the last game ended (checkmate, timeout, agreement...), when a game was played. */
  lastGameReason: z.enum(OUTCOME_REASONS).nullable(),
  currency: z.enum(CURRENCIES),
  /** Whole units paid out by the escrow: the winner's 2 × stake, or each stake back. */
  payouts: z.array(z.object({ userId: z.string(), amount: z.number() })),
  ratings: z.array(ratingChangeSchema),
  completedAt: z.string(),
});
export type MatchResult = z.infer<typeof matchResultSchema>;

/** The tournament a game belongs to (its result goes there, not a stake); null for a challenge's match. */
const matchTournamentSchema = z.object({ id: z.string(), name: z.string() }).nullable();

export const matchViewSchema = matchSchema.extend({
  gameName: z.string(),
  /** Bumped by every change; a move names the version it was made on. */
  version: z.number().int(),
  /** The caller's seat; null for a spectator. */
  viewerSeat: seatSchema.nullable(),
  players: pair(arenaPlayerSchema),
  /** What the winner receives: 2 × stake (no fee); 0 for a tournament's game. */
  payout: z.number().int(),
  tournament: matchTournamentSchema,
  /** A player not ready by then forfeits; neither ready: void. */
  noShowDeadline: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  series: seriesViewSchema,
  game: currentGameSchema.nullable(),
  clock: clockViewSchema.nullable(),
  /** Each player's clock per game (matchTimeControl); null for an external game. */
  timeControl: z.object({ initialMs: z.number().int(), incrementMs: z.number().int() }).nullable(),
  toMove: z.array(seatSchema),
  yourTurn: z.boolean(),
  /** The seat offering a draw in the current game. */
  drawOffer: seatSchema.nullable(),
  canOfferDraw: z.boolean(),
  moves: z.array(moveEntrySchema),
  result: matchResultSchema.nullable(),
  serverNow: z.number(),
});
export type MatchView = z.infer<typeof matchViewSchema>;
export const matchViewResponseSchema = z.object({ match: matchViewSchema });
export type MatchViewResponse = z.infer<typeof matchViewResponseSchema>;

export const arenaMatchSummarySchema = matchSchema.extend({
  gameName: z.string(),
  tournament: matchTournamentSchema,
  version: z.number().int(),
  viewerSeat: seatSchema,
  yourTurn: z.boolean(),
  ready: pair(z.boolean()),
  score: pair(z.number().int()),
  noShowDeadline: z.string().nullable(),
});
export type ArenaMatchSummary = z.infer<typeof arenaMatchSummarySchema>;
export const arenaMatchListSchema = z.object({ matches: z.array(arenaMatchSummarySchema) });

// ---------------------------------------------------------------------------------------
// Requests

export const moveRequestSchema = z.object({
  /** The game's move input: a cell (tic-tac-toe), a throw, UCI/SAN or {from,to}, a path, {type:'roll'}... */
  move: z.custom<unknown>((m) => m !== undefined, 'move is required'),
  /** The match version the move was made on; another one is refused (409) and changes nothing. */
  version: z.number().int().nonnegative(),
  /** Network lag the client measured for this move, credited back to the clock within a quota. */
  lagMs: z.number().min(0).max(ARENA_RULES.maxReportedLagMs).optional(),
  /** Played the instant the opponent's move arrived: its time counts as lag (within the quota). */
  premove: z.boolean().optional(),
});
export type MoveRequest = z.infer<typeof moveRequestSchema>;

/** Resign and draw: the version is optional (neither depends on the position), checked when given. */
export const resignRequestSchema = z.object({ version: z.number().int().nonnegative().optional() }).nullish();
export const drawRequestSchema = z.object({
  action: z.enum(['offer', 'accept', 'decline']),
  version: z.number().int().nonnegative().optional(),
});
export type DrawRequest = z.infer<typeof drawRequestSchema>;

// ---------------------------------------------------------------------------------------
// Replay of a finished match

export const replayMoveSchema = moveEntrySchema.extend({
  /** The canonical move as stored (a throw, UCI, a cell...): revealed once the match is over. */
  move: z.unknown(),
  elapsedMs: z.number().int(),
});
export const replayGameSchema = gameSummarySchema.extend({ moves: z.array(replayMoveSchema) });
export const replaySchema = z.object({
  match: matchSchema.extend({ gameName: z.string(), version: z.number().int() }),
  players: pair(z.object({ seat: seatSchema, id: z.string(), username: z.string(), displayName: z.string() })),
  /** Who moved first in game 1 (then alternating). */
  firstSeat: seatSchema,
  games: z.array(replayGameSchema),
  result: matchResultSchema.nullable(),
});
export type Replay = z.infer<typeof replaySchema>;

// ---------------------------------------------------------------------------------------
// Realtime events (topics and types: docs/decisions.md, "Events carry the public state")

export const matchEventSchema = z.object({
  matchId: z.string(),
  version: z.number().int(),
  status: z.enum(MATCH_STATUSES),
  ready: pair(z.boolean()),
  score: pair(z.number().int()),
  draws: z.number().int(),
  /** The spectator's view, history lists cut to their last entry so events do not grow with the game. */
  game: currentGameSchema.nullable(),
  clock: clockViewSchema.nullable(),
  toMove: z.array(seatSchema),
  drawOffer: seatSchema.nullable(),
  /** match.move: the move, in public notation. */
  move: moveEntrySchema.optional(),
  /** A game that just ended (by this move, a timeout or an agreed draw), as a spectator sees its end. */
  gameOver: z.object({ summary: gameSummarySchema, view: z.unknown() }).optional(),
  /** match.completed. */
  result: matchResultSchema.optional(),
});
export type MatchEvent = z.infer<typeof matchEventSchema>;

export interface PlayerJoinedEvent {
  matchId: string;
  userId: string;
  seat: Seat;
  username: string;
  ready: [boolean, boolean];
}

/** On each player's `user:{id}` topic. */
export interface MatchCompletedUserEvent {
  matchId: string;
  gameType: WebGameId;
  /** For this player. */
  result: 'win' | 'loss' | 'draw' | 'void';
  reason: MatchEndReason;
  currency: (typeof CURRENCIES)[number];
  /** Whole units this player received from the escrow (0 for a loss). */
  received: number;
  rating: { before: number; after: number } | null;
}

// ---------------------------------------------------------------------------------------
// The rules a match plays

export interface AiDuelState {
  /** Each player's own game against the computer (the player is seat 0 of each). */
  sides: [AiRockPaperScissorsState, AiRockPaperScissorsState];
}

export interface AiDuelView {
  thrown: [boolean, boolean];
  /** A side is shown to its own player at once, to everyone once both have thrown. */
  sides: [AiRockPaperScissorsView | null, AiRockPaperScissorsView | null];
  toMove: Seat[];
  legal: Throw[];
  outcome: Outcome;
}

const sideScore = (side: AiRockPaperScissorsState): number => {
  const outcome = aiRockPaperScissors.outcome(side);
  if (!outcome) return -1;
  return 'winner' in outcome ? (outcome.winner === 0 ? 1 : 0) : 0.5;
};

function duelOutcome(state: AiDuelState): Outcome {
  const [a, b] = state.sides.map(sideScore) as [number, number];
  if (a < 0 || b < 0) return null;
  if (a === b) return { draw: true, reason: 'same-throw' };
  return { winner: a > b ? 0 : 1, reason: 'throw' };
}

const duelToMove = (state: AiDuelState): Seat[] => ([0, 1] as const).filter((seat) => state.sides[seat].player === null);

/** AI rock-paper-scissors between two players: each against their own computer, the better result wins. */
export const aiDuel: GameRules<AiDuelState, Throw, AiDuelView> = {
  id: 'ai-rock-paper-scissors',
  name: aiRockPaperScissors.name,
  // A hash per side, so revealing one side's seed to its player tells nothing about the other.
  setup: ({ seed, previous }) => ({
    sides: [
      aiRockPaperScissors.setup({ seed: sha256Hex(`${seed}:0`), ...(previous ? { previous: previous.sides[0] } : {}) }),
      aiRockPaperScissors.setup({ seed: sha256Hex(`${seed}:1`), ...(previous ? { previous: previous.sides[1] } : {}) }),
    ],
  }),
  toMove: duelToMove,
  legalMoves: (state, seat) => (duelOutcome(state) ? [] : aiRockPaperScissors.legalMoves(state.sides[seat], 0)),
  applyMove(state, seat, input): MoveResult<AiDuelState, Throw> {
    if (duelOutcome(state)) return rejectMove('game_over', MOVE_ERRORS.gameOver);
    if (state.sides[seat].player !== null) return rejectMove('not_your_turn', MOVE_ERRORS.alreadyThrown);
    const result = aiRockPaperScissors.applyMove(state.sides[seat], 0, input);
    if (!result.ok) return result;
    const sides: AiDuelState['sides'] = [state.sides[0], state.sides[1]];
    sides[seat] = result.state;
    return { ok: true, state: { sides }, move: result.move, notation: `Player ${seat + 1} threw` };
  },
  outcome: duelOutcome,
  timeoutOutcome: (_state, flagged) => ({ winner: flagged === 0 ? 1 : 0, reason: 'timeout' }),
  viewFor(state, viewer: Viewer) {
    const both = state.sides[0].player !== null && state.sides[1].player !== null;
    const side = (seat: Seat) => (both || viewer === seat ? aiRockPaperScissors.viewFor(state.sides[seat], 0) : null);
    return {
      thrown: [state.sides[0].player !== null, state.sides[1].player !== null],
      sides: [side(0), side(1)],
      toMove: duelToMove(state),
      legal: viewer === 'spectator' || duelOutcome(state) ? [] : aiRockPaperScissors.legalMoves(state.sides[viewer], 0),
      outcome: duelOutcome(state),
    };
  },
};

/** The rules a staked match of `game` plays. */
export function matchRules(game: WebGameId): AnyGameRules {
  return game === 'ai-rock-paper-scissors' ? aiDuel : gameRules[game];
}

export { SERIES_RULES };
