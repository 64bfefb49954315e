// The reminders worker: sends every due match reminder once, across any number of server
// processes, and after any restart. Each reminder is claimed with FOR UPDATE SKIP LOCKED and
// closed (sent or skipped) in the same transaction as its notification, so a crash before the
// commit leaves it due (recovered on the next run) and a commit never leaves it due (never sent
// twice). A reminder goes out only while its match is pending or accepted (SPEC §4 Reminder).
import { REMINDER_RULES, timerPriority, type NotificationPreferences } from '@versus/domain/notifications';
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

/** Processes one due reminder; 'none' when nothing (not held by another worker) is due. */
async function processOne(ctx: ReminderContext, now: Date, exclude: readonly number[]): Promise<{ outcome: Outcome } | { failedId: number; error: unknown }> {
  let claimedId: number | null = null;
  try {
    const outcome = await ctx.db.transaction(async (tx): Promise<Outcome> => {
      const row = await repo.claimDue(tx, now, exclude);
      if (!row) return 'none';
      claimedId = row.id;
      if (!REMINDER_RULES.remindStatuses.includes(row.match_status)) {
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
      const scheduled = new Date(row.scheduled_time);
      const minutesUntil = Math.round((scheduled.getTime() - now.getTime()) / 60_000);
      const metadata = {
        matchId: row.match_id,
        gameType: row.game_type,
        reminderKind: row.kind,
        ...(row.opponent_name ? { opponentName: row.opponent_name } : {}),
        scheduledTime: scheduled.toISOString(),
        minutesUntil,
      };
      const notification = await notify(tx, {
        userId: row.user_id,
        // "In 1 hour" sent late (the workers were down) would be wrong: say how long is left.
        type: row.kind === 'before_1h' && minutesUntil < LATE_HOUR_REMINDER_MINUTES ? 'match_starting_soon' : 'match_reminder',
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
