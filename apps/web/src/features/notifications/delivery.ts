// Which channels a new notification uses (SPEC §4, §9); pure: clock, visibility and permission are
// passed in.
import {
  eventEnabled,
  isQuietHours,
  REMINDERS,
  TOAST_DURATIONS,
  type NotificationPreferences,
  type QuietHours,
  type ReminderKind,
} from '@versus/domain/notifications';
import type { NotificationCategory, NotificationPriority } from '@versus/domain/notifications';
import { soundKindFor, type SoundKind } from './sound.ts';
import { vibrationFor, type VibrationKind } from './vibration.ts';

export interface DeliveryPreferences extends Pick<NotificationPreferences, 'match' | 'challenge' | 'social'> {
  general: { sound: boolean; browser: boolean; quietHours: QuietHours };
  categories: Record<NotificationCategory, { enabled: boolean; sound: boolean; browser: boolean }>;
}

export interface Deliverable {
  type: string;
  category: NotificationCategory;
  priority: NotificationPriority;
  urgent: boolean;
  silent: boolean;
  persistent: boolean;
  metadata: Record<string, unknown> | null;
}

export interface DeliveryContext {
  now: Date;
  tabHidden: boolean;
  permission: NotificationPermission | 'unsupported';
  /** The user has interacted with the page (vibration is allowed). */
  interacted: boolean;
}

export type ToastTone = 'success' | 'info' | 'warning' | 'error' | 'critical' | 'default';

export interface Delivery {
  toast: { tone: ToastTone; durationMs: number } | null;
  sound: SoundKind | null;
  system: boolean;
  vibrate: VibrationKind | null;
}

const NOTHING: Delivery = { toast: null, sound: null, system: false, vibrate: null };

const SUCCESS = new Set(['credits_earned', 'escrow_released', 'payment_received', 'friend_accepted', 'follow_accepted']);
const WARNING = new Set([
  'match_disputed',
  'match_forfeit',
  'challenge_expired',
  'challenge_declined',
  'credits_deducted',
  'maintenance_notice',
]);
const INFO = new Set(['system_announcement', 'feature_update', 'account_update']);

/** The toast's look by kind. */
export function toastTone(n: Pick<Deliverable, 'type' | 'priority' | 'metadata'>): ToastTone {
  if (n.type === 'security_alert') return 'error';
  if (n.priority === 'critical') return 'critical';
  if (n.type === 'match_completed') {
    const result = n.metadata?.['result'];
    return result === 'win' ? 'success' : result === 'loss' ? 'warning' : 'info';
  }
  if (SUCCESS.has(n.type)) return 'success';
  if (WARNING.has(n.type)) return 'warning';
  if (INFO.has(n.type)) return 'info';
  return 'default';
}

/** SPEC §9 toast durations: reminders by kind (5 s, 10 s), opponent ready until dismissed, then by kind, persistent 8 s, else 4 s. */
export function toastDuration(n: Pick<Deliverable, 'type' | 'priority' | 'persistent' | 'metadata'>): number {
  if (n.type === 'match_ready') return TOAST_DURATIONS.opponentReady;
  if (n.type === 'match_reminder') {
    const kind = n.metadata?.['reminderKind'];
    if (typeof kind === 'string' && kind in REMINDERS) return REMINDERS[kind as ReminderKind].toastMs;
  }
  const tone = toastTone(n);
  if (tone !== 'default') return TOAST_DURATIONS[tone];
  return n.persistent ? TOAST_DURATIONS.persistent : TOAST_DURATIONS.default;
}

export function decideDelivery(n: Deliverable, prefs: DeliveryPreferences, context: DeliveryContext): Delivery {
  const category = prefs.categories[n.category];
  // The category's switch, then the event's own ("When it's my turn", "Match results"...), as the server's push does.
  if (!category.enabled || !eventEnabled(prefs, n.type)) return NOTHING;
  const quiet = isQuietHours(prefs.general.quietHours, context.now);
  const audible = !quiet && !n.silent;
  const system = !quiet && context.tabHidden && context.permission === 'granted' && prefs.general.browser && category.browser;
  return {
    toast: context.tabHidden ? null : { tone: toastTone(n), durationMs: toastDuration(n) },
    sound: audible && prefs.general.sound && category.sound ? soundKindFor(n.category, n.urgent) : null,
    system,
    vibrate: audible && context.interacted ? vibrationFor(n.type, n.urgent) : null,
  };
}
