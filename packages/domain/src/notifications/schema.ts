// Notifications on the wire (API answers and realtime payloads) and the preferences a player
// keeps (SPEC §3 "Notification preferences", §9 defaults). zod schemas are the only source of types.
import { z } from 'zod';
import { NOTIFICATIONS } from '../messages.ts';
import {
  NOTIFICATION_ACTION_TYPES,
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_PRIORITIES,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TYPES,
  type NotificationCategory,
  type NotificationType,
} from './enums.ts';
import { DEFAULT_QUIET_HOURS, NOTIFICATION_RULES, REMINDER_RULES, TIME_OF_DAY, isValidTimeZone } from './rules.ts';

export const notificationActionSchema = z.object({
  label: z.string(),
  url: z.string(),
  type: z.enum(NOTIFICATION_ACTION_TYPES),
});

export const notificationSchema = z.object({
  id: z.string(),
  userId: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  title: z.string(),
  message: z.string(),
  shortMessage: z.string(),
  category: z.enum(NOTIFICATION_CATEGORIES),
  priority: z.enum(NOTIFICATION_PRIORITIES),
  urgent: z.boolean(),
  silent: z.boolean(),
  persistent: z.boolean(),
  status: z.enum(NOTIFICATION_STATUSES),
  read: z.boolean(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
  /** = createdAt (SPEC §3: the client's timestamp). */
  timestamp: z.string(),
  expiresAt: z.string().nullable(),
  matchId: z.string().nullable(),
  challengeId: z.string().nullable(),
  creatorId: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  actions: z.array(notificationActionSchema),
  targetUrl: z.string().nullable(),
  /** Bumped on every change of the row; a client keeps the higher one. */
  version: z.number().int(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const listNotificationsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(NOTIFICATION_RULES.listMax).default(NOTIFICATION_RULES.listDefault),
});
export const notificationListSchema = z.object({
  notifications: z.array(notificationSchema),
  unread: z.number().int(),
  urgentUnread: z.number().int(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;
export const notificationResponseSchema = z.object({ notification: notificationSchema });
export const readAllResponseSchema = z.object({ count: z.number().int() });

/** Realtime event types on `user:{id}`. */
export const NOTIFICATION_EVENTS = {
  created: 'notification.created',
  updated: 'notification.updated',
  readAll: 'notification.read-all',
} as const;
export interface NotificationsReadAllEvent {
  count: number;
  /** ISO time of the mark: every notification made before it is read. */
  at: string;
}

// ---------------------------------------------------------------------------------------
// Preferences

const timeOfDay = z.string().regex(TIME_OF_DAY, NOTIFICATIONS.invalidQuietHours);

const categoryPreferenceSchema = z.strictObject({
  enabled: z.boolean(),
  sound: z.boolean(),
  browser: z.boolean(),
  push: z.boolean(),
  email: z.boolean(),
  priority: z.enum(NOTIFICATION_PRIORITIES),
});
export type CategoryPreference = z.infer<typeof categoryPreferenceSchema>;

export const notificationPreferencesSchema = z.strictObject({
  general: z.strictObject({
    sound: z.boolean(),
    browser: z.boolean(),
    email: z.boolean(),
    push: z.boolean(),
    quietHours: z.strictObject({
      enabled: z.boolean(),
      start: timeOfDay,
      end: timeOfDay,
      timeZone: z.string().max(64).refine(isValidTimeZone, NOTIFICATIONS.invalidTimeZone),
    }),
    batching: z.boolean(),
    maxUnread: z.number().int().min(1).max(NOTIFICATION_RULES.maxUnread),
  }),
  categories: z.strictObject({
    match: categoryPreferenceSchema,
    challenge: categoryPreferenceSchema,
    financial: categoryPreferenceSchema,
    social: categoryPreferenceSchema,
    system: categoryPreferenceSchema,
  }),
  match: z.strictObject({
    reminders: z.boolean(),
    reminderMinutes: z
      .array(z.number().int().min(1).max(1440))
      .min(1)
      .max(5)
      .refine((list) => new Set(list).size === list.length, NOTIFICATIONS.invalidReminderMinutes),
    turnAlerts: z.boolean(),
    resultAlerts: z.boolean(),
  }),
  challenge: z.strictObject({
    accepted: z.boolean(),
    expiring: z.boolean(),
    newMatching: z.boolean(),
    reminderFrequencyHours: z.number().int().min(1).max(168),
  }),
  social: z.strictObject({
    friendRequests: z.boolean(),
    follows: z.boolean(),
    onlineStatus: z.boolean(),
    roomJoins: z.boolean(),
  }),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;
export const preferencesResponseSchema = z.object({ preferences: notificationPreferencesSchema });

const category = (over: Partial<CategoryPreference> = {}): CategoryPreference => ({
  enabled: true,
  sound: true,
  browser: true,
  push: true,
  email: false,
  priority: 'normal',
  ...over,
});

/** SPEC §9: match high priority with sound on; financial sound off and email on; social browser off. */
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  general: {
    sound: true,
    browser: true,
    email: false,
    push: true,
    quietHours: { ...DEFAULT_QUIET_HOURS },
    batching: false,
    maxUnread: NOTIFICATION_RULES.maxUnread,
  },
  categories: {
    match: category({ sound: true, priority: 'high' }),
    challenge: category(),
    financial: category({ sound: false, email: true }),
    social: category({ browser: false }),
    system: category(),
  },
  match: { reminders: true, reminderMinutes: [...REMINDER_RULES.defaultReminderMinutes], turnAlerts: true, resultAlerts: true },
  challenge: { accepted: true, expiring: true, newMatching: false, reminderFrequencyHours: 24 },
  social: { friendRequests: true, follows: true, onlineStatus: false, roomJoins: true },
};

const copyDefaults = (): NotificationPreferences => JSON.parse(JSON.stringify(DEFAULT_NOTIFICATION_PREFERENCES)) as NotificationPreferences;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function mergeDeep(base: unknown, over: unknown): unknown {
  if (!isObject(base) || !isObject(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(base)) out[key] = mergeDeep(base[key], over[key]);
  return out;
}

/** Stored preferences may be older or partial: an invalid field falls back to its default section; never throws. */
export function readPreferences(stored: unknown): NotificationPreferences {
  let value = stored;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      // Unparseable stored text: SPEC §3 treats it as absent.
      value = null;
    }
  }
  if (!isObject(value)) return copyDefaults();
  const merged = mergeDeep(DEFAULT_NOTIFICATION_PREFERENCES, value) as Record<string, unknown>;
  const result = notificationPreferencesSchema.safeParse(merged);
  if (result.success) return result.data;
  // Keep the valid sections, reset the broken ones.
  const out = copyDefaults() as unknown as Record<string, unknown>;
  for (const key of Object.keys(out)) {
    const section = notificationPreferencesSchema.shape[key as keyof NotificationPreferences].safeParse(merged[key]);
    if (section.success) out[key] = section.data;
  }
  return out as NotificationPreferences;
}

/** False when the player turned off the per-event switch (SPEC §3) that governs `type`. */
export function eventEnabled(
  prefs: Pick<NotificationPreferences, 'match' | 'challenge' | 'social'>,
  type: NotificationType | (string & {}),
): boolean {
  switch (type) {
    case 'match_move_made':
      return prefs.match.turnAlerts;
    case 'match_completed':
    case 'match_forfeit':
    case 'tournament_eliminated':
      return prefs.match.resultAlerts;
    case 'match_reminder':
    case 'match_starting_soon':
    case 'tournament_starting_soon':
      return prefs.match.reminders;
    case 'challenge_accepted':
      return prefs.challenge.accepted;
    case 'friend_request':
    case 'friend_accepted':
      return prefs.social.friendRequests;
    case 'follow_request':
    case 'follow_accepted':
      return prefs.social.follows;
    case 'player_online':
      return prefs.social.onlineStatus;
    case 'player_joined_room':
      return prefs.social.roomJoins;
    // No switch governs these: a new type must be placed above or here.
    case 'match_invitation':
    case 'match_confirmed':
    case 'match_ready':
    case 'match_in_progress':
    case 'match_started':
    case 'match_disputed':
    case 'challenge_created':
    case 'challenge_expired':
    case 'challenge_declined':
    case 'challenge_reminder':
    case 'payment_received':
    case 'payment_sent':
    case 'credits_earned':
    case 'credits_deducted':
    case 'escrow_released':
    case 'player_joined_challenge':
    case 'player_joined_pool_challenge':
    case 'system_announcement':
    case 'maintenance_notice':
    case 'feature_update':
    case 'account_update':
    case 'tournament_game_ready':
    case 'tournament_prize':
    case 'tournament_cancelled':
    case 'tournament_registered':
    case 'security_alert':
      return true;
    default:
      // A type this build does not know yet (a newer server).
      return true;
  }
}

/** Whether a category's notifications may use a channel, given the general switch too. */
export function channelAllowed(
  prefs: NotificationPreferences,
  category: NotificationCategory,
  channel: 'sound' | 'browser' | 'push' | 'email',
): boolean {
  const cat = prefs.categories[category];
  return cat.enabled && cat[channel] && prefs.general[channel];
}
