// All SQL of notifications: the list, marks, preferences, analytics, cleanup and the "your
// turn" sweep. Rows become the client's Notification here and nowhere else.
import { NOTIFICATION_RULES, RETENTION_DAYS, shortMessage, type Notification, type NotificationAction } from '@versus/domain/notifications';
import type { Queryable } from '../db/database.ts';

export interface NotificationRow {
  id: string;
  user_id: string;
  type: Notification['type'];
  title: string;
  message: string;
  category: Notification['category'];
  priority: Notification['priority'];
  status: Notification['status'];
  read: boolean;
  read_at: Date | null;
  urgent: boolean;
  silent: boolean;
  persistent: boolean;
  created_at: Date;
  expires_at: Date | null;
  match_id: string | null;
  challenge_id: string | null;
  creator_id: string | null;
  metadata: unknown;
  actions: unknown;
  target_url: string | null;
  version: number;
}

const COLUMNS = `id, user_id, type, title, message, category, priority, status, read, read_at, urgent, silent, persistent,
  created_at, expires_at, match_id, challenge_id, creator_id, metadata, actions, target_url, version`;

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);

/** SPEC §3: metadata is an object, or null when absent or unparseable. */
function metadataOf(value: unknown): Record<string, unknown> | null {
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v) as unknown;
    } catch {
      // Unparseable text: SPEC §3 says null.
      return null;
    }
  }
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

export function toNotification(row: NotificationRow): Notification {
  const createdAt = new Date(row.created_at).toISOString();
  return {
    id: row.id,
    userId: row.user_id,
    type: row.type,
    title: row.title,
    message: row.message,
    shortMessage: shortMessage(row.message),
    category: row.category,
    priority: row.priority,
    urgent: row.urgent,
    silent: row.silent,
    persistent: row.persistent,
    status: row.status,
    read: row.read,
    readAt: iso(row.read_at),
    createdAt,
    timestamp: createdAt,
    expiresAt: iso(row.expires_at),
    matchId: row.match_id,
    challengeId: row.challenge_id,
    creatorId: row.creator_id,
    metadata: metadataOf(row.metadata),
    actions: Array.isArray(row.actions) ? (row.actions as NotificationAction[]) : [],
    targetUrl: row.target_url,
    version: row.version,
  };
}

// ---------------------------------------------------------------------------------------
// Reading

const ACTIVE = `status IN ('unread', 'read') AND (expires_at IS NULL OR expires_at > $2)`;

/** Newest first: unread and read, not expired (dismissed and archived ones are gone from the list). */
export async function listActive(db: Queryable, userId: string, limit: number, now: Date): Promise<Notification[]> {
  const rows = await db.query<NotificationRow>(
    `SELECT ${COLUMNS} FROM notifications WHERE user_id = $1 AND ${ACTIVE} ORDER BY created_at DESC, id DESC LIMIT $3`,
    [userId, now, limit],
  );
  return rows.map(toNotification);
}

export async function unreadCounts(db: Queryable, userId: string, now: Date): Promise<{ unread: number; urgentUnread: number }> {
  const [row] = await db.query<{ unread: number; urgent: number }>(
    `SELECT count(*)::int AS unread, count(*) FILTER (WHERE urgent)::int AS urgent
       FROM notifications WHERE user_id = $1 AND status = 'unread' AND (expires_at IS NULL OR expires_at > $2)`,
    [userId, now],
  );
  return { unread: row?.unread ?? 0, urgentUnread: row?.urgent ?? 0 };
}

/** The caller's own notification (another user's is as good as absent). */
export async function findOwn(db: Queryable, id: string, userId: string, lock = false): Promise<Notification | null> {
  const [row] = await db.query<NotificationRow>(
    `SELECT ${COLUMNS} FROM notifications WHERE id = $1 AND user_id = $2${lock ? ' FOR UPDATE' : ''}`,
    [id, userId],
  );
  return row ? toNotification(row) : null;
}

// ---------------------------------------------------------------------------------------
// Marks

/** unread → read; anything else unchanged. Returns the row after, or null when it is not the user's. */
export async function markRead(
  tx: Queryable,
  id: string,
  userId: string,
  now: Date,
): Promise<{ notification: Notification; changed: boolean } | null> {
  const [row] = await tx.query<NotificationRow>(
    `UPDATE notifications SET status = 'read', read = true, read_at = $3, version = version + 1
      WHERE id = $1 AND user_id = $2 AND status = 'unread'
      RETURNING ${COLUMNS}`,
    [id, userId, now],
  );
  if (row) return { notification: toNotification(row), changed: true };
  const found = await findOwn(tx, id, userId);
  return found ? { notification: found, changed: false } : null;
}

/** Only those made up to `now`: one committed a moment later is unseen, and the event tells other tabs "made before `at`". */
export async function markAllRead(tx: Queryable, userId: string, now: Date): Promise<number> {
  const [row] = await tx.query<{ count: number }>(
    `WITH marked AS (
       UPDATE notifications SET status = 'read', read = true, read_at = $2, version = version + 1
        WHERE user_id = $1 AND status = 'unread' AND created_at <= $2
        RETURNING 1
     ) SELECT count(*)::int AS count FROM marked`,
    [userId, now],
  );
  return row?.count ?? 0;
}

/** A dismissed notification is read and gone from the list. */
export async function dismiss(tx: Queryable, id: string, userId: string, now: Date): Promise<Notification | null> {
  const [row] = await tx.query<NotificationRow>(
    `UPDATE notifications SET status = 'dismissed', read = true, read_at = coalesce(read_at, $3), version = version + 1
      WHERE id = $1 AND user_id = $2 AND status <> 'dismissed'
      RETURNING ${COLUMNS}`,
    [id, userId, now],
  );
  return row ? toNotification(row) : null;
}

/** The one process that gets a row delivers it: a burst's ids in one statement (one commit), rows locked in id order. */
export async function claimDeliveries(db: Queryable, ids: readonly string[]): Promise<Notification[]> {
  const rows = await db.query<NotificationRow>(
    `UPDATE notifications SET delivery_claimed_at = now()
      WHERE id IN (SELECT id FROM notifications WHERE id = ANY ($1::uuid[]) AND delivery_claimed_at IS NULL ORDER BY id FOR UPDATE)
     RETURNING ${COLUMNS}`,
    [ids],
    'notification_claim_deliveries',
  );
  return rows.map(toNotification);
}

/** Committed notifications nobody claimed (a NOTIFY lost to a crash), recent enough to be worth sending. */
export async function unclaimedIds(db: Queryable, olderThan: Date, newerThan: Date, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM notifications
      WHERE delivery_claimed_at IS NULL AND status = 'unread' AND created_at < $1 AND created_at > $2
      ORDER BY created_at LIMIT $3`,
    [olderThan, newerThan, limit],
  );
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------
// Preferences and analytics

export async function readPreferences(db: Queryable, userId: string): Promise<string | null> {
  const [row] = await db.query<{ preferences: string }>('SELECT preferences FROM user_notification_preferences WHERE user_id = $1', [
    userId,
  ]);
  return row?.preferences ?? null;
}

export async function upsertPreferences(db: Queryable, userId: string, json: string, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO user_notification_preferences (user_id, preferences, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET preferences = EXCLUDED.preferences, updated_at = EXCLUDED.updated_at`,
    [userId, json, now],
  );
}

export async function insertAnalytics(
  tx: Queryable,
  userId: string,
  eventType: string,
  data: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await tx.query('INSERT INTO notification_analytics (user_id, event_type, event_data, created_at) VALUES ($1, $2, $3::jsonb, $4)', [
    userId,
    eventType,
    JSON.stringify(data),
    now,
  ]);
}

// ---------------------------------------------------------------------------------------
// Cleanup (every 6 hours)

export interface CleanupCounts {
  expired: number;
  archived: number;
  capped: number;
  deleted: number;
}

/** Archives expired and week-old ones, deletes past retention, caps each user's active ones (docs/decisions.md). */
export async function cleanup(db: Queryable, now: Date): Promise<CleanupCounts> {
  const archiveBefore = new Date(now.getTime() - NOTIFICATION_RULES.archiveAfterMs);
  const deleteBefore = new Date(now.getTime() - NOTIFICATION_RULES.deleteAfterMs);
  const count = async (sql: string, params: unknown[]) => (await db.query<{ n: number }>(sql, params))[0]?.n ?? 0;
  const deleted = await count(
    `WITH d AS (
       DELETE FROM notifications
        -- The shortest retention first: it lets the index on created_at narrow the scan.
        WHERE created_at < $1::timestamptz - interval '${Math.min(...Object.values(RETENTION_DAYS))} days'
          AND (created_at < $2
           OR created_at < $1::timestamptz - CASE category
                WHEN 'match' THEN interval '${RETENTION_DAYS.match} days'
                WHEN 'challenge' THEN interval '${RETENTION_DAYS.challenge} days'
                WHEN 'financial' THEN interval '${RETENTION_DAYS.financial} days'
                WHEN 'social' THEN interval '${RETENTION_DAYS.social} days'
                ELSE interval '${RETENTION_DAYS.system} days' END)
        RETURNING 1
     ) SELECT count(*)::int AS n FROM d`,
    [now, deleteBefore],
  );
  const archive = (where: string, params: unknown[]) =>
    count(
      `WITH a AS (
         UPDATE notifications SET status = 'archived', archived_at = $1, version = version + 1
          WHERE status IN ('unread', 'read') AND ${where} RETURNING 1
       ) SELECT count(*)::int AS n FROM a`,
      params,
    );
  const expired = await archive('expires_at <= $1', [now]);
  const archived = await archive('created_at < $2', [now, archiveBefore]);
  const capped = await archive(
    `id IN (SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY user_id ORDER BY created_at DESC, id DESC) AS n
                              FROM notifications WHERE status IN ('unread', 'read')) r
             WHERE r.n > $2)`,
    [now, NOTIFICATION_RULES.maxActive],
  );
  return { expired, archived, capped, deleted };
}

// ---------------------------------------------------------------------------------------
// "Your turn": running matches whose player to move has waited a while

export interface WaitingTurn {
  matchId: string;
  gameType: string;
  userId: string;
  opponentId: string;
  opponentName: string;
  /** When the turn began (ms since the epoch, as the clock stores it). */
  sinceMs: number;
}

/** Players on the move since before `waitedSince` with no unread "your turn" for the match since that turn began. */
export async function waitingTurns(db: Queryable, waitedSince: Date, limit: number): Promise<WaitingTurn[]> {
  return db.query<WaitingTurn>(
    `SELECT t.id AS "matchId", t.game_type AS "gameType", t.user_id AS "userId", t.opponent_id AS "opponentId",
            coalesce(p.username, 'Your opponent') AS "opponentName", t.since_ms AS "sinceMs"
       FROM (
         SELECT m.id, m.game_type,
                CASE m.to_move[1] WHEN 0 THEN m.player1_id ELSE m.player2_id END AS user_id,
                CASE m.to_move[1] WHEN 0 THEN m.player2_id ELSE m.player1_id END AS opponent_id,
                m.turn_since AS since_ms
           FROM matches m
          WHERE m.status = 'in_progress'
            AND cardinality(m.to_move) = 1
            AND m.turn_since IS NOT NULL
       ) t
       LEFT JOIN profiles p ON p.id = t.opponent_id
      WHERE t.since_ms < $1
        AND NOT EXISTS (SELECT 1 FROM notifications n
                         WHERE n.user_id = t.user_id AND n.match_id = t.id AND n.type = 'match_move_made'
                           AND (n.status = 'unread' OR n.created_at >= to_timestamp(t.since_ms / 1000)))
      LIMIT $2`,
    [waitedSince.getTime(), limit],
  );
}

/** Whether the match is still running with the same player on the move since `sinceMs`. */
export async function stillTheirTurn(db: Queryable, matchId: string, sinceMs: number): Promise<boolean> {
  const [row] = await db.query<{ still: boolean }>(
    `SELECT turn_since = $2 AND status = 'in_progress' AS still FROM matches WHERE id = $1`,
    [matchId, sinceMs],
  );
  return row?.still === true;
}
