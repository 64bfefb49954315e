// How the popover groups, searches and counts notifications (SPEC §2, §3): tabs All, Urgent,
// Matches, Social; a case-insensitive search over title, message and type; a category filter.
import { NOTIFICATION_RULES } from './rules.ts';
import { NOTIFICATION_TEMPLATES } from './templates.ts';
import type { NotificationCategory, NotificationPriority, NotificationType } from './enums.ts';

export const NOTIFICATION_GROUPS = ['all', 'urgent', 'match', 'social'] as const;
export type NotificationGroup = (typeof NOTIFICATION_GROUPS)[number];

export type CategoryFilter = NotificationCategory | 'all';

/** The fields grouping and search read (a Notification has them all). */
export interface Groupable {
  type: NotificationType;
  title: string;
  message: string;
  category: NotificationCategory;
  priority: NotificationPriority;
  urgent?: boolean;
}

/** Types the Matches tab always shows: every type of the match category. */
export const MATCH_GROUP_TYPES: readonly NotificationType[] = (Object.keys(NOTIFICATION_TEMPLATES) as NotificationType[]).filter(
  (type) => NOTIFICATION_TEMPLATES[type].category === 'match',
);

export function inGroup(n: Groupable, group: NotificationGroup): boolean {
  switch (group) {
    case 'all':
      return true;
    case 'urgent':
      return n.urgent ?? (n.priority === 'high' || n.priority === 'critical');
    case 'match':
      return MATCH_GROUP_TYPES.includes(n.type) || /match/i.test(n.message);
    case 'social':
      return /friend|follow/i.test(n.message);
  }
}

export const groupNotifications = <N extends Groupable>(list: readonly N[], group: NotificationGroup): N[] =>
  list.filter((n) => inGroup(n, group));

export function matchesSearch(n: Groupable, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return n.title.toLowerCase().includes(q) || n.message.toLowerCase().includes(q) || n.type.toLowerCase().includes(q);
}

export const searchNotifications = <N extends Groupable>(list: readonly N[], query: string): N[] =>
  list.filter((n) => matchesSearch(n, query));

export const filterByCategory = <N extends Groupable>(list: readonly N[], category: CategoryFilter): N[] =>
  category === 'all' ? [...list] : list.filter((n) => n.category === category);

/** Group, then category, then search: what the popover lists. */
export const visibleNotifications = <N extends Groupable>(
  list: readonly N[],
  view: { group?: NotificationGroup; category?: CategoryFilter; query?: string },
): N[] => searchNotifications(filterByCategory(groupNotifications(list, view.group ?? 'all'), view.category ?? 'all'), view.query ?? '');

/** The bell's badge: nothing at 0, "99+" above 99. */
export function badgeText(unread: number): string | null {
  if (unread <= 0) return null;
  return unread > NOTIFICATION_RULES.badgeCap ? `${NOTIFICATION_RULES.badgeCap}+` : String(unread);
}
