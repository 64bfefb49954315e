// Private rooms and the maintenance that ends abandoned ones. Each change is one transaction: the room's
// row lock, then the ledger, then the events, so all commit together or not at all.
import crypto from 'node:crypto';
import { AUTH, ROOMS, type Currency } from '@versus/domain';
import { codeFromBytes, isWebGame } from '@versus/domain/catalogue';
import { stakeCurrencyFor } from '@versus/domain/challenges';
import { toMinor } from '@versus/domain/money';
import {
  ROOM_LIMITS,
  checkNewRoom,
  gameName,
  liveArenaPath,
  type CreateRoomRequest,
  type CreateRoomResponse,
  type JoinRoomResponse,
  type Room,
  type RoomClosedEvent,
  type RoomJoinedEvent,
  type RoomPreview,
} from '@versus/domain/rooms';
import type { AccessClaims } from '../auth/claims.ts';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import { LedgerError, lockStake, releaseEscrow, transferHolds } from '../ledger/ledger.service.ts';
import { publish, topics } from '../realtime/publish.ts';
import { notify, notifyOrIgnore } from '../notifications/notify.ts';
import { finishStored, noShowEnding } from '../arena/arena.finish.ts';
import * as arenaRepo from '../arena/arena.repository.ts';
import * as repo from './rooms.repository.ts';

export type ServiceContext = Pick<AppContext, 'db' | 'log'>;

const iso = (value: Date | string): string => new Date(value).toISOString();

export function toRoom(row: repo.RoomRow): Room {
  return {
    id: row.id,
    roomCode: row.room_code,
    creatorId: row.creator_id,
    creator: { id: row.creator_id, username: row.creator_username, displayName: row.creator_display_name },
    joinerId: row.joiner_id,
    gameType: row.game_type,
    gameName: gameName(row.game_type),
    betTier: row.bet_tier,
    currency: row.currency,
    message: row.message,
    status: row.status,
    matchId: row.match_id,
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
  };
}

export function toPreview(row: repo.RoomRow): RoomPreview {
  return {
    roomCode: row.room_code,
    gameType: row.game_type,
    gameName: gameName(row.game_type),
    betTier: row.bet_tier,
    currency: row.currency,
    message: row.message,
    status: row.status,
    creator: { username: row.creator_username, displayName: row.creator_display_name },
    expiresAt: iso(row.expires_at),
  };
}

const isExpired = (row: repo.RoomRow, now: Date) => new Date(row.expires_at).getTime() <= now.getTime();

/** The ledger's "insufficient" refusal in the room's words; any other error as it is. */
function reword(error: unknown, message: string): unknown {
  if (error instanceof LedgerError && error.refusal.error === 'insufficient')
    return new AppError(409, 'insufficient_funds', message, 'betTier');
  return error;
}

/** Closes a room that still holds its creator's stake: stake released, status set, events out. */
async function closeRoom(tx: Queryable, room: repo.RoomRow, status: 'cancelled' | 'expired', now: Date): Promise<boolean> {
  if (!(await repo.close(tx, room.id, status, now))) return false;
  await releaseEscrow(tx, {
    idempotencyKey: `room:${room.id}:${status}`,
    owner: { roomId: room.id },
    description: status === 'cancelled' ? 'Private room cancelled' : 'Private room expired',
  });
  const event: RoomClosedEvent = { roomCode: room.room_code, status };
  await publish(tx, topics.room(room.room_code), `room.${status}`, event);
  if (status === 'expired') {
    await notify(tx, {
      userId: room.creator_id,
      type: 'escrow_released',
      metadata: { amount: room.bet_tier, currency: room.currency, roomCode: room.room_code, gameType: room.game_type },
      now,
    });
  }
  await publish(tx, topics.user(room.creator_id), `room.${status}`, event);
  return true;
}

// ---------------------------------------------------------------------------------------
// Create

export interface CreateOptions {
  now?: Date;
  /** Draws a code (tests pass a scripted one to force collisions). */
  drawCode?: () => string;
}

const drawRandomCode = () => codeFromBytes(crypto.randomBytes(ROOM_LIMITS.codeLength));
const CODE_ATTEMPTS = 8;

export async function createRoom(
  ctx: ServiceContext,
  user: AccessClaims,
  input: CreateRoomRequest,
  options: CreateOptions = {},
): Promise<CreateRoomResponse> {
  const now = options.now ?? new Date();
  const checked = checkNewRoom(input);
  if (!checked.ok) throw badRequest('invalid_input', checked.message, checked.field);
  const { gameType, betTier, message } = checked.room;
  const drawCode = options.drawCode ?? drawRandomCode;

  const id = await ctx.db.transaction(async (tx) => {
    const player = await repo.findPlayer(tx, user.userId);
    if (!player) throw forbidden(AUTH.profileFailed);
    // My rooms that ran out of time but the job has not reached yet: expire them now (their
    // stake released), so they do not count as active (SPEC's cleanup_user_private_rooms).
    const stillActive = await activeAfterCleanup(tx, user.userId, now);
    if (stillActive) throw conflict('active_room', ROOMS.activeRoom(stillActive.room_code));

    const currency: Currency = stakeCurrencyFor({ role: player.role, accountType: player.account_type });
    const roomId = crypto.randomUUID();
    const base = {
      id: roomId,
      creatorId: user.userId,
      gameType,
      betTier,
      currency,
      message,
      now,
      expiresAt: new Date(now.getTime() + ROOM_LIMITS.expiryMs),
    };
    let inserted = false;
    for (let attempt = 0; attempt < CODE_ATTEMPTS && !inserted; attempt++) {
      inserted = await repo.insertRoom(tx, { ...base, code: drawCode() });
      if (!inserted) {
        // Either the code is taken or another request of mine opened a room meanwhile.
        const [other] = await repo.listActive(tx, user.userId);
        if (other) throw conflict('active_room', ROOMS.activeRoom(other.room_code));
      }
    }
    if (!inserted) throw new Error('could not draw a free room code');

    try {
      await lockStake(
        tx,
        { userId: user.userId, role: player.role, accountType: player.account_type },
        {
          idempotencyKey: `room:${roomId}:lock:${user.userId}`,
          userId: user.userId,
          amount: toMinor(betTier),
          currency,
          owner: { roomId },
          description: `Stake for private ${gameName(gameType)} room`,
        },
      );
    } catch (error) {
      throw reword(error, ROOMS.insufficientToCreate);
    }
    const row = (await repo.findById(tx, roomId))!;
    await publish(tx, topics.user(user.userId), 'room.created', { roomCode: row.room_code, status: row.status });
    return roomId;
  });

  const row = await repo.findById(ctx.db, id);
  if (!row) throw new Error(`room ${id} vanished after creation`);
  return { room: toRoom(row), escrow: { amount: row.bet_tier, currency: row.currency }, message: ROOMS.created(row.room_code) };
}

async function activeAfterCleanup(tx: Queryable, userId: string, now: Date): Promise<repo.RoomRow | null> {
  for (const candidate of await repo.listActive(tx, userId)) {
    if (candidate.creator_id !== userId) return candidate;
    const room = await repo.lockById(tx, candidate.id);
    if (!room || !['waiting_for_player', 'both_joined'].includes(room.status)) continue;
    if (room.status === 'waiting_for_player' && isExpired(room, now)) {
      await closeRoom(tx, room, 'expired', now);
      continue;
    }
    return room;
  }
  return null;
}

// ---------------------------------------------------------------------------------------
// Read

/** My active room (creator or joiner), or null. */
export async function myRoom(ctx: ServiceContext, user: AccessClaims, now = new Date()): Promise<Room | null> {
  const rows = await repo.listActive(ctx.db, user.userId);
  const live = rows.find((r) => r.status !== 'waiting_for_player' || !isExpired(r, now));
  return live ? toRoom(live) : null;
}

/** The public preview for the join screen: a waiting room only ("Room not found"). */
export async function previewRoom(ctx: ServiceContext, code: string, now = new Date()): Promise<RoomPreview> {
  const row = await repo.findWaitingByCode(ctx.db, code);
  if (!row || isExpired(row, now)) throw notFound(ROOMS.notFound);
  return toPreview(row);
}

// ---------------------------------------------------------------------------------------
// Join

export async function joinRoom(ctx: ServiceContext, user: AccessClaims, code: string, now = new Date()): Promise<JoinRoomResponse> {
  const outcome = await ctx.db.transaction(async (tx) => {
    // The row lock serialises every join, cancel and expiry of this room: whoever comes second
    // sees the first one's result and changes nothing.
    const room = await repo.lockByCode(tx, code);
    if (!room || room.status === 'cancelled') throw notFound(ROOMS.notFound);
    if (room.creator_id === user.userId) throw badRequest('own_room', ROOMS.ownRoom);
    // A retry by the player who joined: the same answer, nothing moves again.
    if (room.status === 'match_created' && room.joiner_id === user.userId && room.match_id)
      return { roomId: room.id, matchId: room.match_id };
    if (room.status === 'both_joined' || room.status === 'match_created') throw conflict('room_full', ROOMS.full);
    if (room.status === 'expired' || isExpired(room, now)) throw new AppError(410, 'room_expired', ROOMS.expired);
    const joiner = await repo.findPlayer(tx, user.userId);
    if (!joiner) throw forbidden(AUTH.profileFailed);

    if (!(await repo.markBothJoined(tx, room.id, user.userId, now))) throw conflict('room_full', ROOMS.full);
    const matchId = crypto.randomUUID();
    await repo.insertMatch(tx, {
      id: matchId,
      player1Id: room.creator_id,
      player2Id: user.userId,
      gameType: room.game_type,
      stake: room.bet_tier,
      currency: room.currency,
      scheduledTime: now,
      roomCode: room.room_code,
    });
    // The creator's stake moves from the room to the match, then the joiner's is locked for it:
    // holds before accounts, the ledger's lock order. The match settles both when it ends.
    const moved = await transferHolds(tx, { fromOwnerId: room.id, to: { matchId } });
    if (moved !== 1) throw new Error(`room ${room.id}: expected the creator's stake in escrow, found ${moved}`);
    try {
      await lockStake(
        tx,
        { userId: user.userId, role: joiner.role, accountType: joiner.account_type },
        {
          idempotencyKey: `room:${room.id}:lock:${user.userId}`,
          userId: user.userId,
          amount: toMinor(room.bet_tier),
          currency: room.currency,
          owner: { matchId },
          description: `Stake for private ${gameName(room.game_type)} room`,
        },
      );
    } catch (error) {
      throw reword(error, ROOMS.insufficientToJoin);
    }
    if (!(await repo.markMatchCreated(tx, room.id, matchId, now))) throw new Error(`room ${room.id}: could not record its match`);

    const event: RoomJoinedEvent = {
      joinerId: user.userId,
      username: joiner.username,
      gameType: room.game_type,
      roomCode: room.room_code,
      isPrivateRoom: true,
      betAmount: room.bet_tier,
      matchId,
      status: 'match_created',
    };
    await publish(tx, topics.user(room.creator_id), 'room.joined', event);
    await notifyOrIgnore(
      tx,
      { userId: room.creator_id, type: 'player_joined_room', metadata: { ...event, currency: room.currency }, matchId, now },
      ctx.log,
    );
    await publish(tx, topics.room(room.room_code), 'room.joined', event);
    return { roomId: room.id, matchId };
  });

  const row = (await repo.findById(ctx.db, outcome.roomId))!;
  return { room: toRoom(row), matchId: outcome.matchId, redirectTo: liveArenaPath(outcome.matchId) };
}

// ---------------------------------------------------------------------------------------
// Cancel

export async function cancelRoom(ctx: ServiceContext, user: AccessClaims, code: string, now = new Date()): Promise<Room> {
  const roomId = await ctx.db.transaction(async (tx) => {
    const room = await repo.lockByCode(tx, code);
    if (!room) throw notFound(ROOMS.notFound);
    if (room.creator_id !== user.userId) throw forbidden(ROOMS.cancelForbidden);
    if (room.status !== 'waiting_for_player') throw conflict('not_cancellable', ROOMS.notCancellable);
    await closeRoom(tx, room, 'cancelled', now);
    return room.id;
  });
  return toRoom((await repo.findById(ctx.db, roomId))!);
}

// ---------------------------------------------------------------------------------------
// Maintenance (SPEC §9: every 5 minutes and once at start, once across processes)

export interface MaintenanceResult {
  expired: number;
  abandoned: number;
  cleaned: number;
  failed: number;
}

const BATCH = 500;

/** Each room and match on its own transaction: one failure is logged and holds back none. */
export async function runMaintenance(ctx: ServiceContext, now = new Date()): Promise<MaintenanceResult> {
  const result: MaintenanceResult = { expired: 0, abandoned: 0, cleaned: 0, failed: 0 };
  const each = async (ids: string[], what: string, work: (id: string) => Promise<boolean>): Promise<number> => {
    let done = 0;
    for (const id of ids) {
      try {
        if (await work(id)) done++;
      } catch (error) {
        result.failed++;
        ctx.log.error({ err: error, id }, `rooms maintenance: ${what} failed`);
      }
    }
    return done;
  };

  result.expired = await each(await repo.expiredWaiting(ctx.db, now, BATCH), 'expiring a room', (id) => expireRoom(ctx, id, now));
  result.abandoned = await each(
    await repo.abandonedMatches(ctx.db, new Date(now.getTime() - ROOM_LIMITS.abandonMs), BATCH),
    'ending an abandoned match',
    (id) => endAbandonedMatch(ctx, id, now),
  );
  const stuck = new Set([
    ...(await repo.stuckJoined(ctx.db, new Date(now.getTime() - 60_000), BATCH)),
    ...(await repo.strandedHoldRooms(ctx.db, BATCH)),
  ]);
  result.cleaned = await each([...stuck], 'cleaning a stuck room', (id) => cleanStuckRoom(ctx, id, now));
  return result;
}

export async function expireRoom(ctx: ServiceContext, id: string, now = new Date()): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const room = await repo.lockById(tx, id);
    if (!room || room.status !== 'waiting_for_player' || !isExpired(room, now)) return false;
    return closeRoom(tx, room, 'expired', now);
  });
}

/** A private match nobody started, ended as the arena ends a no-show (its sweep usually has, long before). */
export async function endAbandonedMatch(ctx: ServiceContext, id: string, now = new Date()): Promise<boolean> {
  const core = await arenaRepo.findCore(ctx.db, id);
  if (!core || !core.is_private || core.challenge_id !== null || !isWebGame(core.game_type)) return false;
  if (!['pending', 'accepted'].includes(core.status)) return false;
  // As the arena ends a no-show: the player who was there wins by forfeit; nobody, void.
  const ending = noShowEnding([core.player1_ready_at, core.player2_ready_at]);
  const outcome = await ctx.db.transaction((tx) => finishStored(tx, core, ending, now));
  return outcome.ok;
}

/** A room left half-way, or one no longer waiting that still owns a stake: to its match if any, else released. */
export async function cleanStuckRoom(ctx: ServiceContext, id: string, now = new Date()): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const room = await repo.lockById(tx, id);
    if (!room || room.status === 'waiting_for_player') return false;
    const held = await repo.heldOnRoom(tx, room.id);
    if (room.match_id) {
      if (held > 0) await transferHolds(tx, { fromOwnerId: room.id, to: { matchId: room.match_id } });
      if (room.status === 'both_joined') await repo.markMatchCreated(tx, room.id, room.match_id, now);
      return true;
    }
    if (room.status === 'both_joined') return closeRoom(tx, room, 'cancelled', now);
    if (held > 0) {
      await releaseEscrow(tx, {
        idempotencyKey: `room:${room.id}:cleanup`,
        owner: { roomId: room.id },
        description: 'Private room cleaned up',
      });
      return true;
    }
    return false;
  });
}
