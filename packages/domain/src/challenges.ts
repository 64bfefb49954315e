// Challenges on the wire (zod schemas shared by the server's routes and the web app) and the
// pure rules of creating and accepting one (SPEC §3 Challenge and Match, §4, §5, §8, §9).
import { z } from 'zod';
import { CHALLENGE_RULES, CURRENCIES, type AccountType, type Currency, type Role } from './constants.ts';
import { currencyFor, currencyLabel } from './money.ts';
import { CHALLENGE } from './messages.ts';
import {
  GAMES,
  GAME_IDS,
  PLATFORMS,
  PLATFORM_LABELS,
  effectivePlatform,
  isGamertagRequired,
  isValidStake,
  latestScheduleTime,
  type GameId,
} from './catalogue.ts';

// ---------------------------------------------------------------------------------------
// Lifecycles (closed sets; the database CHECKs the same lists).

export const CHALLENGE_STATUSES = ['open', 'accepted', 'completed', 'cancelled', 'expired'] as const;
export type ChallengeStatus = (typeof CHALLENGE_STATUSES)[number];

/** open → accepted | cancelled | expired; accepted → completed | cancelled (a match called off). */
export const CHALLENGE_TRANSITIONS: Readonly<Record<ChallengeStatus, readonly ChallengeStatus[]>> = {
  open: ['accepted', 'cancelled', 'expired'],
  accepted: ['completed', 'cancelled'],
  completed: [],
  cancelled: [],
  expired: [],
};

export const canChallengeMove = (from: ChallengeStatus, to: ChallengeStatus): boolean => CHALLENGE_TRANSITIONS[from].includes(to);

export const MATCH_STATUSES = ['pending', 'accepted', 'in_progress', 'completed', 'disputed', 'cancelled'] as const;
export type MatchStatus = (typeof MATCH_STATUSES)[number];

export const SKILL_LEVELS = ['any', 'beginner', 'intermediate', 'advanced', 'expert'] as const;
export type SkillLevel = (typeof SKILL_LEVELS)[number];

export const TITLE_MAX = 80;
export const GAMERTAG_MAX = 64;
export const RULES_MAX = 10;
export const RULE_MAX = 200;
export const SEARCH_MAX = 100;
/** Pools (private, more than 2 players) take at most this many; ludo's board takes 4. */
export const POOL_MAX_PLAYERS = 4;
const SCHEDULE_SLACK_MS = CHALLENGE_RULES.scheduleSlotMinutes * 60_000;

// ---------------------------------------------------------------------------------------
// Money: stakes are whole units (1–1000); the ledger counts minor units (money.ts).

/** The currency a player stakes: the one their mode uses (VTokens, pcredits or credits). */
export const stakeCurrencyFor = (user: { role: Role; accountType: AccountType }): Currency => currencyFor(user.role, user.accountType);

/** "$25" or "25 VT": a whole stake as the creation toast writes it ("$X locked in escrow"). */
export const stakeText = (stake: number, currency: Currency): string => (currency === 'vtokens' ? `${stake} VT` : `$${stake}`);

// ---------------------------------------------------------------------------------------
// Create: the request and its checks.

export const createChallengeRequestSchema = z.object({
  game: z.enum(GAME_IDS, { error: CHALLENGE.chooseGame }),
  /** Required for external games; web games are played on `web` (null or 'web' accepted). */
  platform: z.enum(PLATFORMS, { error: CHALLENGE.platformRequired }).nullish(),
  /** Whole credits, 1–1000 (checked by checkNewChallenge for SPEC's message). */
  stake: z.number({ error: CHALLENGE.invalidStake }),
  /** Minutes, one of the game's duration presets (any whole number in the game's range). */
  duration: z.number({ error: CHALLENGE.chooseDuration }),
  /** No expiry: the challenge stays open until accepted or cancelled. */
  noExpiry: z.boolean().default(false),
  isPrivate: z.boolean().default(false),
  /** 2 for head-to-head; more makes a pool, private only. */
  maxParticipants: z.number().int().default(CHALLENGE_RULES.maxParticipantsDefault),
  gamertag: z.string({ error: CHALLENGE.gamertagRequired }).nullish(),
  /** The optional message (≤ 200 characters); shown as the challenge's description. */
  message: z.string({ error: CHALLENGE.messageTooLong(CHALLENGE_RULES.messageMax) }).nullish(),
  /** Defaults to "{Game} Challenge". */
  title: z.string().nullish(),
  skillLevel: z.enum(SKILL_LEVELS).default('any'),
  rules: z.array(z.string().max(RULE_MAX)).max(RULES_MAX).default([]),
  /** One of the schedule slots; public challenges default to 30 minutes ahead, private ones to the acceptance time. */
  scheduledTime: z.iso.datetime({ offset: true, error: CHALLENGE.chooseTime }).nullish(),
});
export type CreateChallengeRequest = z.input<typeof createChallengeRequestSchema>;
export type CreateChallengeInput = z.output<typeof createChallengeRequestSchema>;

export interface FieldError {
  field: string;
  message: string;
}

/** SPEC §5's submit order, shared by server and wizard: the first failure is the message. */
export function checkNewChallenge(input: CreateChallengeInput, now: Date): FieldError | null {
  const game = GAMES[input.game];
  if (game.kind === 'web') {
    if (input.platform && input.platform !== 'web') {
      return { field: 'platform', message: CHALLENGE.platformNotSupported(game.name, PLATFORM_LABELS[input.platform]) };
    }
  } else {
    if (!input.platform) return { field: 'platform', message: CHALLENGE.platformRequired };
    if (!game.platforms.includes(input.platform)) {
      return { field: 'platform', message: CHALLENGE.platformNotSupported(game.name, PLATFORM_LABELS[input.platform]) };
    }
  }
  const platform = effectivePlatform(input.game, input.platform);
  if (isGamertagRequired(platform) && !input.gamertag?.trim()) {
    return { field: 'gamertag', message: CHALLENGE.gamertagRequired };
  }
  if ((input.gamertag?.trim().length ?? 0) > GAMERTAG_MAX) {
    return { field: 'gamertag', message: CHALLENGE.gamertagTooLong(GAMERTAG_MAX) };
  }
  if (!isValidStake(input.stake)) return { field: 'stake', message: CHALLENGE.invalidStake };
  if (!Number.isInteger(input.duration) || input.duration < game.minTime || input.duration > game.maxTime) {
    return { field: 'duration', message: CHALLENGE.durationInvalid(game.minTime, game.maxTime) };
  }
  const players = input.maxParticipants;
  if (players < 2 || players > Math.min(game.maxPlayers, POOL_MAX_PLAYERS)) {
    return { field: 'maxParticipants', message: CHALLENGE.playersInvalid(Math.min(game.maxPlayers, POOL_MAX_PLAYERS)) };
  }
  if (players > 2 && !input.isPrivate) return { field: 'maxParticipants', message: CHALLENGE.poolMustBePrivate };
  if ((input.message?.length ?? 0) > CHALLENGE_RULES.messageMax) {
    return { field: 'message', message: CHALLENGE.messageTooLong(CHALLENGE_RULES.messageMax) };
  }
  if ((input.title?.trim().length ?? 0) > TITLE_MAX) return { field: 'title', message: CHALLENGE.titleTooLong(TITLE_MAX) };
  if (input.scheduledTime) {
    const at = new Date(input.scheduledTime).getTime();
    if (!(at > now.getTime())) return { field: 'scheduledTime', message: CHALLENGE.scheduleInPast };
    // One slot of slack: the wizard computed its slots on the player's clock, a little earlier.
    if (at > latestScheduleTime(now).getTime() + SCHEDULE_SLACK_MS) return { field: 'scheduledTime', message: CHALLENGE.scheduleTooFar };
  }
  return null;
}

export const defaultTitle = (game: GameId): string => `${GAMES[game].name} Challenge`;

/** An empty or blank message is no message. */
export const cleanMessage = (message: string | null | undefined): string | null => message?.trim() || null;

/** SPEC §9: pools exist for private challenges of more than 2 players. */
export const isPool = (input: { isPrivate: boolean; maxParticipants: number }): boolean => input.isPrivate && input.maxParticipants > 2;

// ---------------------------------------------------------------------------------------
// Accept: the refusals that depend only on the challenge's state (checked under its row lock).

export interface AcceptableChallenge {
  status: ChallengeStatus;
  creatorId: string;
  acceptedBy: string | null;
  matchId: string | null;
  currency: Currency;
  expiresAt: Date | null;
}

export type Refusal = { status: 403 | 404 | 409 | 410 | 422; code: string; message: string };

/** In SPEC §4's order; the balance is checked after, against the ledger. */
export function acceptRefusal(challenge: AcceptableChallenge, acceptor: { userId: string; currency: Currency }, now: Date): Refusal | null {
  if (challenge.status === 'accepted' || (challenge.status === 'open' && challenge.matchId)) {
    return { status: 409, code: 'already_accepted', message: CHALLENGE.alreadyAccepted };
  }
  if (challenge.status !== 'open') return { status: 409, code: 'not_available', message: CHALLENGE.noLongerAvailable };
  if (challenge.creatorId === acceptor.userId) return { status: 403, code: 'own_challenge', message: CHALLENGE.ownChallenge };
  if (challenge.expiresAt && challenge.expiresAt.getTime() <= now.getTime()) {
    return { status: 409, code: 'not_available', message: CHALLENGE.noLongerAvailable };
  }
  if (challenge.currency !== acceptor.currency) {
    return {
      status: 422,
      code: 'currency_mismatch',
      message: CHALLENGE.currencyMismatch(currencyLabel(challenge.currency), currencyLabel(acceptor.currency)),
    };
  }
  return null;
}

/** SPEC §9: "1 plus joined participants; accepted or completed challenges show the full max". */
export function participantCount(status: ChallengeStatus, maxParticipants: number, joined: number): number {
  if (status === 'accepted' || status === 'completed') return maxParticipants;
  return Math.min(maxParticipants, 1 + joined);
}

/** SPEC §4: open for browsing only if open, no match, no accepter and not expired. */
export function isOpenForBrowsing(
  challenge: { status: ChallengeStatus; matchId: string | null; acceptedBy: string | null; expiresAt: Date | null },
  now: Date,
): boolean {
  return (
    challenge.status === 'open' &&
    !challenge.matchId &&
    !challenge.acceptedBy &&
    (challenge.expiresAt === null || challenge.expiresAt.getTime() > now.getTime())
  );
}

// ---------------------------------------------------------------------------------------
// The client shape (SPEC §3 "Client shape adds ...").

export const creatorProfileSchema = z.object({
  avatar: z.string().nullable(),
  /** Signed in on a socket within the presence window (social presence). */
  isOnline: z.boolean(),
  wins: z.number().int(),
  losses: z.number().int(),
  streak: z.number().int(),
  /** The creator's rating: the games-weighted mean of their Glicko-2 ratings (1500 before any game). */
  rating: z.number().int(),
});

export const playerRefSchema = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  avatar: z.string().nullable(),
});

export const challengeSchema = z.object({
  id: z.string(),
  creatorId: z.string(),
  creator: playerRefSchema,
  creatorProfile: creatorProfileSchema,
  title: z.string(),
  game: z.enum(GAME_IDS),
  gameName: z.string(),
  platform: z.enum(PLATFORMS),
  /** Whole credits each player stakes; the winner receives `payout` (2 × stake, no fee). */
  stake: z.number().int(),
  payout: z.number().int(),
  currency: z.enum(CURRENCIES),
  skillLevel: z.enum(SKILL_LEVELS),
  matchFormat: z.string(),
  maxParticipants: z.number().int(),
  participants: z.number().int(),
  /** Minutes. */
  duration: z.number().int(),
  description: z.string().nullable(),
  rules: z.array(z.string()),
  status: z.enum(CHALLENGE_STATUSES),
  isPrivate: z.boolean(),
  /** The share code of a private challenge: shown to its creator and to whoever found it by code. */
  code: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** "Expired", "Xd Yh", "Xh Ym"; null when the challenge never expires. */
  timeLeft: z.string().nullable(),
  scheduledTime: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  acceptedBy: z.string().nullable(),
  matchId: z.string().nullable(),
  views: z.number().int(),
  likes: z.number().int(),
  creatorGamertag: z.string().nullable(),
});
export type Challenge = z.infer<typeof challengeSchema>;

export const matchSchema = z.object({
  id: z.string(),
  challengeId: z.string().nullable(),
  player1Id: z.string(),
  player2Id: z.string(),
  player1: playerRefSchema,
  player2: playerRefSchema,
  winnerId: z.string().nullable(),
  gameType: z.enum(GAME_IDS),
  platform: z.enum(PLATFORMS),
  stake: z.number().int(),
  betAmount: z.number().int(),
  currency: z.enum(CURRENCIES),
  status: z.enum(MATCH_STATUSES),
  matchFormat: z.string(),
  skillLevel: z.enum(SKILL_LEVELS),
  scheduledTime: z.string().nullable(),
  createdAt: z.string(),
  player1Gamertag: z.string().nullable(),
  player2Gamertag: z.string().nullable(),
  isPrivate: z.boolean(),
  roomCode: z.string().nullable(),
});
export type Match = z.infer<typeof matchSchema>;

// ---------------------------------------------------------------------------------------
// Requests and responses of /api/challenges.

const stakeParam = z.coerce.number().int().min(CHALLENGE_RULES.minStake).max(CHALLENGE_RULES.maxStake);

export const listChallengesQuerySchema = z.object({
  game: z.enum(GAME_IDS).optional(),
  platform: z.enum(PLATFORMS).optional(),
  minStake: stakeParam.optional(),
  maxStake: stakeParam.optional(),
  /** Matched case-insensitively against the title, the message, the game's name and the creator's username. */
  search: z.string().trim().max(SEARCH_MAX).optional(),
});
export type ListChallengesQuery = z.infer<typeof listChallengesQuerySchema>;

export const challengeListSchema = z.object({ challenges: z.array(challengeSchema) });
export type ChallengeList = z.infer<typeof challengeListSchema>;

export const escrowSummarySchema = z.object({
  /** Whole units locked for this player. */
  amount: z.number().int(),
  currency: z.enum(CURRENCIES),
});

export const createChallengeResponseSchema = z.object({
  challenge: challengeSchema,
  escrow: escrowSummarySchema,
  /** "Challenge Created" toast text: "$25 locked in escrow". */
  message: z.string(),
});
export type CreateChallengeResponse = z.infer<typeof createChallengeResponseSchema>;

export const acceptChallengeResponseSchema = z.object({
  challenge: challengeSchema,
  /** Null while a pool is still filling. */
  match: matchSchema.nullable(),
  escrow: escrowSummarySchema,
  /** "Challenge accepted! 25 credits locked in escrow." */
  message: z.string(),
});
export type AcceptChallengeResponse = z.infer<typeof acceptChallengeResponseSchema>;

export const cancelChallengeResponseSchema = z.object({
  challenge: challengeSchema,
  message: z.string(),
});
export type CancelChallengeResponse = z.infer<typeof cancelChallengeResponseSchema>;

export const challengeResponseSchema = z.object({ challenge: challengeSchema });

/** SPEC §3 "Challenge-accepted event", sent to the creator's user topic. */
export interface ChallengeAcceptedEvent {
  acceptorId: string;
  creatorId: string;
  gameType: GameId;
  matchId: string | null;
  challengeId: string;
  betAmount: number;
  opponentName: string;
  isPrivate: boolean;
  roomCode: string | null;
  scheduledTime: string | null;
}

export type { GameId };
