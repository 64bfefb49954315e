import { useEffect, useState } from 'react';
import { AlertTriangle, Bell, Check, Coins, Swords, Trophy, Users, X } from 'lucide-react';
import { NOTIFICATIONS } from '@versus/domain';
import type { Notification, NotificationCategory } from '@versus/domain/notifications';
import { cn } from '../../ui/index.ts';
import { timeAgo } from './format.ts';

/** SPEC §2: a highlighted notification stays highlighted this long. */
export const HIGHLIGHT_MS = 3_000;

const ICONS: Record<NotificationCategory, typeof Bell> = {
  match: Trophy,
  challenge: Swords,
  financial: Coins,
  social: Users,
  system: Bell,
};

const ICON_TONES: Record<NotificationCategory, string> = {
  match: 'bg-accent/15 text-accent',
  challenge: 'bg-accent-2/15 text-accent-2',
  financial: 'bg-success/15 text-success',
  social: 'bg-vt/15 text-vt',
  system: 'bg-surface-2 text-muted',
};

export interface NotificationItemProps {
  notification: Notification;
  now: number;
  /** Newly arrived: highlighted for HIGHLIGHT_MS from when it is first shown. */
  fresh: boolean;
  onSeen(id: string): void;
  onOpen(n: Notification): void;
  onOpenUrl(n: Notification, url: string): void;
  onMarkRead(id: string): void;
  onDismiss(id: string): void;
}

export function NotificationItem({ notification: n, now, fresh, onSeen, onOpen, onOpenUrl, onMarkRead, onDismiss }: NotificationItemProps) {
  const [highlighted, setHighlighted] = useState(fresh);
  useEffect(() => {
    if (!fresh) return;
    setHighlighted(true);
    const timer = setTimeout(() => {
      setHighlighted(false);
      onSeen(n.id);
    }, HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [fresh, n.id, onSeen]);

  const Icon = n.urgent ? AlertTriangle : ICONS[n.category];
  // The first action is the item's own target; others get their own buttons.
  const extra = n.actions.slice(1).filter((a) => a.type !== 'dismiss' && a.type !== 'archive');
  return (
    <li
      data-testid="notification-item"
      data-notification-id={n.id}
      data-type={n.type}
      data-unread={!n.read || undefined}
      data-highlighted={highlighted || undefined}
      className={cn(
        'group relative rounded-xl border transition-colors duration-500',
        highlighted ? 'border-accent/60 bg-accent/15' : n.read ? 'border-transparent' : 'border-border/60 bg-surface-2/60',
      )}
    >
      <div className="flex items-start gap-3 p-3">
        <span
          className={cn(
            'mt-0.5 inline-flex size-9 shrink-0 items-center justify-center rounded-xl',
            n.urgent ? 'bg-danger/15 text-danger' : ICON_TONES[n.category],
          )}
        >
          <Icon className="size-4.5" aria-hidden />
        </span>
        <button
          type="button"
          onClick={() => onOpen(n)}
          className="min-w-0 flex-1 rounded-lg text-left outline-none focus-visible:ring-2 focus-visible:ring-accent"
        >
          <span className="flex items-center gap-1.5">
            {!n.read && <span className="size-2 shrink-0 rounded-full bg-accent" aria-hidden />}
            <span className={cn('truncate text-sm', n.read ? 'font-medium' : 'font-bold')}>{n.title}</span>
          </span>
          <span className="mt-0.5 line-clamp-2 text-[0.8rem] leading-snug text-muted" title={n.message}>
            {n.message}
          </span>
          <span className="mt-1 block text-[0.7rem] text-muted/80">
            <time dateTime={n.createdAt}>{timeAgo(n.createdAt, now)}</time>
            {n.urgent && <span className="ml-2 font-bold text-danger uppercase">Urgent</span>}
            <span className="sr-only">{n.read ? ', read' : ', unread'}</span>
          </span>
        </button>
        <div className="flex shrink-0 flex-col gap-1">
          {!n.read && (
            <IconButton label={`${NOTIFICATIONS.markRead}: ${n.title}`} onClick={() => onMarkRead(n.id)}>
              <Check className="size-4" aria-hidden />
            </IconButton>
          )}
          <IconButton label={`${NOTIFICATIONS.dismiss}: ${n.title}`} onClick={() => onDismiss(n.id)}>
            <X className="size-4" aria-hidden />
          </IconButton>
        </div>
      </div>
      {extra.length > 0 && (
        <div className="flex flex-wrap gap-1.5 px-3 pb-3 pl-15">
          {extra.map((action) => (
            <button
              key={`${action.type}-${action.url}`}
              type="button"
              onClick={() => onOpenUrl(n, action.url)}
              className="h-7 rounded-lg border border-border bg-surface px-2.5 pointer-coarse:h-10 text-xs font-semibold text-fg hover:border-accent/60"
            >
              {action.label}
            </button>
          ))}
        </div>
      )}
    </li>
  );
}

function IconButton({ label, onClick, children }: { label: string; onClick(): void; children: React.ReactNode }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label.split(':')[0]}
      onClick={onClick}
      className="inline-flex size-7 items-center justify-center rounded-lg text-muted pointer-coarse:size-10 hover:bg-surface hover:text-fg focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none"
    >
      {children}
    </button>
  );
}
