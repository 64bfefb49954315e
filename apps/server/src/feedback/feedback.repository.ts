// The only SQL of beta feedback.
import type { FeedbackStatus } from '@versus/domain/feedback';
import type { Queryable } from '../db/database.ts';

export interface FeedbackRow {
  id: string;
  user_id: string;
  message: string;
  page_url: string;
  app_version: string;
  user_agent: string | null;
  screenshot_key: string | null;
  screenshot_type: string | null;
  status: FeedbackStatus;
  answer: string | null;
  answered_by: string | null;
  answered_at: Date | null;
  created_at: Date;
  username: string;
  display_name: string;
}

const SELECT = `SELECT f.*, p.username, p.display_name FROM beta_feedback f JOIN profiles p ON p.id = f.user_id`;

export async function insert(
  tx: Queryable,
  input: {
    userId: string;
    message: string;
    pageUrl: string;
    appVersion: string;
    userAgent: string | null;
    screenshotKey: string | null;
    screenshotType: string | null;
    now: Date;
  },
): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    `INSERT INTO beta_feedback (user_id, message, page_url, app_version, user_agent, screenshot_key, screenshot_type, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [input.userId, input.message, input.pageUrl, input.appVersion, input.userAgent, input.screenshotKey, input.screenshotType, input.now],
  );
  return row!.id;
}

export async function byId(db: Queryable, id: string): Promise<FeedbackRow | null> {
  const [row] = await db.query<FeedbackRow>(`${SELECT} WHERE f.id = $1`, [id]);
  return row ?? null;
}

export async function lockById(tx: Queryable, id: string): Promise<FeedbackRow | null> {
  const [row] = await tx.query<FeedbackRow>(`${SELECT} WHERE f.id = $1 FOR UPDATE OF f`, [id]);
  return row ?? null;
}

export async function byAuthor(db: Queryable, userId: string, limit = 50): Promise<FeedbackRow[]> {
  return db.query<FeedbackRow>(`${SELECT} WHERE f.user_id = $1 ORDER BY f.created_at DESC, f.id LIMIT $2`, [userId, limit]);
}

export async function list(db: Queryable, status: FeedbackStatus | 'all', limit = 200): Promise<FeedbackRow[]> {
  return db.query<FeedbackRow>(`${SELECT} WHERE $1 = 'all' OR f.status = $1 ORDER BY f.created_at DESC, f.id LIMIT $2`, [status, limit]);
}

export async function answer(tx: Queryable, id: string, text: string, adminId: string, now: Date): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE beta_feedback SET status = 'answered', answer = $2, answered_by = $3, answered_at = $4
      WHERE id = $1 AND status = 'open' RETURNING id`,
    [id, text, adminId, now],
  );
  return rows.length === 1;
}

/** Serialises one player's sends until the transaction ends, so the daily cap's count holds. */
export async function lockAuthor(tx: Queryable, userId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`feedback-send:${userId}`]);
}

/** How many messages the player has sent since `since` (the daily cap). */
export async function countSince(db: Queryable, userId: string, since: Date): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM beta_feedback WHERE user_id = $1 AND created_at > $2', [
    userId,
    since,
  ]);
  return row?.n ?? 0;
}
