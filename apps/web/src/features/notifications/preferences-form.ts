// The preferences screen's checks: the domain schema decides, this maps its issues to one
// message per setting the screen can show next to it.
import { NOTIFICATION_SETTINGS as T, NOTIFICATIONS } from '@versus/domain';
import { notificationPreferencesSchema, type NotificationPreferences } from '@versus/domain/notifications';

/** Setting keys the screen shows errors under. */
export type PreferenceField = 'quietHours' | 'timeZone' | 'maxUnread' | 'reminderMinutes' | 'reminderFrequency' | 'form';

export type PreferenceErrors = Partial<Record<PreferenceField, string>>;

function fieldOf(path: readonly PropertyKey[]): PreferenceField {
  const [section, key, sub] = path.map(String);
  if (section === 'general' && key === 'quietHours') return sub === 'timeZone' ? 'timeZone' : 'quietHours';
  if (section === 'general' && key === 'maxUnread') return 'maxUnread';
  if (section === 'match' && key === 'reminderMinutes') return 'reminderMinutes';
  if (section === 'challenge' && key === 'reminderFrequencyHours') return 'reminderFrequency';
  return 'form';
}

const MESSAGES: Record<PreferenceField, string> = {
  quietHours: NOTIFICATIONS.invalidQuietHours,
  timeZone: NOTIFICATIONS.invalidTimeZone,
  maxUnread: T.invalidMaxUnread,
  reminderMinutes: NOTIFICATIONS.invalidReminderMinutes,
  reminderFrequency: T.invalidFrequency,
  form: NOTIFICATIONS.invalidPreferences,
};

export function validatePreferences(
  value: NotificationPreferences,
): { ok: true; value: NotificationPreferences } | { ok: false; errors: PreferenceErrors } {
  const result = notificationPreferencesSchema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const errors: PreferenceErrors = {};
  for (const issue of result.error.issues) {
    const field = fieldOf(issue.path);
    errors[field] ??= MESSAGES[field];
  }
  return { ok: false, errors };
}

/** A server refusal's field ("general.quietHours.start", "match.reminderMinutes") as the screen's. */
export function fieldOfServerError(field: string | undefined): PreferenceField {
  return field ? fieldOf(field.split('.')) : 'form';
}

/** The browser's own time zone, for quiet hours ("UTC" where it cannot say). */
export function deviceTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch (error) {
    console.debug('No time zone', error);
    return 'UTC';
  }
}
