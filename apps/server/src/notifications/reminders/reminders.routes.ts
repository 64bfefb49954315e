// No routes: the worker sends the reminders a trigger writes with the match (matches_schedule_reminders.sql).
import { REMINDER_RULES } from '@versus/domain/notifications';
import type { App, AppContext } from '../../context.ts';
import { scheduleJob } from '../../jobs/scheduler.ts';
import { preferencesOf } from '../notifications.service.ts';
import { PLAN_EVERY_MS, planTimerReminders, runDueReminders } from './reminders.worker.ts';

/** Well within SPEC's 60 s missed-reminder check, so "starting now" is at most this late. */
export const REMINDERS_EVERY_MS = 10_000;

export async function remindersFeature(app: App, ctx: AppContext): Promise<void> {
  scheduleJob(app, ctx, {
    name: 'notifications.reminders',
    everyMs: Math.min(REMINDERS_EVERY_MS, REMINDER_RULES.missedCheckMs),
    // Reminders that fell due while every process was down are sent on the first run.
    runAtStart: true,
    async run() {
      const result = await runDueReminders({ db: ctx.db, log: ctx.log, preferencesOf });
      if (result.sent || result.skipped || result.failed) ctx.log.info(result, 'reminders: run');
      return result;
    },
  });
  scheduleJob(app, ctx, {
    name: 'notifications.reminder-timers',
    everyMs: PLAN_EVERY_MS,
    runAtStart: true,
    async run() {
      const written = await planTimerReminders(ctx);
      if (written) ctx.log.info({ written }, 'reminders: timers planned');
      return written;
    },
  });
}
