// The only place with the private rooms' SQL (db/schema/07_rooms.sql). Status changes are guarded in
// SQL (WHERE status = '<from>') and made under the row lock the service takes first.
import type { AccountType, Currency, Role } from '@versus/domain';
import type { GameId } from '@versus/domain/catalogue';
import type { RoomStatus } from '@versus/domain/rooms';
import type { Queryable } from '../db/database.ts';

export interface RoomRow {
  id: string;
  room_code: string;
  creator_id: string;
  creator_username: string;
  creator_display_name: string;
  joiner_id: string | null;
  game_type: GameId;
  bet_tier: number;
  currency: Currency;
  message: string | null;
  status: RoomStatus;
  match_id: string | null;
  created_at: Date;
  updated_at: Date;
  expires_at: Date;
}

const COLUMNS = `r.id, r.room_code, r.creator_id, p.username AS creator_username, p.display_name AS creator_display_name,
  r.joiner_id, r.game_type, r.bet_tier, r.currency, r.message, r.status, r.match_id, r.created_at, r.updated_at, r.expires_at`;
const FROM = 'FROM private_rooms r JOIN profiles p ON p.id = r.creator_id';

export interface PlayerRow {
  id: string;
  username: string;
  display_name: string;
  role: Role;
  account_type: AccountType;
}

export async function findPlayer(db: Queryable, userId: string): Promise<PlayerRow | null> {
  const [row] = await db.query<PlayerRow>('SELECT id, username, display_name, role, account_type FROM profiles WHERE id = $1', [userId]);
  return row ?? null;
}

export async function findById(db: Queryable, id: string): Promise<RoomRow | null> {
  const [row] = await db.query<RoomRow>(`SELECT ${COLUMNS} ${FROM} WHERE r.id = $1`, [id]);
  return row ?? null;
}

export async function findByCode(db: Queryable, code: string): Promise<RoomRow | null> {
  const [row] = await db.query<RoomRow>(`SELECT ${COLUMNS} ${FROM} WHERE r.room_code = $1`, [code]);
  return row ?? null;
}

/** SPEC §9: the one room by code with status waiting_for_player. */
export async function findWaitingByCode(db: Queryable, code: string): Promise<RoomRow | null> {
  const [row] = await db.query<RoomRow>(`SELECT ${COLUMNS} ${FROM} WHERE r.room_code = $1 AND r.status = 'waiting_for_player'`, [code]);
  return row ?? null;
}

/** Locks the room with this code (joins, cancels and expiry of one room take turns here). */
export async function lockByCode(tx: Queryable, code: string): Promise<RoomRow | null> {
  const [row] = await tx.query<RoomRow>(`SELECT ${COLUMNS} ${FROM} WHERE r.room_code = $1 FOR UPDATE OF r`, [code]);
  return row ?? null;
}

export async function lockById(tx: Queryable, id: string): Promise<RoomRow | null> {
  const [row] = await tx.query<RoomRow>(`SELECT ${COLUMNS} ${FROM} WHERE r.id = $1 FOR UPDATE OF r`, [id]);
  return row ?? null;
}

/** SPEC §9: rooms where the user is creator or joiner and the status is active, newest first. */
export async function listActive(db: Queryable, userId: string): Promise<RoomRow[]> {
  return db.query<RoomRow>(
    `SELECT ${COLUMNS} ${FROM}
      WHERE (r.creator_id = $1 OR r.joiner_id = $1) AND r.status IN ('waiting_for_player', 'both_joined')
      ORDER BY r.created_at DESC, r.id DESC`,
    [userId],
  );
}

export interface NewRoom {
  id: string;
  code: string;
  creatorId: string;
  gameType: GameId;
  betTier: number;
  currency: Currency;
  message: string | null;
  now: Date;
  expiresAt: Date;
}

/** False when the code or the creator's one active room is taken (nothing inserted; the transaction stays usable). */
export async function insertRoom(tx: Queryable, r: NewRoom): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO private_rooms (id, room_code, creator_id, game_type, bet_tier, currency, message, created_at, updated_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9)
     ON CONFLICT DO NOTHING RETURNING id`,
    [r.id, r.code, r.creatorId, r.gameType, r.betTier, r.currency, r.message, r.now, r.expiresAt],
  );
  return rows.length === 1;
}

/** waiting_for_player → both_joined (the joiner is in). */
export async function markBothJoined(tx: Queryable, id: string, joinerId: string, now: Date): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE private_rooms SET status = 'both_joined', joiner_id = $2, updated_at = $3
      WHERE id = $1 AND status = 'waiting_for_player' RETURNING id`,
    [id, joinerId, now],
  );
  return rows.length === 1;
}

/** both_joined → match_created (carries the match). */
export async function markMatchCreated(tx: Queryable, id: string, matchId: string, now: Date): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE private_rooms SET status = 'match_created', match_id = $2, updated_at = $3
      WHERE id = $1 AND status = 'both_joined' RETURNING id`,
    [id, matchId, now],
  );
  return rows.length === 1;
}

/** An active room → cancelled or expired. */
export async function close(tx: Queryable, id: string, status: 'cancelled' | 'expired', now: Date): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE private_rooms SET status = $2, closed_at = $3, updated_at = $3
      WHERE id = $1 AND status IN ('waiting_for_player', 'both_joined') RETURNING id`,
    [id, status, now],
  );
  return rows.length === 1;
}

export interface NewRoomMatch {
  id: string;
  player1Id: string;
  player2Id: string;
  gameType: GameId;
  stake: number;
  currency: Currency;
  scheduledTime: Date;
  roomCode: string;
}

/** The room's match: pending, private, web, scheduled now (SPEC §3 match row). */
export async function insertMatch(tx: Queryable, m: NewRoomMatch): Promise<void> {
  await tx.query(
    `INSERT INTO matches (id, challenge_id, player1_id, player2_id, game_type, platform, stake, bet_amount, currency,
       status, match_format, skill_level, scheduled_time, created_at, updated_at, is_private, room_code)
     VALUES ($1, NULL, $2, $3, $4, 'web', $5, $5, $6, 'pending', 'Best of 3', 'any', $7, $7, $7, true, $8)`,
    [m.id, m.player1Id, m.player2Id, m.gameType, m.stake, m.currency, m.scheduledTime, m.roomCode],
  );
}

// ---------------------------------------------------------------------------------------
// Maintenance

export async function expiredWaiting(db: Queryable, now: Date, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM private_rooms WHERE status = 'waiting_for_player' AND expires_at <= $1 ORDER BY expires_at LIMIT $2`,
    [now, limit],
  );
  return rows.map((r) => r.id);
}

/** Rooms left in both_joined (a join is one transaction, so only a fault leaves one there). */
export async function stuckJoined(db: Queryable, before: Date, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM private_rooms WHERE status = 'both_joined' AND updated_at <= $1 ORDER BY updated_at LIMIT $2`,
    [before, limit],
  );
  return rows.map((r) => r.id);
}

/** Held stakes owned by a room that is no longer waiting (a room holds escrow only while it waits). */
export async function strandedHoldRooms(db: Queryable, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT DISTINCT r.id FROM escrow_holds h JOIN private_rooms r ON r.id = h.room_id
      WHERE h.status = 'held' AND r.status <> 'waiting_for_player' LIMIT $1`,
    [limit],
  );
  return rows.map((r) => r.id);
}

export async function heldOnRoom(db: Queryable, roomId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM escrow_holds WHERE room_id = $1 AND status = 'held'`, [
    roomId,
  ]);
  return row?.n ?? 0;
}

/** Private room matches nobody started by `before` (their start time). */
export async function abandonedMatches(db: Queryable, before: Date, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM matches
      WHERE is_private AND challenge_id IS NULL AND status IN ('pending', 'accepted') AND coalesce(scheduled_time, created_at) <= $1
      ORDER BY coalesce(scheduled_time, created_at) LIMIT $2`,
    [before, limit],
  );
  return rows.map((r) => r.id);
}
