// The only place with the challenges feature's SQL (challenges, pools, participants, matches).
import type { Currency, Role, AccountType } from '@versus/domain';
import type { ChallengeStatus, MatchStatus, SkillLevel } from '@versus/domain/challenges';
import type { GameId, Platform } from '@versus/domain/catalogue';
import { GLICKO2 } from '@versus/domain/rating';
import { SOCIAL_LIMITS } from '@versus/domain/social';
import type { Queryable } from '../db/database.ts';

/** A challenge joined with its creator's public profile and its pool's joined count. */
export interface ChallengeRow {
  id: string;
  creator_id: string;
  title: string;
  game: GameId;
  platform: Platform;
  stake: number;
  currency: Currency;
  skill_level: SkillLevel;
  match_format: string;
  max_participants: number;
  duration: number;
  description: string | null;
  rules: string[];
  status: ChallengeStatus;
  code: string | null;
  expires_at: Date | null;
  scheduled_time: Date | null;
  created_at: Date;
  updated_at: Date;
  accepted_by: string | null;
  match_id: string | null;
  views: number;
  likes: number;
  creator_gamertag: string | null;
  creator_username: string;
  creator_display_name: string;
  creator_avatar: string | null;
  creator_wins: number;
  creator_losses: number;
  creator_streak: number;
  creator_rating: number;
  creator_online: boolean;
  joined: number;
}

const COLUMNS = `c.id, c.creator_id, c.title, c.game, c.platform, c.stake, c.currency, c.skill_level, c.match_format,
  c.max_participants, c.duration, c.description, c.rules, c.status, c.code, c.expires_at, c.scheduled_time,
  c.created_at, c.updated_at, c.accepted_by, c.match_id, c.views, c.likes, c.creator_gamertag,
  p.username AS creator_username, p.display_name AS creator_display_name, p.avatar_url AS creator_avatar,
  p.wins AS creator_wins, p.losses AS creator_losses, p.streak AS creator_streak,
  round(coalesce(p.global_rating, ${GLICKO2.initial.rating}))::integer AS creator_rating,
  EXISTS (SELECT 1 FROM presence pr WHERE pr.user_id = c.creator_id
           AND pr.last_seen_at > now() - make_interval(secs => ${SOCIAL_LIMITS.onlineWindowMs / 1000})) AS creator_online,
  CASE WHEN c.max_participants > 2 THEN
    (SELECT count(*) FROM challenge_participants cp WHERE cp.challenge_id = c.id AND cp.status = 'joined')::integer
  ELSE 0 END AS joined`;

const FROM = 'FROM challenges c JOIN profiles p ON p.id = c.creator_id';

/** The open public marketplace condition; matches the partial index challenges_open_public. */
const OPEN_PUBLIC = `c.status = 'open' AND c.match_id IS NULL AND c.accepted_by IS NULL AND c.code IS NULL`;

// ---------------------------------------------------------------------------------------
// Players

export interface PlayerRow {
  id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  role: Role;
  account_type: AccountType;
}

export async function findPlayer(db: Queryable, userId: string): Promise<PlayerRow | null> {
  const [row] = await db.query<PlayerRow>('SELECT id, username, display_name, avatar_url, role, account_type FROM profiles WHERE id = $1', [
    userId,
  ]);
  return row ?? null;
}

export async function findPlayerByUsername(db: Queryable, username: string): Promise<PlayerRow | null> {
  const [row] = await db.query<PlayerRow>(
    'SELECT id, username, display_name, avatar_url, role, account_type FROM profiles WHERE lower(username) = lower($1)',
    [username],
  );
  return row ?? null;
}

// ---------------------------------------------------------------------------------------
// Reads

export interface ListFilters {
  game?: GameId | undefined;
  platform?: Platform | undefined;
  minStake?: number | undefined;
  maxStake?: number | undefined;
  /** Already escaped for LIKE and wrapped in %…%. */
  searchPattern?: string | undefined;
  /** Games whose display name matches the search. */
  searchGames?: GameId[] | undefined;
}

export async function listOpenPublic(db: Queryable, filters: ListFilters, now: Date, limit: number): Promise<ChallengeRow[]> {
  const params: unknown[] = [now, limit];
  const where = [OPEN_PUBLIC, '(c.expires_at IS NULL OR c.expires_at > $1)'];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (filters.game) add((p) => `c.game = ${p}`, filters.game);
  if (filters.platform) add((p) => `c.platform = ${p}`, filters.platform);
  if (filters.minStake !== undefined) add((p) => `c.stake >= ${p}`, filters.minStake);
  if (filters.maxStake !== undefined) add((p) => `c.stake <= ${p}`, filters.maxStake);
  if (filters.searchPattern !== undefined) {
    params.push(filters.searchPattern, filters.searchGames ?? []);
    const pattern = `$${params.length - 1}`;
    const games = `$${params.length}`;
    where.push(
      `(c.title ILIKE ${pattern} ESCAPE '\\' OR c.description ILIKE ${pattern} ESCAPE '\\' OR p.username ILIKE ${pattern} ESCAPE '\\'
        OR p.display_name ILIKE ${pattern} ESCAPE '\\' OR c.game = ANY (${games}::text[]))`,
    );
  }
  return db.query<ChallengeRow>(
    `SELECT ${COLUMNS} ${FROM} WHERE ${where.join(' AND ')} ORDER BY c.created_at DESC, c.id DESC LIMIT $2`,
    params,
  );
}

export async function findChallenge(db: Queryable, id: string): Promise<ChallengeRow | null> {
  const [row] = await db.query<ChallengeRow>(`SELECT ${COLUMNS} ${FROM} WHERE c.id = $1`, [id]);
  return row ?? null;
}

/** Counts a view and returns the challenge as it is now. */
export async function viewChallenge(db: Queryable, id: string): Promise<ChallengeRow | null> {
  const [row] = await db.query<ChallengeRow>(
    `WITH viewed AS (UPDATE challenges SET views = views + 1 WHERE id = $1 RETURNING *)
     SELECT ${COLUMNS} FROM viewed c JOIN profiles p ON p.id = c.creator_id`,
    [id],
  );
  return row ?? null;
}

export async function findOpenByCode(db: Queryable, code: string, now: Date): Promise<ChallengeRow | null> {
  const [row] = await db.query<ChallengeRow>(
    `SELECT ${COLUMNS} ${FROM}
      WHERE c.code = $1 AND c.status = 'open' AND c.match_id IS NULL AND (c.expires_at IS NULL OR c.expires_at > $2)`,
    [code, now],
  );
  return row ?? null;
}

/** Challenges the player created, accepted or joined, newest first. */
export async function listMine(db: Queryable, userId: string, limit: number): Promise<ChallengeRow[]> {
  return db.query<ChallengeRow>(
    `SELECT ${COLUMNS} ${FROM}
      WHERE c.id IN (SELECT id FROM challenges WHERE creator_id = $1
                     UNION SELECT id FROM challenges WHERE accepted_by = $1
                     UNION SELECT challenge_id FROM challenge_participants WHERE user_id = $1)
      ORDER BY c.created_at DESC, c.id DESC LIMIT $2`,
    [userId, limit],
  );
}

export async function listExpiringSoon(db: Queryable, userId: string, now: Date, until: Date): Promise<ChallengeRow[]> {
  return db.query<ChallengeRow>(
    `SELECT ${COLUMNS} ${FROM}
      WHERE c.creator_id = $1 AND c.status = 'open' AND c.expires_at > $2 AND c.expires_at <= $3
      ORDER BY c.expires_at`,
    [userId, now, until],
  );
}

export async function isParticipant(db: Queryable, challengeId: string, userId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM challenge_participants WHERE challenge_id = $1 AND user_id = $2 AND status = $3', [
    challengeId,
    userId,
    'joined',
  ]);
  return rows.length > 0;
}

export async function participantIds(db: Queryable, challengeId: string): Promise<string[]> {
  const rows = await db.query<{ user_id: string }>(
    `SELECT user_id FROM challenge_participants WHERE challenge_id = $1 AND status = 'joined' ORDER BY joined_at, user_id`,
    [challengeId],
  );
  return rows.map((r) => r.user_id);
}

// ---------------------------------------------------------------------------------------
// Writes (callers hold the transaction)

/** The state a transition decides on, read under the row's lock. */
export interface LockedChallenge {
  id: string;
  creator_id: string;
  status: ChallengeStatus;
  code: string | null;
  currency: Currency;
  stake: number;
  game: GameId;
  platform: Platform;
  skill_level: SkillLevel;
  match_format: string;
  max_participants: number;
  duration: number;
  expires_at: Date | null;
  scheduled_time: Date | null;
  accepted_by: string | null;
  match_id: string | null;
  creator_gamertag: string | null;
}

export async function lockChallenge(tx: Queryable, id: string): Promise<LockedChallenge | null> {
  const [row] = await tx.query<LockedChallenge>(
    `SELECT id, creator_id, status, code, currency, stake, game, platform, skill_level, match_format, max_participants,
            duration, expires_at, scheduled_time, accepted_by, match_id, creator_gamertag
       FROM challenges WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return row ?? null;
}

export interface ExistingByKey {
  id: string;
  request_hash: string;
}

export async function findByIdempotencyKey(tx: Queryable, creatorId: string, key: string): Promise<ExistingByKey | null> {
  const [row] = await tx.query<ExistingByKey>('SELECT id, request_hash FROM challenges WHERE creator_id = $1 AND idempotency_key = $2', [
    creatorId,
    key,
  ]);
  return row ?? null;
}

/** Serialises creations that carry the same Idempotency-Key until the transaction ends. */
export async function lockIdempotencyKey(tx: Queryable, creatorId: string, key: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 4))`, [`challenge-create:${creatorId}:${key}`]);
}

export interface NewChallenge {
  id: string;
  creatorId: string;
  title: string;
  game: GameId;
  platform: Platform;
  stake: number;
  currency: Currency;
  skillLevel: SkillLevel;
  matchFormat: string;
  maxParticipants: number;
  duration: number;
  description: string | null;
  rules: string[];
  code: string | null;
  expiresAt: Date | null;
  scheduledTime: Date | null;
  createdAt: Date;
  creatorGamertag: string | null;
  idempotencyKey: string | null;
  requestHash: string | null;
}

/** Inserts the challenge; false when its code is taken (the caller draws another). */
export async function insertChallenge(tx: Queryable, c: NewChallenge): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO challenges (id, creator_id, title, game, platform, stake, currency, skill_level, match_format,
       max_participants, duration, description, rules, code, expires_at, scheduled_time, created_at, updated_at,
       creator_gamertag, idempotency_key, request_hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14, $15, $16, $17, $17, $18, $19, $20)
     ON CONFLICT (code) WHERE code IS NOT NULL DO NOTHING
     RETURNING id`,
    [
      c.id,
      c.creatorId,
      c.title,
      c.game,
      c.platform,
      c.stake,
      c.currency,
      c.skillLevel,
      c.matchFormat,
      c.maxParticipants,
      c.duration,
      c.description,
      JSON.stringify(c.rules),
      c.code,
      c.expiresAt,
      c.scheduledTime,
      c.createdAt,
      c.creatorGamertag,
      c.idempotencyKey,
      c.requestHash,
    ],
  );
  return rows.length === 1;
}

export async function insertPool(
  tx: Queryable,
  pool: { challengeId: string; maxParticipants: number; stake: number; currency: Currency },
): Promise<void> {
  await tx.query('INSERT INTO challenge_pools (challenge_id, max_participants, stake, currency) VALUES ($1, $2, $3, $4)', [
    pool.challengeId,
    pool.maxParticipants,
    pool.stake,
    pool.currency,
  ]);
}

export async function insertParticipant(tx: Queryable, p: { challengeId: string; userId: string; gamertag: string | null }): Promise<void> {
  await tx.query('INSERT INTO challenge_participants (challenge_id, user_id, gamertag) VALUES ($1, $2, $3)', [
    p.challengeId,
    p.userId,
    p.gamertag,
  ]);
}

export interface NewMatch {
  id: string;
  challengeId: string;
  player1Id: string;
  player2Id: string;
  gameType: GameId;
  platform: Platform;
  stake: number;
  currency: Currency;
  matchFormat: string;
  skillLevel: SkillLevel;
  scheduledTime: Date;
  player1Gamertag: string | null;
  player2Gamertag: string | null;
  isPrivate: boolean;
  /** The match length chosen, minutes: the arena's clocks derive from it. */
  duration: number;
  roomCode: string | null;
}

export async function insertMatch(tx: Queryable, m: NewMatch): Promise<void> {
  await tx.query(
    `INSERT INTO matches (id, challenge_id, player1_id, player2_id, game_type, platform, stake, bet_amount, currency,
       status, match_format, skill_level, scheduled_time, player1_gamertag, player2_gamertag, is_private, room_code, duration)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8, 'pending', $9, $10, $11, $12, $13, $14, $15, $16)`,
    [
      m.id,
      m.challengeId,
      m.player1Id,
      m.player2Id,
      m.gameType,
      m.platform,
      m.stake,
      m.currency,
      m.matchFormat,
      m.skillLevel,
      m.scheduledTime,
      m.player1Gamertag,
      m.player2Gamertag,
      m.isPrivate,
      m.roomCode,
      m.duration,
    ],
  );
}

/** open → accepted, only from open (the caller holds the row lock; the WHERE makes it certain). */
export async function markAccepted(
  tx: Queryable,
  a: { id: string; acceptedBy: string; matchId: string; scheduledTime: Date; now: Date },
): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE challenges
        SET status = 'accepted', accepted_by = $2, match_id = $3, accepted_at = $5, updated_at = $5,
            scheduled_time = coalesce(scheduled_time, $4)
      WHERE id = $1 AND status = 'open' AND match_id IS NULL
      RETURNING id`,
    [a.id, a.acceptedBy, a.matchId, a.scheduledTime, a.now],
  );
  return rows.length === 1;
}

/** open → cancelled or expired, only from open. */
export async function markClosed(tx: Queryable, id: string, status: 'cancelled' | 'expired', now: Date): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE challenges SET status = $2, closed_at = $3, updated_at = $3 WHERE id = $1 AND status = 'open' RETURNING id`,
    [id, status, now],
  );
  return rows.length === 1;
}

/** Open challenges whose expiry has passed, oldest first. */
export async function dueForExpiry(db: Queryable, now: Date, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM challenges WHERE status = 'open' AND expires_at IS NOT NULL AND expires_at <= $1 ORDER BY expires_at LIMIT $2`,
    [now, limit],
  );
  return rows.map((r) => r.id);
}

/** Open challenges entering the preview window, each returned once (marked as warned). */
export async function markExpiryWarned(
  tx: Queryable,
  now: Date,
  until: Date,
): Promise<{ id: string; creator_id: string; code: string | null; expires_at: Date }[]> {
  return tx.query(
    `UPDATE challenges SET expiry_warned_at = $1
      WHERE status = 'open' AND expires_at > $1 AND expires_at <= $2 AND expiry_warned_at IS NULL
      RETURNING id, creator_id, code, expires_at`,
    [now, until],
  );
}

// ---------------------------------------------------------------------------------------
// Matches

export interface MatchRow {
  id: string;
  challenge_id: string | null;
  player1_id: string;
  player2_id: string;
  winner_id: string | null;
  game_type: GameId;
  platform: Platform;
  stake: number;
  bet_amount: number;
  currency: Currency;
  status: MatchStatus;
  match_format: string;
  skill_level: SkillLevel;
  scheduled_time: Date | null;
  created_at: Date;
  player1_gamertag: string | null;
  player2_gamertag: string | null;
  is_private: boolean;
  room_code: string | null;
  player1_username: string;
  player1_display_name: string;
  player1_avatar: string | null;
  player2_username: string;
  player2_display_name: string;
  player2_avatar: string | null;
}

export async function findMatch(db: Queryable, id: string): Promise<MatchRow | null> {
  const [row] = await db.query<MatchRow>(
    `SELECT m.id, m.challenge_id, m.player1_id, m.player2_id, m.winner_id, m.game_type, m.platform, m.stake, m.bet_amount,
            m.currency, m.status, m.match_format, m.skill_level, m.scheduled_time, m.created_at, m.player1_gamertag,
            m.player2_gamertag, m.is_private, m.room_code,
            p1.username AS player1_username, p1.display_name AS player1_display_name, p1.avatar_url AS player1_avatar,
            p2.username AS player2_username, p2.display_name AS player2_display_name, p2.avatar_url AS player2_avatar
       FROM matches m JOIN profiles p1 ON p1.id = m.player1_id JOIN profiles p2 ON p2.id = m.player2_id
      WHERE m.id = $1`,
    [id],
  );
  return row ?? null;
}

/** Marks the challenge changed (a pool's new joiner). */
export async function touchChallenge(db: Queryable, id: string, now: Date): Promise<void> {
  await db.query('UPDATE challenges SET updated_at = $2 WHERE id = $1', [id, now]);
}
