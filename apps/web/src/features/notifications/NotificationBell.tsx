import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Tabs } from 'radix-ui';
import { Bell, BellOff, CheckCheck, Search, Settings2 } from 'lucide-react';
import { NOTIFICATION_SETTINGS, NOTIFICATIONS } from '@versus/domain';
import {
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_GROUPS,
  badgeText,
  visibleNotifications,
  type CategoryFilter,
  type Notification,
  type NotificationGroup,
} from '@versus/domain/notifications';
import { useTickingClock } from '../../app/clock.ts';
import { Badge, Button, Input, Popover, PopoverContent, PopoverTrigger, Spinner, cn } from '../../ui/index.ts';
import { useAuth } from '../auth/use-auth.ts';
import { schedulePermissionPrompt } from './browser-notification.ts';
import { NotificationItem } from './NotificationItem.tsx';
import { useNotificationFeed, type NotificationFeed } from './use-notifications.ts';

export const PREFERENCES_PATH = '/settings/notifications';

/** The header bell (SPEC §2): unread badge, urgent marker, and the popover with the list. */
export function NotificationBell() {
  const { isAuthenticated } = useAuth();
  const feed = useNotificationFeed();
  const [open, setOpen] = useState(false);
  const prompted = useRef(false);
  const cancelPrompt = useRef<() => void>(() => undefined);
  useEffect(() => () => cancelPrompt.current(), []);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    // SPEC §2: the first opening asks for browser notifications after 1 s.
    if (next && !prompted.current) {
      prompted.current = true;
      cancelPrompt.current = schedulePermissionPrompt();
    }
  };

  const unread = feed.list?.unread ?? 0;
  const urgent = feed.list?.urgentUnread ?? 0;
  const label = badgeText(unread);
  const ariaLabel = urgent > 0 ? `${NOTIFICATIONS.bellLabel(unread)}, ${urgent} urgent` : NOTIFICATIONS.bellLabel(unread);

  return (
    <Popover open={open} onOpenChange={onOpenChange}>
      <PopoverTrigger asChild>
        <button
          type="button"
          aria-label={ariaLabel}
          data-testid="notification-bell"
          data-unread={unread}
          data-urgent={urgent > 0 || undefined}
          className="relative inline-flex size-10 items-center justify-center rounded-xl text-muted transition-colors hover:bg-surface-2 hover:text-fg data-[state=open]:bg-surface-2 data-[state=open]:text-fg"
        >
          <Bell className={cn('size-5', urgent > 0 && 'text-fg')} aria-hidden />
          {label && (
            <span
              data-testid="notification-badge"
              className="absolute top-0.5 right-0.5 min-w-4.5 rounded-full bg-accent-solid px-1 text-center text-[0.65rem] leading-4.5 font-bold text-accent-fg ring-2 ring-bg"
            >
              {label}
            </span>
          )}
          {urgent > 0 && (
            <span data-testid="notification-urgent" className="absolute top-1.5 left-1.5 flex size-2.5" aria-hidden>
              <span className="absolute inline-flex size-full animate-ping rounded-full bg-danger opacity-70 motion-reduce:animate-none" />
              <span className="relative inline-flex size-2.5 rounded-full bg-danger ring-2 ring-bg" />
            </span>
          )}
        </button>
      </PopoverTrigger>
      <PopoverContent
        className="flex max-h-[min(36rem,calc(100dvh-5rem))] w-[min(24rem,calc(100vw-1rem))] flex-col p-0"
        aria-label={NOTIFICATIONS.title}
        data-testid="notification-popover"
      >
        {isAuthenticated ? (
          <NotificationPanel feed={feed} close={() => setOpen(false)} />
        ) : (
          <p className="px-6 py-10 text-center text-sm text-muted">{NOTIFICATIONS.signInToView}</p>
        )}
      </PopoverContent>
    </Popover>
  );
}

const TAB_LABEL: Record<NotificationGroup, string> = NOTIFICATIONS.tabs;
const CATEGORY_OPTIONS: CategoryFilter[] = ['all', ...NOTIFICATION_CATEGORIES];

function NotificationPanel({ feed, close }: { feed: NotificationFeed; close(): void }) {
  const [group, setGroup] = useState<NotificationGroup>('all');
  const [category, setCategory] = useState<CategoryFilter>('all');
  const [query, setQuery] = useState('');
  const now = useTickingClock();
  const all = feed.list?.notifications;
  const shown = useMemo(() => visibleNotifications(all ?? [], { group, category, query }), [all, group, category, query]);
  const unread = feed.list?.unread ?? 0;
  const filtered = group !== 'all' || category !== 'all' || query.trim() !== '';

  const openNotification = useCallback(
    (n: Notification) => {
      close();
      feed.open(n);
    },
    [close, feed],
  );
  const openAction = useCallback(
    (n: Notification, url: string) => {
      close();
      feed.open(n, url);
    },
    [close, feed],
  );

  return (
    <>
      <div className="flex items-center gap-2 border-b border-border py-3 pr-2 pl-4">
        <h2 className="font-bold">{NOTIFICATIONS.title}</h2>
        <Badge tone={unread > 0 ? 'accent' : 'neutral'} className="whitespace-nowrap" data-testid="notification-new-count">
          {NOTIFICATION_SETTINGS.newCount(unread)}
        </Badge>
        <Button variant="ghost" size="sm" className="ml-auto shrink-0 px-2" disabled={unread === 0} onClick={() => void feed.markAllRead()}>
          <CheckCheck className="size-4" aria-hidden />
          {/* Narrow screens show the icon; the name stays for screen readers. */}
          <span className="max-[400px]:sr-only">{NOTIFICATIONS.markAllRead}</span>
        </Button>
      </div>
      <Tabs.Root value={group} onValueChange={(v) => setGroup(v as NotificationGroup)} className="flex min-h-0 flex-1 flex-col">
        <Tabs.List
          aria-label="Notification groups"
          className="mx-3 mt-3 grid grid-cols-4 gap-1 rounded-xl border border-border bg-bg/50 p-1"
        >
          {NOTIFICATION_GROUPS.map((g) => (
            <Tabs.Trigger
              key={g}
              value={g}
              className="rounded-lg px-2 py-1.5 text-xs font-bold text-muted transition pointer-coarse:min-h-10 outline-none hover:text-fg focus-visible:ring-2 focus-visible:ring-accent data-[state=active]:bg-accent-solid data-[state=active]:text-accent-fg"
            >
              {TAB_LABEL[g]}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <div className="flex gap-2 px-3 pt-3">
          <div className="min-w-0 flex-1">
            <label htmlFor="notification-search" className="sr-only">
              {NOTIFICATIONS.searchPlaceholder}
            </label>
            <Input
              id="notification-search"
              type="search"
              icon={<Search aria-hidden />}
              placeholder={NOTIFICATIONS.searchPlaceholder}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              className="h-9 text-sm"
            />
          </div>
          <label htmlFor="notification-category" className="sr-only">
            {NOTIFICATION_SETTINGS.category}
          </label>
          <select
            id="notification-category"
            value={category}
            onChange={(e) => setCategory(e.target.value as CategoryFilter)}
            className="h-9 w-28 shrink-0 rounded-xl pointer-coarse:h-10 border border-border bg-bg/60 px-2 text-sm text-fg outline-none focus:border-accent focus:ring-4 focus:ring-accent/20"
          >
            {CATEGORY_OPTIONS.map((c) => (
              <option key={c} value={c}>
                {NOTIFICATIONS.categoryFilter[c]}
              </option>
            ))}
          </select>
        </div>
        {NOTIFICATION_GROUPS.map((g) => (
          <Tabs.Content
            key={g}
            value={g}
            className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-2 py-2 outline-none"
            tabIndex={-1}
          >
            {g === group && (
              <ListBody feed={feed} shown={shown} filtered={filtered} now={now} onOpen={openNotification} onOpenUrl={openAction} />
            )}
          </Tabs.Content>
        ))}
      </Tabs.Root>
      <div className="border-t border-border p-2">
        <Link
          to={PREFERENCES_PATH}
          onClick={close}
          className="flex h-9 items-center justify-center gap-2 rounded-lg text-sm font-semibold text-muted hover:bg-surface-2 hover:text-fg focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none"
        >
          <Settings2 className="size-4" aria-hidden />
          {NOTIFICATION_SETTINGS.openPreferences}
        </Link>
      </div>
    </>
  );
}

function ListBody({
  feed,
  shown,
  filtered,
  now,
  onOpen,
  onOpenUrl,
}: {
  feed: NotificationFeed;
  shown: Notification[];
  filtered: boolean;
  now: number;
  onOpen(n: Notification): void;
  onOpenUrl(n: Notification, url: string): void;
}) {
  if (feed.isPending) {
    return (
      <div className="flex justify-center py-10">
        <Spinner className="size-5" />
      </div>
    );
  }
  if (feed.isError && !feed.list) {
    return (
      <div role="alert" className="flex flex-col items-center gap-3 px-6 py-8 text-center text-sm">
        <p className="text-danger">{NOTIFICATION_SETTINGS.loadFailed}</p>
        <Button variant="secondary" size="sm" onClick={feed.refetch}>
          {NOTIFICATION_SETTINGS.retry}
        </Button>
      </div>
    );
  }
  if (shown.length === 0) {
    return (
      <div className="flex flex-col items-center px-6 py-10 text-center" data-testid="notifications-empty">
        <span className="mb-3 inline-flex size-12 items-center justify-center rounded-2xl bg-surface-2 text-muted">
          <BellOff className="size-6" aria-hidden />
        </span>
        <p className="font-semibold">{filtered ? NOTIFICATIONS.noMatches : NOTIFICATIONS.empty}</p>
      </div>
    );
  }
  return (
    <ul className="space-y-1" aria-live="polite" data-testid="notification-list">
      {shown.map((n) => (
        <NotificationItem
          key={n.id}
          notification={n}
          now={now}
          fresh={feed.fresh.has(n.id)}
          onSeen={feed.seen}
          onOpen={onOpen}
          onOpenUrl={onOpenUrl}
          onMarkRead={(id) => void feed.markRead(id)}
          onDismiss={(id) => void feed.dismiss(id)}
        />
      ))}
    </ul>
  );
}
