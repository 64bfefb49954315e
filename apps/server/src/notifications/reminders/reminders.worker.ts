// Each due reminder is claimed and closed in its notification's transaction: a crash leaves it due, a commit
// never does. Only while the match is pending or accepted (SPEC §4), or external and started by schedule.
import { isGameId, isWebGame } from '@versus/domain/catalogue';
import { REMINDER_RULES, readPreferences, timerPriority, type NotificationPreferences } from '@versus/domain/notifications';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/database.ts';
import { notify } from '../notify.ts';
import * as repo from './reminders.repository.ts';

export interface ReminderContext extends Pick<AppContext, 'db' | 'log'> {
  preferencesOf(db: Queryable, userId: string): Promise<NotificationPreferences>;
}

export interface RunResult {
  sent: number;
  skipped: number;
  failed: number;
}

/** An "in 1 hour" reminder sent with less time than this left says the minutes instead. */
const LATE_HOUR_REMINDER_MINUTES = 55;

/** At most this many reminders per run; the rest wait for the next (a minute at most). */
const MAX_PER_RUN = 500;

type Outcome = 'sent' | 'skipped' | 'none';

/** Still waiting to be played: pending or accepted, or an external game started by its schedule (not early by both). */
function remindable(row: repo.DueReminderRow): boolean {
  if (REMINDER_RULES.remindStatuses.includes(row.match_status)) return true;
  if (row.match_status !== 'in_progress' || !isGameId(row.game_type) || isWebGame(row.game_type) || row.started_at === null) return false;
  return new Date(row.started_at).getTime() >= new Date(row.scheduled_time).getTime();
}

/** Processes one due reminder; 'none' when nothing (not held by another worker) is due. */
async function processOne(
  ctx: ReminderContext,
  now: Date,
  exclude: readonly number[],
): Promise<{ outcome: Outcome } | { failedId: number; error: unknown }> {
  let claimedId: number | null = null;
  try {
    const outcome = await ctx.db.transaction(async (tx): Promise<Outcome> => {
      const row = await repo.claimDue(tx, now, exclude);
      if (!row) return 'none';
      claimedId = row.id;
      if (!remindable(row)) {
        await repo.markSkipped(tx, row.id, `match_${row.match_status}`, now);
        return 'skipped';
      }
      if (row.superseded) {
        // Found late (the workers were down): only the latest due reminder is worth sending.
        await repo.markSkipped(tx, row.id, 'superseded', now);
        return 'skipped';
      }
      const prefs = await ctx.preferencesOf(tx, row.user_id);
      if (!prefs.match.reminders || !prefs.categories.match.enabled) {
        await repo.markSkipped(tx, row.id, 'preference_off', now);
        return 'skipped';
      }
      if (row.kind === 'timer' && !prefs.match.reminderMinutes.includes(row.minutes_before)) {
        await repo.markSkipped(tx, row.id, 'preference_changed', now);
        return 'skipped';
      }
      const scheduled = new Date(row.scheduled_time);
      const minutesUntil = Math.round((scheduled.getTime() - now.getTime()) / 60_000);
      const metadata = {
        matchId: row.match_id,
        gameType: row.game_type,
        reminderKind: row.kind,
        // One push per reminder (the push dedupe's key; see push.service.ts dedupeType).
        reminderKey: `${row.kind}:${row.minutes_before}`,
        ...(row.opponent_name ? { opponentName: row.opponent_name } : {}),
        scheduledTime: scheduled.toISOString(),
        minutesUntil,
      };
      const notification = await notify(tx, {
        userId: row.user_id,
        // A player's own timing says how long is left ("starts in 15 minutes"); so does "in 1
        // hour" sent late (the workers were down), which would be wrong otherwise.
        type:
          row.kind === 'timer' || (row.kind === 'before_1h' && minutesUntil < LATE_HOUR_REMINDER_MINUTES)
            ? 'match_starting_soon'
            : 'match_reminder',
        matchId: row.match_id,
        creatorId: row.opponent_id,
        metadata,
        // SPEC §9 timer reminders: 5 minutes or less critical, 15 or less high.
        priority: timerPriority(minutesUntil),
        now,
      });
      await repo.markSent(tx, row.id, notification.id, now);
      return 'sent';
    });
    return { outcome };
  } catch (error) {
    if (claimedId === null) throw error;
    return { failedId: claimedId, error };
  }
}

/** Sends or skips every reminder due at `now` (one transaction each). Safe to run concurrently. */
export async function runDueReminders(ctx: ReminderContext, now: () => Date = () => new Date()): Promise<RunResult> {
  const result: RunResult = { sent: 0, skipped: 0, failed: 0 };
  const failed: number[] = [];
  for (let i = 0; i < MAX_PER_RUN; i++) {
    const at = now();
    const step = await processOne(ctx, at, failed);
    if ('failedId' in step) {
      result.failed++;
      failed.push(step.failedId);
      ctx.log.error({ err: step.error, reminder: step.failedId }, 'reminders: sending failed');
      await repo.recordFailure(ctx.db, step.failedId, String((step.error as Error)?.message ?? step.error), at);
      continue;
    }
    if (step.outcome === 'none') break;
    result[step.outcome]++;
  }
  return result;
}

// ---------------------------------------------------------------------------------------
// Timers

/** How often timers are planned; a timer that came due up to this long ago is still written. */
export const PLAN_EVERY_MS = REMINDER_RULES.missedCheckMs;
const PLAN_BATCH = 500;

/** Each player's own timings for waiting matches within the lookahead (60 is the fixed "1 hour before"); idempotent. */
export async function planTimerReminders(ctx: Pick<AppContext, 'db'>, now = new Date()): Promise<number> {
  const matches = await repo.upcomingMatches(ctx.db, now, new Date(now.getTime() + REMINDER_RULES.lookaheadMs + PLAN_EVERY_MS));
  let written = 0;
  for (let i = 0; i < matches.length; i += PLAN_BATCH) {
    const batch = matches.slice(i, i + PLAN_BATCH);
    const stored = await repo.storedPreferences(ctx.db, [...new Set(batch.flatMap((m) => [m.player1_id, m.player2_id]))]);
    const timers: repo.TimerRow[] = [];
    for (const match of batch) {
      const start = new Date(match.scheduled_time).getTime();
      for (const userId of [match.player1_id, match.player2_id]) {
        const prefs = readPreferences(stored.get(userId) ?? null);
        if (!prefs.match.reminders) continue;
        for (const minutes of prefs.match.reminderMinutes) {
          if (minutes === 60) continue;
          const dueAt = start - minutes * 60_000;
          if (dueAt <= now.getTime() - PLAN_EVERY_MS || dueAt <= new Date(match.created_at).getTime()) continue;
          timers.push({ matchId: match.id, userId, minutesBefore: minutes, dueAt: new Date(dueAt) });
        }
      }
    }
    written += await repo.insertTimers(ctx.db, timers);
  }
  return written;
}
