// The player's notifications kept live from user:{id}; marks and dismissals are optimistic, rolled
// back by a reload when the server refuses.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { NOTIFICATIONS } from '@versus/domain';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  NOTIFICATION_EVENTS,
  notificationSchema,
  type Notification,
  type NotificationList,
  type NotificationPreferences,
} from '@versus/domain/notifications';
import { useAuth } from '../auth/use-auth.ts';
import { snapshotMayBeBehind, useRealtime } from '../../realtime/index.ts';
import { deliverNotification } from './deliver.ts';
import { dismiss, dropExpired, markRead, readAll, upsert } from './list-state.ts';
import { fetchNotifications, fetchPreferences, notificationKeys, postDismiss, postRead, postReadAll } from './notifications.api.ts';
import { openTarget } from './target.ts';
import { currentStatus } from './current-status.ts';
import { shouldToast } from './still-current.ts';
import { interactionGate } from './vibration.ts';

/** Expired notifications leave the list this often (SPEC §4 "periodic cleanup"). */
const EXPIRY_SWEEP_MS = 60_000;

/** The `at` of a notification.read-all payload ({count, at}); null when it is not one. */
function readAllAt(payload: unknown): string | null {
  if (typeof payload !== 'object' || payload === null || !('at' in payload)) return null;
  return typeof payload.at === 'string' && !Number.isNaN(Date.parse(payload.at)) ? payload.at : null;
}

function useUserId(): string | null {
  const { user, isAuthenticated } = useAuth();
  return isAuthenticated && user ? user.id : null;
}

/** Opens a notification's URL in the app (full navigation when the router cannot). */
export function useOpenTarget(): (url: string | null | undefined) => boolean {
  const navigate = useNavigate();
  return useCallback(
    (url) =>
      openTarget(url, window.location.origin, { navigate: (path) => navigate(path), assign: (href) => window.location.assign(href) }),
    [navigate],
  );
}

/** The player's preferences (defaults until loaded, or when they cannot be read). */
export function useNotificationPreferences() {
  const userId = useUserId();
  return useQuery({
    queryKey: notificationKeys.preferences(userId ?? ''),
    queryFn: ({ signal }) => fetchPreferences(signal),
    enabled: userId !== null,
    staleTime: 5 * 60_000,
  });
}

export interface NotificationFeed {
  list: NotificationList | undefined;
  isPending: boolean;
  isError: boolean;
  refetch(): void;
  /** Arrived over realtime and not yet shown highlighted. */
  fresh: ReadonlySet<string>;
  /** A fresh one has been shown highlighted for its 3 s. */
  seen(id: string): void;
  markRead(id: string): Promise<void>;
  markAllRead(): Promise<void>;
  dismiss(id: string): Promise<void>;
  /** Reads `n` if unread, then follows `url` (its target unless an action names another). */
  open(n: Notification, url?: string | null): void;
}

/** Mount once (the header bell): follows the topic and delivers new notifications. */
export function useNotificationFeed(): NotificationFeed {
  const userId = useUserId();
  const queryClient = useQueryClient();
  const key = notificationKeys.list(userId ?? '');
  const query = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => fetchNotifications(signal),
    enabled: userId !== null,
    staleTime: 30_000,
  });
  const prefs = useNotificationPreferences();
  const prefsRef = useRef<NotificationPreferences>(DEFAULT_NOTIFICATION_PREFERENCES);
  prefsRef.current = prefs.data ?? DEFAULT_NOTIFICATION_PREFERENCES;
  const openUrl = useOpenTarget();
  const [fresh, setFresh] = useState<ReadonlySet<string>>(() => new Set());

  const setList = useCallback(
    (change: (list: NotificationList) => NotificationList) => {
      queryClient.setQueryData<NotificationList>(notificationKeys.list(userId ?? ''), (old) => (old ? change(old) : old));
    },
    [queryClient, userId],
  );
  const reload = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: notificationKeys.list(userId ?? '') }),
    [queryClient, userId],
  );

  useRealtime(userId ? `user:${userId}` : null, (update) => {
    // After a reconnect the topic resumes from its last version; refetch too, in case events were dropped.
    if (snapshotMayBeBehind(update) || update.kind === 'resumed') return reload();
    if (update.kind !== 'event') return;
    if (update.type === NOTIFICATION_EVENTS.created || update.type === NOTIFICATION_EVENTS.updated) {
      const parsed = notificationSchema.safeParse(update.payload);
      if (!parsed.success) return reload();
      const n = parsed.data;
      const known = queryClient.getQueryData<NotificationList>(key)?.notifications.some((m) => m.id === n.id) ?? false;
      setList((list) => upsert(list, n));
      if (update.type === NOTIFICATION_EVENTS.created && !known && n.status === 'unread') {
        setFresh((set) => new Set(set).add(n.id));
        // Past its moment, or calling to an action its match or challenge no longer takes: the bell only.
        void shouldToast(n, Date.now(), currentStatus).then((toastIt) => {
          if (toastIt) deliverNotification(n, prefsRef.current, openUrl);
        });
      }
    } else if (update.type === NOTIFICATION_EVENTS.readAll) {
      const at = readAllAt(update.payload);
      if (at === null) return reload();
      setList((list) => readAll(list, at, at));
    }
  });

  useEffect(() => {
    if (!userId) return;
    const timer = setInterval(() => setList((list) => dropExpired(list, Date.now())), EXPIRY_SWEEP_MS);
    return () => clearInterval(timer);
  }, [userId, setList]);

  useEffect(() => interactionGate.watch(window), []);

  const optimistic = useCallback(
    async <T>(change: (list: NotificationList) => NotificationList, call: () => Promise<T>, confirm: (result: T) => void) => {
      await queryClient.cancelQueries({ queryKey: notificationKeys.list(userId ?? '') });
      setList(change);
      let result: T;
      try {
        result = await call();
      } catch (error) {
        toast.error(NOTIFICATIONS.actionFailed, { description: error instanceof Error ? error.message : undefined });
        reload();
        return;
      }
      confirm(result);
    },
    [queryClient, userId, setList, reload],
  );

  const now = () => new Date().toISOString();
  const markReadFn = useCallback(
    (id: string) =>
      optimistic(
        (list) => markRead(list, id, now()),
        () => postRead(id),
        (n) => setList((list) => upsert(list, n)),
      ),
    [optimistic, setList],
  );
  const dismissFn = useCallback(
    (id: string) =>
      optimistic(
        (list) => dismiss(list, id, now()),
        () => postDismiss(id),
        (n) => setList((list) => upsert(list, n)),
      ),
    [optimistic, setList],
  );
  const markAllReadFn = useCallback(
    () =>
      optimistic(
        (list) => readAll(list, now()),
        () => postReadAll(),
        (count) => void toast.success(NOTIFICATIONS.allRead, { description: NOTIFICATIONS.allReadCount(count) }),
      ),
    [optimistic],
  );

  const seen = useCallback((id: string) => {
    setFresh((set) => {
      if (!set.has(id)) return set;
      const next = new Set(set);
      next.delete(id);
      return next;
    });
  }, []);

  return {
    list: query.data,
    isPending: query.isPending && userId !== null,
    isError: query.isError,
    refetch: () => void query.refetch(),
    fresh,
    seen,
    markRead: markReadFn,
    markAllRead: markAllReadFn,
    dismiss: dismissFn,
    open: (n, url = n.targetUrl) => {
      // An action reads the notification (SPEC §4), then follows its target.
      if (!n.read) void markReadFn(n.id);
      openUrl(url);
    },
  };
}
