// What the tournament endpoints answer (the server's routes and the web's screens read the same
// schemas). Money is in whole units, with the minor units beside it where the ledger's exact
// figure matters.
import { z } from 'zod';
import { CURRENCIES } from '../constants.ts';
import { bracketSchema } from './bracket.ts';
import { TOURNAMENT_STATUSES } from './lifecycle.ts';
import { KNOCKOUT_MATCH_FORMATS, TOURNAMENT_FORMATS, TOURNAMENT_GAMES } from './schemas.ts';

/** The list's tabs: entries open, being played, over (finished or cancelled). */
export const TOURNAMENT_LIST_TABS = ['upcoming', 'live', 'finished'] as const;

export const tournamentListQuerySchema = z.object({
  status: z.enum(TOURNAMENT_LIST_TABS).optional(),
  game: z.enum(TOURNAMENT_GAMES).optional(),
  /** Staked by the players, or sponsored (free entry). */
  entry: z.enum(['stake', 'sponsored']).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type TournamentListQuery = z.infer<typeof tournamentListQuerySchema>;

const money = { amount: z.number(), amountMinor: z.number().int() };

export const tournamentSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  game: z.enum(TOURNAMENT_GAMES),
  gameName: z.string(),
  format: z.enum(TOURNAMENT_FORMATS),
  status: z.enum(TOURNAMENT_STATUSES),
  currency: z.enum(CURRENCIES),
  creatorId: z.string(),
  /** What a player puts in to enter: their stake, or nothing (a sponsored prize). */
  entry: z.object({ kind: z.enum(['stake', 'sponsored']), stake: z.number(), stakeMinor: z.number().int() }),
  /** The pool as it stands (fixed at the start): every stake, or the sponsor's prize. */
  prizePool: z.object(money),
  /** "Winner takes all" or "1st 60% · 2nd 30% · 3rd 10%", for the field as it stands. */
  prizeSplit: z.string(),
  /** Each paid place's amount (1st first), whole units. */
  prizes: z.array(z.number()),
  minPlayers: z.number().int(),
  maxPlayers: z.number().int(),
  players: z.number().int(),
  startsAt: z.string(),
  /** Arena: when pairing stops. */
  endsAt: z.string().nullable(),
  matchMinutes: z.number().int(),
  matchFormat: z.enum(KNOCKOUT_MATCH_FORMATS).nullable(),
  arenaMinutes: z.number().int().nullable(),
  timeControl: z.object({ initialMs: z.number().int(), incrementMs: z.number().int() }),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  /** Whether the caller has entered. */
  entered: z.boolean(),
});
export type TournamentSummary = z.infer<typeof tournamentSummarySchema>;

export const tournamentPlayerSchema = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  avatar: z.string().nullable(),
  /** Rating in the game when entering. */
  rating: z.number().int(),
  /** Knockout: 1 for the best rating. */
  seed: z.number().int().nullable(),
  score: z.number().int(),
  winStreak: z.number().int(),
  onFire: z.boolean(),
  games: z.number().int(),
  wins: z.number().int(),
  paused: z.boolean(),
  withdrawn: z.boolean(),
  /** Knockout: the round they lost in (0 = the first). */
  eliminatedRound: z.number().int().nullable(),
  place: z.number().int().nullable(),
  prize: z.number(),
});
export type TournamentPlayer = z.infer<typeof tournamentPlayerSchema>;

export const tournamentGameSchema = z.object({
  matchId: z.string(),
  /** Knockout: the bracket's round and match index; 1, 2… for a drawn pairing's deciding games. */
  round: z.number().int().nullable(),
  slot: z.number().int().nullable(),
  decider: z.number().int(),
  players: z.tuple([z.string(), z.string()]),
  /** The match's status (pending, in_progress, completed, cancelled). */
  status: z.string(),
  winnerId: z.string().nullable(),
  /** How the tournament took it, once applied. */
  result: z.enum(['player1', 'player2', 'draw', 'void']).nullable(),
});

export const arenaStandingSchema = z.object({
  rank: z.number().int(),
  id: z.string(),
  score: z.number().int(),
  performance: z.number().nullable(),
  games: z.number().int(),
  wins: z.number().int(),
  onFire: z.boolean(),
});

export const tournamentDetailSchema = tournamentSummarySchema.extend({
  entrants: z.array(tournamentPlayerSchema),
  /** Knockout, from the start. */
  bracket: bracketSchema.nullable(),
  games: z.array(tournamentGameSchema),
  /** Arena, from the start: live, then final. */
  standings: z.array(arenaStandingSchema).nullable(),
  /** The caller's own place in it, when entered. */
  me: tournamentPlayerSchema
    .extend({
      /** The match to play now (waiting for both players, or being played). */
      currentMatchId: z.string().nullable(),
    })
    .nullable(),
});
export type TournamentDetail = z.infer<typeof tournamentDetailSchema>;

export const tournamentResponseSchema = z.object({ tournament: tournamentDetailSchema });
export type TournamentResponse = z.infer<typeof tournamentResponseSchema>;
export const tournamentListResponseSchema = z.object({ tournaments: z.array(tournamentSummarySchema) });
export type TournamentListResponse = z.infer<typeof tournamentListResponseSchema>;
/** Joining, leaving, coming back: the tournament after it, and what happened in words. */
export const tournamentActionResponseSchema = z.object({ tournament: tournamentDetailSchema, message: z.string() });
export type TournamentActionResponse = z.infer<typeof tournamentActionResponseSchema>;
