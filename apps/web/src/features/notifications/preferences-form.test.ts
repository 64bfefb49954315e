import { describe, expect, it } from 'vitest';
import { NOTIFICATION_SETTINGS, NOTIFICATIONS } from '@versus/domain';
import { DEFAULT_NOTIFICATION_PREFERENCES, type NotificationPreferences } from '@versus/domain/notifications';
import { fieldOfServerError, validatePreferences } from './preferences-form.ts';

const defaults = (): NotificationPreferences => structuredClone(DEFAULT_NOTIFICATION_PREFERENCES);

describe('preferences form', () => {
  it('accepts the defaults (reminders 60, 15, 5; quiet hours off, 22:00–08:00)', () => {
    const result = validatePreferences(defaults());
    expect(result.ok).toBe(true);
    expect(DEFAULT_NOTIFICATION_PREFERENCES.match.reminderMinutes).toEqual([60, 15, 5]);
  });

  it('refuses a bad quiet-hours time, time zone, reminder list, max unread and frequency, each under its setting', () => {
    const p = defaults();
    p.general.quietHours.start = '25:00';
    p.general.quietHours.timeZone = 'Mars/Olympus';
    p.general.maxUnread = 51;
    p.match.reminderMinutes = [15, 15];
    p.challenge.reminderFrequencyHours = 0;
    const result = validatePreferences(p);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({
      quietHours: NOTIFICATIONS.invalidQuietHours,
      timeZone: NOTIFICATIONS.invalidTimeZone,
      maxUnread: NOTIFICATION_SETTINGS.invalidMaxUnread,
      reminderMinutes: NOTIFICATIONS.invalidReminderMinutes,
      reminderFrequency: NOTIFICATION_SETTINGS.invalidFrequency,
    });
  });

  it('refuses an empty or non-number reminder time', () => {
    const p = defaults();
    p.match.reminderMinutes = [60, Number.NaN];
    const result = validatePreferences(p);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.reminderMinutes).toBe(NOTIFICATIONS.invalidReminderMinutes);
    p.match.reminderMinutes = [];
    expect(validatePreferences(p).ok).toBe(false);
  });

  it('maps the server refusal field to the setting', () => {
    expect(fieldOfServerError('general.quietHours.end')).toBe('quietHours');
    expect(fieldOfServerError('match.reminderMinutes.1')).toBe('reminderMinutes');
    expect(fieldOfServerError(undefined)).toBe('form');
  });
});
