// The only place with the match reminders' SQL (db/schema/10_push_reminders.sql). Rows are written by
// a trigger in the transaction that makes the match; here they are claimed and closed.
import type { ReminderKind } from '@versus/domain/notifications';
import type { Queryable } from '../../db/database.ts';

/** The domain's three reminders, or a player's own timing (preferences: match.reminderMinutes). */
export type StoredReminderKind = ReminderKind | 'timer';

export interface DueReminderRow {
  id: number;
  match_id: string;
  user_id: string;
  kind: StoredReminderKind;
  minutes_before: number;
  due_at: Date;
  match_status: string;
  scheduled_time: Date;
  /** When the match started (null: not yet); an external match starts at its scheduled time. */
  started_at: Date | null;
  game_type: string;
  opponent_id: string;
  opponent_name: string | null;
  /** A later reminder of the same match and player is due too (this one is stale). */
  superseded: boolean;
}

/** Reminders are abandoned after this many failed attempts (a bug, not a passing fault). */
export const MAX_ATTEMPTS = 5;

/** The earliest due reminder no other worker holds, the caller's until it commits; `exclude`: this run's failures. */
export async function claimDue(tx: Queryable, now: Date, exclude: readonly number[] = []): Promise<DueReminderRow | null> {
  const [row] = await tx.query<DueReminderRow>(
    `SELECT r.id, r.match_id, r.user_id, r.kind, r.minutes_before, r.due_at,
            m.status AS match_status, m.scheduled_time, m.started_at, m.game_type,
            CASE WHEN m.player1_id = r.user_id THEN m.player2_id ELSE m.player1_id END AS opponent_id,
            o.display_name AS opponent_name,
            EXISTS (SELECT 1 FROM match_reminders later
                     WHERE later.match_id = r.match_id AND later.user_id = r.user_id
                       AND later.due_at > r.due_at AND later.due_at <= $1 AND later.status <> 'skipped') AS superseded
       FROM match_reminders r
       JOIN matches m ON m.id = r.match_id
       LEFT JOIN profiles o ON o.id = CASE WHEN m.player1_id = r.user_id THEN m.player2_id ELSE m.player1_id END
      WHERE r.status = 'scheduled' AND r.due_at <= $1 AND r.attempts < $2 AND r.id <> ALL ($3::bigint[])
      ORDER BY r.due_at, r.id
      LIMIT 1
      FOR UPDATE OF r SKIP LOCKED`,
    [now, MAX_ATTEMPTS, exclude],
  );
  return row ?? null;
}

export async function markSent(tx: Queryable, id: number, notificationId: string, now: Date): Promise<void> {
  await tx.query(
    `UPDATE match_reminders SET status = 'sent', outcome = 'sent', notification_id = $2, processed_at = $3
      WHERE id = $1 AND status = 'scheduled'`,
    [id, notificationId, now],
  );
}

export async function markSkipped(tx: Queryable, id: number, outcome: string, now: Date): Promise<void> {
  await tx.query(`UPDATE match_reminders SET status = 'skipped', outcome = $2, processed_at = $3 WHERE id = $1 AND status = 'scheduled'`, [
    id,
    outcome,
    now,
  ]);
}

/** A failed attempt (its transaction rolled back): counted, and given up after MAX_ATTEMPTS. */
export async function recordFailure(db: Queryable, id: number, error: string, now: Date): Promise<void> {
  await db.query(
    `UPDATE match_reminders
        SET attempts = attempts + 1, last_error = $2,
            status = CASE WHEN attempts + 1 >= $4 THEN 'skipped' ELSE status END,
            outcome = CASE WHEN attempts + 1 >= $4 THEN 'failed' ELSE outcome END,
            processed_at = CASE WHEN attempts + 1 >= $4 THEN $3::timestamptz ELSE processed_at END
      WHERE id = $1 AND status = 'scheduled'`,
    [id, error.slice(0, 1000), now, MAX_ATTEMPTS],
  );
}

export interface ReminderRow {
  match_id: string;
  user_id: string;
  kind: StoredReminderKind;
  minutes_before: number;
  due_at: Date;
  status: 'scheduled' | 'sent' | 'skipped';
  outcome: string | null;
  notification_id: string | null;
}

export async function remindersOf(db: Queryable, matchId: string): Promise<ReminderRow[]> {
  return db.query<ReminderRow>(
    `SELECT match_id, user_id, kind, minutes_before, due_at, status, outcome, notification_id
       FROM match_reminders WHERE match_id = $1 ORDER BY due_at, user_id, kind`,
    [matchId],
  );
}

// ---------------------------------------------------------------------------------------
// Timers: a player's own reminder timings, planned ahead for matches starting soon

export interface UpcomingMatchRow {
  id: string;
  player1_id: string;
  player2_id: string;
  scheduled_time: Date;
  created_at: Date;
}

/** Waiting matches starting in (from, to] (the no-show sweeper's index). */
export async function upcomingMatches(db: Queryable, from: Date, to: Date): Promise<UpcomingMatchRow[]> {
  return db.query<UpcomingMatchRow>(
    `SELECT id, player1_id, player2_id, scheduled_time, created_at FROM matches
      WHERE status IN ('pending', 'accepted') AND scheduled_time IS NOT NULL
        AND coalesce(scheduled_time, created_at) > $1 AND coalesce(scheduled_time, created_at) <= $2`,
    [from, to],
  );
}

/** These users' stored preferences in one query (the notifications repository reads one user at a time). */
export async function storedPreferences(db: Queryable, userIds: readonly string[]): Promise<Map<string, string>> {
  const rows = await db.query<{ user_id: string; preferences: string }>(
    'SELECT user_id, preferences FROM user_notification_preferences WHERE user_id = ANY ($1::uuid[])',
    [userIds],
  );
  return new Map(rows.map((r) => [r.user_id, r.preferences]));
}

export interface TimerRow {
  matchId: string;
  userId: string;
  minutesBefore: number;
  dueAt: Date;
}

/** Writes the timers not written yet; answers how many were new. */
export async function insertTimers(db: Queryable, timers: readonly TimerRow[]): Promise<number> {
  if (timers.length === 0) return 0;
  const rows = await db.query(
    `INSERT INTO match_reminders (match_id, user_id, kind, minutes_before, due_at)
     SELECT t.match_id, t.user_id, 'timer', t.minutes_before, t.due_at
       FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::timestamptz[]) AS t (match_id, user_id, minutes_before, due_at)
     ON CONFLICT (match_id, user_id, kind, minutes_before) DO NOTHING
     RETURNING 1`,
    [timers.map((t) => t.matchId), timers.map((t) => t.userId), timers.map((t) => t.minutesBefore), timers.map((t) => t.dueAt)],
  );
  return rows.length;
}
