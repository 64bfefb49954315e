// Challenges: create, browse, find by code, accept, cancel, expire. Each change is one transaction:
// the row lock, then the ledger, then the events, so all commit together or not at all.
import crypto from 'node:crypto';
import { AUTH, CHALLENGE, CHALLENGE_RULES } from '@versus/domain';
import {
  acceptRefusal,
  checkNewChallenge,
  cleanMessage,
  defaultTitle,
  isPool,
  participantCount,
  stakeCurrencyFor,
  stakeText,
  type AcceptChallengeResponse,
  type CancelChallengeResponse,
  type Challenge,
  type ChallengeAcceptedEvent,
  type CreateChallengeInput,
  type CreateChallengeResponse,
  type ChallengeList,
  type ListChallengesQuery,
  type Match,
} from '@versus/domain/challenges';
import {
  GAMES,
  GAME_LIST,
  codeFromBytes,
  defaultPublicScheduledTime,
  effectivePlatform,
  expiryFor,
  formatTimeLeft,
  payoutFor,
  timeLeftStableMs,
  type GameId,
} from '@versus/domain/catalogue';
import { currencyLabel, currencyTitle, formatMoney, toMinor } from '@versus/domain/money';
import type { AccessClaims } from '../auth/claims.ts';
import type { Job } from '../jobs/scheduler.ts';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import {
  LedgerError,
  lockStake,
  operationRecorded,
  releaseEscrow,
  transferHolds,
  type EscrowOwner,
  type LockInput,
} from '../ledger/ledger.service.ts';
import { publish, topics } from '../realtime/publish.ts';
import { notify } from '../notifications/notify.ts';
import { notifyChallengeAccepted } from '../notifications/notifications.service.ts';
import type { CacheEntry } from './challenges.cache.ts';
import * as repo from './challenges.repository.ts';

/** All the service needs of the app's context (the demo seeder has only a database). */
export type ServiceContext = Pick<AppContext, 'db' | 'challengeList'>;

// ---------------------------------------------------------------------------------------
// The client shape

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

export function toChallenge(row: repo.ChallengeRow, now: Date, options: { showCode: boolean }): Challenge {
  return {
    id: row.id,
    creatorId: row.creator_id,
    creator: { id: row.creator_id, username: row.creator_username, displayName: row.creator_display_name, avatar: row.creator_avatar },
    creatorProfile: {
      avatar: row.creator_avatar,
      isOnline: row.creator_online,
      wins: row.creator_wins,
      losses: row.creator_losses,
      streak: row.creator_streak,
      rating: row.creator_rating,
    },
    title: row.title,
    game: row.game,
    gameName: GAMES[row.game].name,
    platform: row.platform,
    stake: row.stake,
    payout: payoutFor(row.stake),
    currency: row.currency,
    skillLevel: row.skill_level,
    matchFormat: row.match_format,
    maxParticipants: row.max_participants,
    participants: participantCount(row.status, row.max_participants, row.joined),
    duration: row.duration,
    description: row.description,
    rules: row.rules,
    status: row.status,
    isPrivate: row.code !== null,
    code: options.showCode ? row.code : null,
    expiresAt: iso(row.expires_at),
    timeLeft: row.status === 'open' ? formatTimeLeft(row.expires_at, now) : null,
    scheduledTime: iso(row.scheduled_time),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
    acceptedBy: row.accepted_by,
    matchId: row.match_id,
    views: row.views,
    likes: row.likes,
    creatorGamertag: row.creator_gamertag,
  };
}

/** The columns of a match row every view of it shares (the players' names come separately). */
export type MatchColumns = Pick<
  repo.MatchRow,
  | 'id'
  | 'challenge_id'
  | 'player1_id'
  | 'player2_id'
  | 'winner_id'
  | 'game_type'
  | 'platform'
  | 'stake'
  | 'bet_amount'
  | 'currency'
  | 'status'
  | 'match_format'
  | 'skill_level'
  | 'scheduled_time'
  | 'created_at'
  | 'player1_gamertag'
  | 'player2_gamertag'
  | 'is_private'
  | 'room_code'
>;

/** A match row to the client's Match, given its two players. */
export function matchFrom(row: MatchColumns, player1: Match['player1'], player2: Match['player2']): Match {
  return {
    id: row.id,
    challengeId: row.challenge_id,
    player1Id: row.player1_id,
    player2Id: row.player2_id,
    player1,
    player2,
    winnerId: row.winner_id,
    gameType: row.game_type,
    platform: row.platform,
    stake: row.stake,
    betAmount: row.bet_amount,
    currency: row.currency,
    status: row.status,
    matchFormat: row.match_format,
    skillLevel: row.skill_level,
    scheduledTime: iso(row.scheduled_time),
    createdAt: iso(row.created_at)!,
    player1Gamertag: row.player1_gamertag,
    player2Gamertag: row.player2_gamertag,
    isPrivate: row.is_private,
    roomCode: row.room_code,
  };
}

export function toMatch(row: repo.MatchRow): Match {
  return matchFrom(
    row,
    { id: row.player1_id, username: row.player1_username, displayName: row.player1_display_name, avatar: row.player1_avatar },
    { id: row.player2_id, username: row.player2_username, displayName: row.player2_display_name, avatar: row.player2_avatar },
  );
}

/** Who may see a private challenge's code (and the challenge itself by id): its players. */
async function isPlayerOf(db: Queryable, row: { id: string; creator_id: string; accepted_by: string | null }, userId: string | null) {
  if (!userId) return false;
  if (row.creator_id === userId || row.accepted_by === userId) return true;
  return repo.isParticipant(db, row.id, userId);
}

// ---------------------------------------------------------------------------------------
// Create

export interface CreateOptions {
  /** The Idempotency-Key header: a replay returns the first result and locks nothing more. */
  idempotencyKey?: string | undefined;
  now?: Date;
  /** Draws a share code (tests pass a scripted one to force collisions). */
  drawCode?: () => string;
}

export interface CreateResult extends CreateChallengeResponse {
  /** True when this was a replay of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

const drawRandomCode = () => codeFromBytes(crypto.randomBytes(CHALLENGE_RULES.codeLength));
const CODE_ATTEMPTS = 8;

function requestHash(input: CreateChallengeInput): string {
  return crypto.createHash('sha256').update(JSON.stringify(input)).digest('hex');
}

export async function createChallenge(
  ctx: ServiceContext,
  user: AccessClaims,
  input: CreateChallengeInput,
  options: CreateOptions = {},
): Promise<CreateResult> {
  const now = options.now ?? new Date();
  const invalid = checkNewChallenge(input, now);
  if (invalid) throw badRequest('invalid_input', invalid.message, invalid.field);
  const key = options.idempotencyKey;
  const hash = key ? requestHash(input) : null;
  const drawCode = options.drawCode ?? drawRandomCode;

  const result = await ctx.db.transaction(async (tx) => {
    if (key) {
      await repo.lockIdempotencyKey(tx, user.userId, key);
      const existing = await repo.findByIdempotencyKey(tx, user.userId, key);
      if (existing) {
        if (existing.request_hash !== hash) throw conflict('idempotency_key_reused', CHALLENGE.idempotencyReused);
        return { id: existing.id, replayed: true };
      }
    }
    const player = await repo.findPlayer(tx, user.userId);
    if (!player) throw forbidden(AUTH.profileFailed);
    if (player.account_type === 'virtual' && !input.isPrivate) {
      throw badRequest('virtual_private_only', CHALLENGE.virtualPrivateOnly, 'isPrivate');
    }
    const currency = stakeCurrencyFor({ role: player.role, accountType: player.account_type });
    const id = crypto.randomUUID();

    try {
      await lockStake(
        tx,
        { userId: user.userId, role: player.role, accountType: player.account_type },
        {
          idempotencyKey: `challenge:${id}:lock:${user.userId}`,
          userId: user.userId,
          amount: toMinor(input.stake),
          currency,
          owner: { challengeId: id },
          description: `Stake for ${GAMES[input.game].name} challenge`,
        },
      );
    } catch (error) {
      throw insufficientToCreate(error) ?? error;
    }

    const base: repo.NewChallenge = {
      id,
      creatorId: user.userId,
      title: input.title?.trim() || defaultTitle(input.game),
      game: input.game,
      platform: effectivePlatform(input.game, input.platform)!,
      stake: input.stake,
      currency,
      skillLevel: input.skillLevel,
      matchFormat: CHALLENGE_RULES.matchFormat,
      maxParticipants: input.maxParticipants,
      duration: input.duration,
      description: cleanMessage(input.message),
      rules: input.rules.map((r) => r.trim()).filter(Boolean),
      code: null,
      expiresAt: expiryFor(now, input.duration, input.noExpiry),
      // Public: the chosen slot or 30 minutes ahead. Private: the chosen slot, else set at acceptance.
      scheduledTime: input.scheduledTime ? new Date(input.scheduledTime) : input.isPrivate ? null : defaultPublicScheduledTime(now),
      createdAt: now,
      creatorGamertag: input.gamertag?.trim() || null,
      idempotencyKey: key ?? null,
      requestHash: hash,
    };
    if (!input.isPrivate) {
      await repo.insertChallenge(tx, base);
    } else {
      // A taken code is skipped (ON CONFLICT DO NOTHING), so the transaction stays usable.
      let inserted = false;
      for (let attempt = 0; attempt < CODE_ATTEMPTS && !inserted; attempt++) {
        inserted = await repo.insertChallenge(tx, { ...base, code: drawCode() });
      }
      if (!inserted) throw new Error('could not draw a free challenge code');
      if (isPool(input)) {
        await repo.insertPool(tx, { challengeId: id, maxParticipants: input.maxParticipants, stake: input.stake, currency });
      }
    }

    const row = (await repo.findChallenge(tx, id))!;
    const challenge = toChallenge(row, now, { showCode: true });
    await publish(tx, topics.user(user.userId), 'challenge.created', { challengeId: id, status: 'open' });
    if (!input.isPrivate) await publish(tx, topics.challenges(), 'challenge.created', { challengeId: id, status: 'open', challenge });
    return { id, replayed: false };
  });

  if (!result.replayed) ctx.challengeList.invalidate();
  const row = await repo.findChallenge(ctx.db, result.id);
  if (!row) throw new Error(`challenge ${result.id} vanished after creation`);
  const challenge = toChallenge(row, now, { showCode: true });
  return {
    challenge,
    escrow: { amount: challenge.stake, currency: challenge.currency },
    message: createdMessage(challenge),
    replayed: result.replayed,
  };
}

/** The creation's answer as it stands now: a replay of a challenge closed since does not claim its stake is locked. */
function createdMessage(challenge: Challenge): string {
  switch (challenge.status) {
    case 'cancelled':
      return CHALLENGE.createdThenCancelled;
    case 'expired':
      return CHALLENGE.createdThenExpired;
    case 'completed':
      return CHALLENGE.createdThenCompleted;
    case 'open':
    case 'accepted':
      return CHALLENGE.lockedInEscrow(stakeText(challenge.stake, challenge.currency));
  }
}

function insufficientToCreate(error: unknown): AppError | null {
  if (!(error instanceof LedgerError) || error.refusal.error !== 'insufficient') return null;
  const currency = error.refusal.currency ?? 'credits';
  return new AppError(
    409,
    'insufficient_funds',
    CHALLENGE.insufficientToCreate(
      currencyTitle(currency),
      currencyLabel(currency),
      formatMoney(error.refusal.needed ?? 0, currency),
      formatMoney(error.refusal.available ?? 0, currency),
    ),
    'stake',
  );
}

// ---------------------------------------------------------------------------------------
// Read

/** Escapes LIKE's wildcards so a search for "50%" means those characters. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function listKey(query: ListChallengesQuery): { key: string; filters: repo.ListFilters } {
  const search = query.search?.trim() || undefined;
  const needle = search?.toLowerCase();
  const filters: repo.ListFilters = {
    game: query.game,
    platform: query.platform,
    minStake: query.minStake,
    maxStake: query.maxStake,
    searchPattern: search && likePattern(search),
    searchGames: needle
      ? GAME_LIST.filter((g) => g.name.toLowerCase().includes(needle) || g.id.includes(needle)).map((g): GameId => g.id)
      : undefined,
  };
  return { key: JSON.stringify([filters.game, filters.platform, filters.minStake, filters.maxStake, needle]), filters };
}

async function openListEntry(ctx: ServiceContext, query: ListChallengesQuery, now: Date): Promise<CacheEntry> {
  const { key, filters } = listKey(query);
  const cache = ctx.challengeList;
  const cached = cache.get(key, now.getTime());
  if (cached) return cached;
  const generation = cache.generation;
  const rows = await repo.listOpenPublic(ctx.db, filters, now, CHALLENGE_RULES.listLimit);
  return cache.set(key, rows, now.getTime(), generation);
}

// Cached rows may have expired since they were read: the expiry job's event clears the cache,
// and this check covers the minutes until it runs.
const stillOpen = (row: repo.ChallengeRow, now: Date) => row.expires_at === null || new Date(row.expires_at).getTime() > now.getTime();

/** The marketplace body (SPEC §3), rendered once per cached list and served as is until a time-left text in it would change. */
export async function listOpenChallengesBody(ctx: ServiceContext, query: ListChallengesQuery, now = new Date()): Promise<Buffer> {
  const entry = await openListEntry(ctx, query, now);
  const nowMs = now.getTime();
  if (entry.body && nowMs < entry.body.validUntil) return entry.body.json;
  const open = entry.rows.filter((row) => stillOpen(row, now));
  const body: ChallengeList = { challenges: open.map((row) => toChallenge(row, now, { showCode: false })) };
  const stableMs = Math.min(...open.map((row) => timeLeftStableMs(row.expires_at, now)));
  entry.body = { json: Buffer.from(JSON.stringify(body)), validUntil: nowMs + stableMs };
  return entry.body.json;
}

/** One challenge by id; counts a view. Private ones are visible to their players only. */
export async function viewChallenge(ctx: ServiceContext, viewer: AccessClaims | null, id: string, now = new Date()): Promise<Challenge> {
  const row = await repo.findChallenge(ctx.db, id);
  if (!row) throw notFound(CHALLENGE.notFound);
  const isPlayer = await isPlayerOf(ctx.db, row, viewer?.userId ?? null);
  if (row.code !== null && !isPlayer) throw notFound(CHALLENGE.notFound);
  const viewed = (await repo.viewChallenge(ctx.db, id)) ?? row;
  return toChallenge(viewed, now, { showCode: isPlayer });
}

/** SPEC §5 code search: only open, unexpired challenges match; whoever has the code sees it. */
export async function findChallengeByCode(ctx: ServiceContext, code: string, now = new Date()): Promise<Challenge> {
  const row = await repo.findOpenByCode(ctx.db, code, now);
  if (!row) throw notFound(CHALLENGE.notFound);
  return toChallenge(row, now, { showCode: true });
}

export async function listMyChallenges(ctx: ServiceContext, user: AccessClaims, now = new Date()): Promise<Challenge[]> {
  const rows = await repo.listMine(ctx.db, user.userId, 100);
  return rows.map((row) => toChallenge(row, now, { showCode: true }));
}

/** SPEC §9's 5-minute preview window: my open challenges that expire within it. */
export async function listExpiringSoon(ctx: ServiceContext, user: AccessClaims, now = new Date()): Promise<Challenge[]> {
  const until = new Date(now.getTime() + CHALLENGE_RULES.expiryPreviewMs);
  const rows = await repo.listExpiringSoon(ctx.db, user.userId, now, until);
  return rows.map((row) => toChallenge(row, now, { showCode: true }));
}

// ---------------------------------------------------------------------------------------
// Accept

export interface AcceptOptions {
  /** A private challenge is accepted with its code (found by code search). */
  code?: string | undefined;
  gamertag?: string | undefined;
  /** The Idempotency-Key header: a retry of a pool join returns its answer and locks nothing more. */
  idempotencyKey?: string | undefined;
  now?: Date;
}

export async function acceptChallenge(
  ctx: ServiceContext,
  user: AccessClaims,
  challengeId: string,
  options: AcceptOptions = {},
): Promise<AcceptChallengeResponse> {
  const now = options.now ?? new Date();
  const outcome = await ctx.db.transaction(async (tx) => {
    // The row lock serialises every accept, cancel and expiry of this challenge: whoever gets
    // it second sees the first one's result.
    const challenge = await repo.lockChallenge(tx, challengeId);
    if (!challenge) throw notFound(CHALLENGE.notFound);
    if (challenge.code !== null && challenge.code !== options.code?.trim().toUpperCase()) {
      const isPlayer = challenge.creator_id === user.userId || challenge.accepted_by === user.userId;
      if (!isPlayer && !(await repo.isParticipant(tx, challenge.id, user.userId))) throw notFound(CHALLENGE.notFound);
    }
    const player = await repo.findPlayer(tx, user.userId);
    if (!player) throw forbidden(AUTH.profileFailed);
    const currency = stakeCurrencyFor({ role: player.role, accountType: player.account_type });
    const pool = challenge.max_participants > 2;

    // A retry by the player who won: the same answer, nothing moves again.
    if (
      challenge.status === 'accepted' &&
      (challenge.accepted_by === user.userId || (pool && (await repo.isParticipant(tx, challenge.id, user.userId))))
    ) {
      return { kind: 'replay' as const, matchId: challenge.match_id, joined: null };
    }
    const stakeLock = (owner: EscrowOwner, key = `challenge:${challenge.id}:lock:${user.userId}`): LockInput => ({
      idempotencyKey: key,
      userId: user.userId,
      amount: toMinor(challenge.stake),
      currency: challenge.currency,
      owner,
      description: `Stake for ${GAMES[challenge.game].name} challenge`,
    });
    // Its own ledger key (the player's id keeps players apart), so a retried join can be told from a new one.
    const joinKey = options.idempotencyKey ? `challenge:${challenge.id}:lock:${user.userId}:${options.idempotencyKey}` : undefined;
    if (pool && challenge.status === 'open' && (await repo.isParticipant(tx, challenge.id, user.userId))) {
      // Its join's stake was locked under this key: a retry, answered as before; nothing moves.
      if (joinKey && (await operationRecorded(tx, joinKey))) {
        return { kind: 'replay' as const, matchId: null, joined: null };
      }
      throw conflict('already_joined', CHALLENGE.alreadyJoined);
    }
    const refusal = acceptRefusal(
      {
        status: challenge.status,
        creatorId: challenge.creator_id,
        acceptedBy: challenge.accepted_by,
        matchId: challenge.match_id,
        currency: challenge.currency,
        expiresAt: challenge.expires_at && new Date(challenge.expires_at),
      },
      { userId: user.userId, currency },
      now,
    );
    if (refusal) throw new AppError(refusal.status, refusal.code, refusal.message);

    const lockMine = async (owner: EscrowOwner, key?: string) => {
      try {
        await lockStake(tx, { userId: user.userId, role: player.role, accountType: player.account_type }, stakeLock(owner, key));
      } catch (error) {
        throw insufficientToAccept(error) ?? error;
      }
    };

    const gamertag = options.gamertag?.trim() || null;
    const joinedBefore = pool ? await repo.participantIds(tx, challenge.id) : [];
    const full = !pool || 2 + joinedBefore.length >= challenge.max_participants;
    if (pool) await repo.insertParticipant(tx, { challengeId: challenge.id, userId: user.userId, gamertag });
    if (!full) {
      // A pool still filling: the joiner's stake waits with the others, owned by the challenge.
      await lockMine({ challengeId: challenge.id }, joinKey);
      const participants = 2 + joinedBefore.length;
      await repo.touchChallenge(tx, challenge.id, now);
      await notify(tx, {
        userId: challenge.creator_id,
        type: 'player_joined_pool_challenge',
        metadata: {
          username: player.display_name || player.username,
          challengeId: challenge.id,
          gameType: challenge.game,
          joined: participants,
          maxPlayers: challenge.max_participants,
        },
        now,
      });
      await publish(tx, topics.user(challenge.creator_id), 'challenge.joined', {
        challengeId: challenge.id,
        userId: user.userId,
        participants,
        maxParticipants: challenge.max_participants,
      });
      await publishChallengeChange(tx, challenge, 'challenge.joined', 'open');
      return { kind: 'joined' as const, matchId: null, joined: participants };
    }

    // A full pool's match is the creator against its first joiner; the arena reads the rest from the participants.
    const opponentId = pool ? (joinedBefore[0] ?? user.userId) : user.userId;
    const matchId = crypto.randomUUID();
    const scheduledTime = challenge.scheduled_time ? new Date(challenge.scheduled_time) : now;
    await repo.insertMatch(tx, {
      id: matchId,
      challengeId: challenge.id,
      player1Id: challenge.creator_id,
      player2Id: opponentId,
      gameType: challenge.game,
      platform: challenge.platform,
      stake: challenge.stake,
      currency: challenge.currency,
      matchFormat: challenge.match_format,
      skillLevel: challenge.skill_level,
      scheduledTime,
      player1Gamertag: challenge.creator_gamertag,
      player2Gamertag: opponentId === user.userId ? gamertag : null,
      isPrivate: challenge.code !== null,
      roomCode: challenge.code,
      duration: challenge.duration,
    });
    // Held stakes move first, then the acceptor's is locked: holds before accounts, the ledger's lock order.
    const moved = await transferHolds(tx, { fromOwnerId: challenge.id, to: { matchId } });
    if (moved !== challenge.max_participants - 1) throw conflict('escrow_missing', CHALLENGE.creatorEscrowMissing);
    await lockMine({ matchId });
    if (!(await repo.markAccepted(tx, { id: challenge.id, acceptedBy: user.userId, matchId, scheduledTime, now }))) {
      throw conflict('already_accepted', CHALLENGE.alreadyAccepted);
    }

    const event: ChallengeAcceptedEvent = {
      acceptorId: user.userId,
      creatorId: challenge.creator_id,
      gameType: challenge.game,
      matchId,
      challengeId: challenge.id,
      betAmount: challenge.stake,
      opponentName: player.display_name || player.username,
      isPrivate: challenge.code !== null,
      roomCode: challenge.code,
      scheduledTime: scheduledTime.toISOString(),
    };
    await publish(tx, topics.user(challenge.creator_id), 'challenge.accepted', event);
    await notifyChallengeAccepted(tx, event, { currency: challenge.currency }, now);
    await publishChallengeChange(tx, challenge, 'challenge.accepted', 'accepted');
    return { kind: 'accepted' as const, matchId, joined: null };
  });

  if (outcome.kind !== 'replay') ctx.challengeList.invalidate();
  const row = (await repo.findChallenge(ctx.db, challengeId))!;
  const challenge = toChallenge(row, now, { showCode: row.code !== null });
  const match = outcome.matchId ? await repo.findMatch(ctx.db, outcome.matchId) : null;
  const label = currencyLabel(row.currency);
  return {
    challenge,
    match: match && toMatch(match),
    escrow: { amount: row.stake, currency: row.currency },
    message:
      outcome.matchId === null
        ? CHALLENGE.joinedPool(String(row.stake), label, outcome.joined ?? challenge.participants, row.max_participants)
        : CHALLENGE.accepted(String(row.stake), label),
  };
}

function insufficientToAccept(error: unknown): AppError | null {
  if (!(error instanceof LedgerError) || error.refusal.error !== 'insufficient') return null;
  const currency = error.refusal.currency ?? 'credits';
  return new AppError(
    409,
    'insufficient_funds',
    CHALLENGE.insufficientToAccept(
      currencyLabel(currency),
      formatMoney(error.refusal.needed ?? 0, currency),
      formatMoney(error.refusal.available ?? 0, currency),
    ),
  );
}

/**
 * The marketplace feed hears only about public challenges; the challenge's own topic about every change. Every public
 * challenge's change numbers the feed's one topic row, locked until the commit: callers publish it last.
 */
async function publishChallengeChange(
  tx: Queryable,
  challenge: { id: string; code: string | null },
  type: string,
  status: Challenge['status'],
): Promise<void> {
  const payload = { challengeId: challenge.id, status };
  await publish(tx, topics.challenge(challenge.id), type, payload);
  if (challenge.code === null) await publish(tx, topics.challenges(), type, payload);
}

// ---------------------------------------------------------------------------------------
// Cancel and expire

export async function cancelChallenge(
  ctx: ServiceContext,
  user: AccessClaims,
  challengeId: string,
  now = new Date(),
): Promise<CancelChallengeResponse> {
  const replayed = await ctx.db.transaction(async (tx) => {
    const challenge = await repo.lockChallenge(tx, challengeId);
    if (!challenge) throw notFound(CHALLENGE.notFound);
    if (challenge.creator_id !== user.userId) {
      // A stranger learns nothing about a private challenge.
      if (challenge.code !== null) throw notFound(CHALLENGE.notFound);
      throw forbidden(CHALLENGE.onlyCreatorCancels);
    }
    if (challenge.status === 'cancelled') return true;
    if (challenge.status !== 'open') throw conflict('not_open', CHALLENGE.cancelNotOpen);
    await closeOpenChallenge(tx, challenge, 'cancelled', now);
    return false;
  });
  if (!replayed) ctx.challengeList.invalidate();
  const row = (await repo.findChallenge(ctx.db, challengeId))!;
  return {
    challenge: toChallenge(row, now, { showCode: true }),
    message: CHALLENGE.cancelled(String(row.stake), currencyLabel(row.currency)),
  };
}

/** open → cancelled | expired, every stake back to its player; the caller holds the row lock. */
async function closeOpenChallenge(
  tx: Queryable,
  challenge: repo.LockedChallenge,
  status: 'cancelled' | 'expired',
  now: Date,
): Promise<void> {
  await releaseEscrow(tx, {
    idempotencyKey: `challenge:${challenge.id}:${status}`,
    owner: { challengeId: challenge.id },
    description: status === 'cancelled' ? 'Challenge cancelled' : 'Challenge expired',
  });
  if (!(await repo.markClosed(tx, challenge.id, status, now))) throw conflict('not_open', CHALLENGE.cancelNotOpen);
  if (status === 'expired') {
    await notify(tx, {
      userId: challenge.creator_id,
      type: 'challenge_expired',
      metadata: { challengeId: challenge.id, gameType: challenge.game, betAmount: challenge.stake, currency: challenge.currency },
      now,
    });
  }
  await publish(tx, topics.user(challenge.creator_id), `challenge.${status}`, { challengeId: challenge.id, status });
  await publishChallengeChange(tx, challenge, `challenge.${status}`, status);
}

/** Expires every due open challenge, each in its own transaction so one failure holds back no other; returns how many. */
export async function expireDueChallenges(ctx: ServiceContext, now = new Date(), batch = 200): Promise<number> {
  let expired = 0;
  const failed = new Set<string>();
  let lastError: unknown;
  for (;;) {
    const due = (await repo.dueForExpiry(ctx.db, now, batch + failed.size)).filter((id) => !failed.has(id));
    if (due.length === 0) break;
    for (const id of due) {
      try {
        const done = await ctx.db.transaction(async (tx) => {
          const challenge = await repo.lockChallenge(tx, id);
          // Accepted or cancelled while we were on our way: nothing to do.
          if (!challenge || challenge.status !== 'open' || !challenge.expires_at || new Date(challenge.expires_at) > now) return false;
          await closeOpenChallenge(tx, challenge, 'expired', now);
          return true;
        });
        if (done) expired += 1;
      } catch (error) {
        failed.add(id);
        lastError = error;
      }
    }
    if (due.length < batch) break;
  }
  if (expired > 0) ctx.challengeList.invalidate();
  if (failed.size > 0) throw new Error(`expiry failed for ${failed.size} challenge(s), ${expired} expired`, { cause: lastError });
  return expired;
}

/** SPEC §9's 5-minute preview window: tells each creator once (`challenge.expiring`) that an open challenge of theirs is in it. */
export async function warnExpiringSoon(ctx: ServiceContext, now = new Date()): Promise<number> {
  const until = new Date(now.getTime() + CHALLENGE_RULES.expiryPreviewMs);
  return ctx.db.transaction(async (tx) => {
    const rows = await repo.markExpiryWarned(tx, now, until);
    for (const row of rows) {
      await publish(tx, topics.user(row.creator_id), 'challenge.expiring', {
        challengeId: row.id,
        expiresAt: iso(row.expires_at),
        timeLeft: formatTimeLeft(row.expires_at, now),
        isPrivate: row.code !== null,
      });
    }
    return rows.length;
  });
}

/** The automatic expiry (SPEC §9: every 3 minutes, once across processes). */
export function expiryJob(ctx: ServiceContext): Job {
  return {
    name: 'challenges.expire',
    everyMs: CHALLENGE_RULES.expiryCheckMs,
    runAtStart: true,
    async run() {
      const now = new Date();
      const expired = await expireDueChallenges(ctx, now);
      const warned = await warnExpiringSoon(ctx, now);
      return { expired, warned };
    },
  };
}
