// The only SQL of the social feature: links (friend and follow requests) and presence.
import type { LinkKind, LinkStatus } from '@versus/domain/social';
import type { Queryable } from '../db/database.ts';

export interface LinkRow {
  id: string;
  kind: LinkKind;
  from_id: string;
  to_id: string;
  status: LinkStatus;
  created_at: Date;
  accepted_at: Date | null;
}

export interface UserRow {
  id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  level: number;
  account_type: 'real' | 'virtual';
}

/** A link seen from one player, with the other player's profile and presence. */
export interface ContactRow extends LinkRow {
  other_id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  level: number;
  last_seen_at: Date | null;
}

const LINK = 'l.id, l.kind, l.from_id, l.to_id, l.status, l.created_at, l.accepted_at';

export async function findUser(db: Queryable, id: string): Promise<UserRow | null> {
  const [row] = await db.query<UserRow>('SELECT id, username, display_name, avatar_url, level, account_type FROM profiles WHERE id = $1', [
    id,
  ]);
  return row ?? null;
}

/** The profiles of `ids` (any order; unknown ids are left out). */
export async function findUsers(db: Queryable, ids: string[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  return db.query<UserRow>('SELECT id, username, display_name, avatar_url, level, account_type FROM profiles WHERE id = ANY($1::uuid[])', [
    ids,
  ]);
}

/** Every link touching `userId`, with the other side's profile and last presence. */
export async function contactsOf(db: Queryable, userId: string): Promise<ContactRow[]> {
  return db.query<ContactRow>(
    `SELECT ${LINK}, p.id AS other_id, p.username, p.display_name, p.avatar_url, p.level, pr.last_seen_at
       FROM social_links l
       JOIN profiles p ON p.id = CASE WHEN l.from_id = $1 THEN l.to_id ELSE l.from_id END
       LEFT JOIN presence pr ON pr.user_id = p.id
      WHERE l.from_id = $1 OR l.to_id = $1
      ORDER BY lower(p.username)`,
    [userId],
  );
}

/** Players whose username starts with (or contains) `q`, prefix matches first; never `userId`, never demo accounts. */
export async function search(db: Queryable, userId: string, q: string, limit: number): Promise<UserRow[]> {
  const escaped = q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return db.query<UserRow>(
    `SELECT id, username, display_name, avatar_url, level, account_type
       FROM profiles
      WHERE id <> $1 AND account_type = 'real'
        AND (lower(username) LIKE $2 || '%' OR lower(display_name) LIKE '%' || $2 || '%')
      ORDER BY (lower(username) LIKE $2 || '%') DESC, lower(username)
      LIMIT $3`,
    [userId, escaped, limit],
  );
}

/** Every link between `userId` and any of `others`, either direction. */
export async function linksWith(db: Queryable, userId: string, others: string[]): Promise<LinkRow[]> {
  if (others.length === 0) return [];
  return db.query<LinkRow>(
    `SELECT ${LINK} FROM social_links l
      WHERE (l.from_id = $1 AND l.to_id = ANY($2::uuid[])) OR (l.to_id = $1 AND l.from_id = ANY($2::uuid[]))`,
    [userId, others],
  );
}

/** Locks and returns the link. */
export async function lockLink(tx: Queryable, id: string): Promise<LinkRow | null> {
  const [row] = await tx.query<LinkRow>(`SELECT ${LINK} FROM social_links l WHERE l.id = $1 FOR UPDATE`, [id]);
  return row ?? null;
}

/** Inserts a pending link; null when one already exists for the pair (a unique index decides). */
export async function insertLink(tx: Queryable, kind: LinkKind, fromId: string, toId: string, now: Date): Promise<LinkRow | null> {
  const [row] = await tx.query<LinkRow>(
    `INSERT INTO social_links AS l (kind, from_id, to_id, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING
     RETURNING ${LINK}`,
    [kind, fromId, toId, now],
  );
  return row ?? null;
}

export async function acceptLink(tx: Queryable, id: string, now: Date): Promise<LinkRow | null> {
  const [row] = await tx.query<LinkRow>(
    `UPDATE social_links AS l SET status = 'accepted', accepted_at = $2 WHERE l.id = $1 AND l.status = 'pending' RETURNING ${LINK}`,
    [id, now],
  );
  return row ?? null;
}

export async function deleteLink(tx: Queryable, id: string): Promise<boolean> {
  const rows = await tx.query('DELETE FROM social_links WHERE id = $1 RETURNING id', [id]);
  return rows.length === 1;
}

/** The friend link of a pair (either direction), locked. */
export async function lockFriendLink(tx: Queryable, a: string, b: string): Promise<LinkRow | null> {
  const [row] = await tx.query<LinkRow>(
    `SELECT ${LINK} FROM social_links l
      WHERE l.kind = 'friend' AND ((l.from_id = $1 AND l.to_id = $2) OR (l.from_id = $2 AND l.to_id = $1))
      FOR UPDATE`,
    [a, b],
  );
  return row ?? null;
}

export async function lockFollowLink(tx: Queryable, fromId: string, toId: string): Promise<LinkRow | null> {
  const [row] = await tx.query<LinkRow>(
    `SELECT ${LINK} FROM social_links l WHERE l.kind = 'follow' AND l.from_id = $1 AND l.to_id = $2 FOR UPDATE`,
    [fromId, toId],
  );
  return row ?? null;
}

/** An audience member (`id`) of player `of`: a friend, or (friend false) an accepted follower. */
export interface AudienceRow {
  of: string;
  id: string;
  friend: boolean;
}

/** Who hears that each of `userIds` came online: one row per (of, id), a friend winning over a follower, in that order. */
export async function audienceOfMany(db: Queryable, userIds: string[]): Promise<AudienceRow[]> {
  if (userIds.length === 0) return [];
  return db.query<AudienceRow>(
    `SELECT DISTINCT ON (a.of, a.id) a.of, a.id, a.friend FROM (
       SELECT from_id AS of, to_id AS id, true AS friend
         FROM social_links WHERE kind = 'friend' AND status = 'accepted' AND from_id = ANY($1::uuid[])
       UNION ALL
       SELECT to_id, from_id, true
         FROM social_links WHERE kind = 'friend' AND status = 'accepted' AND to_id = ANY($1::uuid[])
       UNION ALL
       SELECT to_id, from_id, false
         FROM social_links WHERE kind = 'follow' AND status = 'accepted' AND to_id = ANY($1::uuid[])
     ) a ORDER BY a.of, a.id, a.friend DESC`,
    [userIds],
  );
}

// ---------------------------------------------------------------------------------------
// Presence

/** Answers each one's previous last_seen_at (null at first sight), so the caller can tell who just came online. */
export async function beat(
  tx: Queryable,
  userIds: string[],
  now: Date,
  onlineWindowMs: number,
): Promise<{ user_id: string; previous: Date | null }[]> {
  if (userIds.length === 0) return [];
  // A first sighting makes its row at once (in id order): a process beating for the same player
  // at the same moment waits on it and then finds it, so only one of them sees a first sighting.
  const fresh = await tx.query<{ user_id: string }>(
    `INSERT INTO presence (user_id, last_seen_at, online_since)
     SELECT u.id, $2, $2 FROM users u WHERE u.id = ANY($1::uuid[]) ORDER BY u.id
     ON CONFLICT (user_id) DO NOTHING
     RETURNING user_id`,
    [userIds, now],
  );
  // Then two statements: a row locked and updated by one statement would hide its old value.
  const old = await tx.query<{ user_id: string; last_seen_at: Date }>(
    'SELECT user_id, last_seen_at FROM presence WHERE user_id = ANY($1::uuid[]) ORDER BY user_id FOR UPDATE',
    [userIds],
  );
  const rows = await tx.query<{ user_id: string }>(
    `INSERT INTO presence AS p (user_id, last_seen_at, online_since)
     SELECT u.id, $2, $2 FROM users u WHERE u.id = ANY($1::uuid[])
     ON CONFLICT (user_id) DO UPDATE
       SET last_seen_at = GREATEST(p.last_seen_at, EXCLUDED.last_seen_at),
           online_since = CASE WHEN p.last_seen_at < EXCLUDED.last_seen_at - make_interval(secs => $3::double precision / 1000)
                               THEN EXCLUDED.last_seen_at ELSE p.online_since END
     RETURNING p.user_id`,
    [userIds, now, onlineWindowMs],
  );
  const previous = new Map<string, Date | null>(old.map((r) => [r.user_id, r.last_seen_at]));
  for (const r of fresh) previous.set(r.user_id, null);
  return rows.map((r) => ({ user_id: r.user_id, previous: previous.get(r.user_id) ?? null }));
}

/** Whether `creatorId` gave `userId` a notification of this type in the last 24 hours. */
export async function toldWithinADay(db: Queryable, userId: string, type: string, creatorId: string): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM notifications
      WHERE user_id = $1 AND type = $2 AND creator_id = $3 AND created_at > now() - interval '24 hours' LIMIT 1`,
    [userId, type, creatorId],
  );
  return rows.length > 0;
}
