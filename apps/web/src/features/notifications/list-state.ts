// The popover's list as data, pure; use-notifications.ts applies it to the TanStack Query cache.

/** The fields of a notification these rules read (the domain's Notification has them all). */
export interface ListedNotification {
  id: string;
  status: 'unread' | 'read' | 'archived' | 'dismissed';
  read: boolean;
  readAt: string | null;
  urgent: boolean;
  persistent: boolean;
  createdAt: string;
  expiresAt: string | null;
  version: number;
}

export interface NotificationList<N extends ListedNotification> {
  notifications: N[];
  unread: number;
  urgentUnread: number;
}

const isActive = (n: ListedNotification) => n.status === 'unread' || n.status === 'read';

/** The list again with its counts computed from it (the server keeps at most 50 active, all listed). */
export function withCounts<N extends ListedNotification>(notifications: N[]): NotificationList<N> {
  let unread = 0;
  let urgentUnread = 0;
  for (const n of notifications) {
    if (n.read) continue;
    unread += 1;
    if (n.urgent) urgentUnread += 1;
  }
  return { notifications, unread, urgentUnread };
}

const newestFirst = (a: ListedNotification, b: ListedNotification) => Date.parse(b.createdAt) - Date.parse(a.createdAt);

/** Replaces ours unless ours is newer, so a late answer cannot undo a newer change. */
export function upsert<N extends ListedNotification>(list: NotificationList<N>, incoming: N): NotificationList<N> {
  const current = list.notifications.find((n) => n.id === incoming.id);
  if (current && current.version > incoming.version) return list;
  const rest = list.notifications.filter((n) => n.id !== incoming.id);
  if (!isActive(incoming)) return withCounts(rest);
  return withCounts([...rest, incoming].sort(newestFirst));
}

/** `before`: another tab's "read all", after which a newer notification stays unread. */
export function readAll<N extends ListedNotification>(list: NotificationList<N>, at: string, before?: string): NotificationList<N> {
  const limit = before === undefined ? Number.POSITIVE_INFINITY : Date.parse(before);
  return withCounts(
    list.notifications.map((n) =>
      n.read || Date.parse(n.createdAt) > limit ? n : { ...n, read: true, readAt: at, status: 'read' as const },
    ),
  );
}

/** One read (optimistic). */
export function markRead<N extends ListedNotification>(list: NotificationList<N>, id: string, at: string): NotificationList<N> {
  return withCounts(
    list.notifications.map((n) => (n.id === id && !n.read ? { ...n, read: true, readAt: at, status: 'read' as const } : n)),
  );
}

/** Dismissed (optimistic): a persistent one is only marked read; any other leaves the list. */
export function dismiss<N extends ListedNotification>(list: NotificationList<N>, id: string, at: string): NotificationList<N> {
  const target = list.notifications.find((n) => n.id === id);
  if (!target) return list;
  if (target.persistent) return markRead(list, id, at);
  return withCounts(list.notifications.filter((n) => n.id !== id));
}

/** Drops the expired ones (SPEC §4: a periodic cleanup in memory); the same list when none are. */
export function dropExpired<N extends ListedNotification>(list: NotificationList<N>, now: number): NotificationList<N> {
  const kept = list.notifications.filter((n) => n.expiresAt === null || Date.parse(n.expiresAt) > now);
  return kept.length === list.notifications.length ? list : withCounts(kept);
}
