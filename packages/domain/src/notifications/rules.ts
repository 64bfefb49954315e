// The numbers of SPEC §9 "Notifications" and "Reminders": expiry, retention, toasts, reminder
// offsets, timer priorities and quiet hours. Pure: the clock is always passed in.
import type { NotificationCategory, NotificationPriority } from './enums.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const NOTIFICATION_RULES = {
  /** Short message: 50 characters, cut to 47 plus "...". */
  shortMessageMax: 50,
  /** The badge shows "99+" above this. */
  badgeCap: 99,
  /** Read or unread, a notification is archived this long after it was made. */
  archiveAfterMs: 7 * DAY,
  /** Every notification is deleted this long after it was made. */
  deleteAfterMs: 90 * DAY,
  /** At most this many active (unread or read) notifications per user; older ones are archived. */
  maxActive: 50,
  maxUnread: 50,
  cleanupEveryMs: 6 * HOUR,
  /** One push per user, match and type within this window. */
  pushDedupeMs: HOUR,
  challengeReminderFrequencyMs: 24 * HOUR,
  /** GET /api/notifications: default and largest page. */
  listDefault: 50,
  listMax: 100,
} as const;

/** Days a category's notifications are kept (then deleted), never beyond deleteAfterMs. */
export const RETENTION_DAYS: Readonly<Record<NotificationCategory, number>> = {
  match: 30,
  challenge: 14,
  financial: 90,
  social: 7,
  system: 30,
};

export const retentionMs = (category: NotificationCategory): number =>
  Math.min(RETENTION_DAYS[category] * DAY, NOTIFICATION_RULES.deleteAfterMs);

/** SPEC §9 toast durations (ms). `Infinity`: stays until dismissed. */
export const TOAST_DURATIONS = {
  persistent: 8_000,
  default: 4_000,
  success: 5_000,
  info: 6_000,
  warning: 6_000,
  error: 10_000,
  critical: 15_000,
  opponentReady: Number.POSITIVE_INFINITY,
  shell: 5_000,
} as const;

/** Older than this on arrival goes to the bell without a toast; generous, as the device's clock measures it. */
export const TOAST_LATE_MS = 60_000;

/** SPEC §9: the same toast within 5 s is a duplicate; up to 3 repeats are shown; cleanup every 30 s. */
export const TOAST_DEDUPE = { windowMs: 5_000, maxRepeats: 3, cleanupMs: 30_000 } as const;

// ---------------------------------------------------------------------------------------
// Reminders

export const REMINDER_KINDS = ['before_1h', 'at_start', 'closing_5m'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

/** When each reminder is due, relative to the match's scheduled start, and how it is shown. */
export const REMINDERS: Readonly<Record<ReminderKind, { offsetMs: number; toastMs: number; urgent: boolean }>> = {
  before_1h: { offsetMs: -HOUR, toastMs: 5_000, urgent: false },
  at_start: { offsetMs: 0, toastMs: 10_000, urgent: true },
  closing_5m: { offsetMs: 5 * MINUTE, toastMs: 10_000, urgent: true },
};

export const REMINDER_RULES = {
  /** Reminders are sent only while the match is in one of these. */
  remindStatuses: ['pending', 'accepted'] as readonly string[],
  missedCheckMs: 60_000,
  recoveryDelayMs: 5_000,
  fallbackStartMs: 3_000,
  lookaheadMs: 24 * HOUR,
  defaultScheduledAheadMs: 2 * MINUTE,
  /** Preference defaults (minutes before the start). */
  defaultReminderMinutes: [60, 15, 5] as readonly number[],
} as const;

export const reminderDueAt = (scheduledAt: Date, kind: ReminderKind): Date => new Date(scheduledAt.getTime() + REMINDERS[kind].offsetMs);

/** SPEC §9 timer reminders: 5 minutes or less critical, 15 or less high, otherwise normal. */
export function timerPriority(minutesLeft: number): NotificationPriority {
  if (minutesLeft <= 5) return 'critical';
  if (minutesLeft <= 15) return 'high';
  return 'normal';
}

// ---------------------------------------------------------------------------------------
// Quiet hours (22:00–08:00 by default, off by default): silence sound and push, not the list.

export interface QuietHours {
  enabled: boolean;
  /** "HH:MM", 24-hour. */
  start: string;
  end: string;
  /** IANA time zone the times are read in. */
  timeZone: string;
}

export const DEFAULT_QUIET_HOURS: QuietHours = { enabled: false, start: '22:00', end: '08:00', timeZone: 'UTC' };

export const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** "22:30" → 1350; null when it is not a time of day. */
export function minutesOfDay(text: string): number | null {
  const match = TIME_OF_DAY.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
}

/** The minute of the day `at` is in `timeZone` (0–1439). */
export function minuteOfDayIn(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  return (hour % 24) * 60 + minute;
}

/** Whether a minute of the day falls in [start, end), across midnight when start > end. */
export function isMinuteInQuietWindow(minute: number, start: number, end: number): boolean {
  if (start === end) return false;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

export function isQuietHours(quiet: QuietHours, at: Date): boolean {
  if (!quiet.enabled) return false;
  const start = minutesOfDay(quiet.start);
  const end = minutesOfDay(quiet.end);
  if (start === null || end === null) return false;
  const zone = isValidTimeZone(quiet.timeZone) ? quiet.timeZone : 'UTC';
  return isMinuteInQuietWindow(minuteOfDayIn(at, zone), start, end);
}
