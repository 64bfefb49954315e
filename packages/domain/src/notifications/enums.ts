// The closed sets of SPEC §3 "Notification enumerations" (plus the tournaments' types): every
// type, category, priority, status and action type. The database CHECKs the same lists (apps/server/src/db/schema/09_notifications.sql).

export const NOTIFICATION_TYPES = [
  'match_invitation',
  'match_confirmed',
  'match_starting_soon',
  'match_reminder',
  'match_ready',
  'match_in_progress',
  'match_move_made',
  'match_started',
  'match_completed',
  'match_disputed',
  'match_forfeit',
  'challenge_accepted',
  'challenge_created',
  'challenge_expired',
  'challenge_declined',
  'challenge_reminder',
  'payment_received',
  'payment_sent',
  'credits_earned',
  'credits_deducted',
  'escrow_released',
  'friend_request',
  'friend_accepted',
  'follow_request',
  'follow_accepted',
  'player_online',
  'player_joined_room',
  'player_joined_challenge',
  'player_joined_pool_challenge',
  'system_announcement',
  'maintenance_notice',
  'feature_update',
  'account_update',
  'security_alert',
  // Tournaments (ours, issue 27).
  'tournament_starting_soon',
  'tournament_game_ready',
  'tournament_eliminated',
  'tournament_prize',
  'tournament_cancelled',
  'tournament_registered',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NOTIFICATION_CATEGORIES = ['match', 'challenge', 'financial', 'social', 'system'] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

export const NOTIFICATION_PRIORITIES = ['low', 'normal', 'high', 'critical'] as const;
export type NotificationPriority = (typeof NOTIFICATION_PRIORITIES)[number];

/** unread → read (a mark, or an action) → archived (after 7 days); dismissed is gone from the list. */
export const NOTIFICATION_STATUSES = ['unread', 'read', 'archived', 'dismissed'] as const;

export const NOTIFICATION_ACTION_TYPES = ['view', 'accept', 'decline', 'join', 'navigate', 'dismiss', 'archive', 'custom'] as const;
export type NotificationActionType = (typeof NOTIFICATION_ACTION_TYPES)[number];

/** High and critical count as urgent (SPEC §3). */
export const isUrgent = (priority: NotificationPriority): boolean => priority === 'high' || priority === 'critical';
