import { forwardRef, type ReactNode } from 'react';
import { AlarmClock, Clock, Eye, Flame, Lock, Star, Swords, Timer, Users, X } from 'lucide-react';
import { timeControlLabel } from '@versus/domain/arena';
import { PLATFORM_LABELS, formatRelativeTime, formatTimeLeft } from '@versus/domain/catalogue';
import type { Challenge } from '@versus/domain/challenges';
import { initials } from '../../app/nav.ts';
import { Badge, Button, cn } from '../../ui/index.ts';
import { GAME_ICONS, PLATFORM_ICONS, SKILL_LABELS, stakeMoney } from '../challenges/visuals.ts';

export interface ChallengeCardProps {
  challenge: Challenge;
  now: Date;
  own: boolean;
  highlighted: boolean;
  /** Arrived live since the page opened. */
  fresh: boolean;
  busy: boolean;
  onDetails: () => void;
  onAccept: () => void;
  onCancel: () => void;
}

/** One open challenge (SPEC §3 client shape): game, platform, stake, payout, creator, time left, players. */
export const ChallengeCard = forwardRef<HTMLElement, ChallengeCardProps>(function ChallengeCard(
  { challenge: c, now, own, highlighted, fresh, busy, onDetails, onAccept, onCancel },
  ref,
) {
  const GameIcon = GAME_ICONS[c.game];
  const PlatformIcon = PLATFORM_ICONS[c.platform];
  const timeLeft = formatTimeLeft(c.expiresAt, now);
  const titleId = `challenge-${c.id}-title`;
  const name = c.creator.displayName || c.creator.username;
  const clock = timeControlLabel(c.game, c.duration);
  return (
    <article
      ref={ref}
      id={`challenge-${c.id}`}
      data-testid="challenge-card"
      data-challenge-id={c.id}
      data-highlighted={highlighted || undefined}
      aria-labelledby={titleId}
      className={cn(
        'glass group relative flex w-full min-w-0 flex-col overflow-hidden rounded-2xl transition-[border-color,box-shadow] hover:border-accent/50',
        highlighted && 'border-accent-2 shadow-glow-cyan ring-2 ring-accent-2/70',
        fresh && 'motion-safe:animate-rise',
      )}
    >
      <header className="relative flex items-start gap-3 border-b border-border/60 bg-linear-to-br from-accent/20 via-surface-2/30 to-accent-2/10 p-4">
        <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-bg/60 ring-1 ring-accent/40">
          <GameIcon className="size-5 text-accent-2" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <p className="flex items-center gap-1.5 text-[0.7rem] font-bold tracking-[0.16em] text-accent-2 uppercase">
            {c.gameName}
            {c.isPrivate && <Lock className="size-3" aria-label="Private" />}
          </p>
          <h3 id={titleId} className="line-clamp-2 text-base leading-snug font-black sm:text-lg">
            {c.title}
          </h3>
        </div>
        <span
          className={cn(
            'inline-flex shrink-0 items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-bold tabular-nums',
            timeLeft === 'Expired' ? 'border-danger/40 text-danger' : 'border-border bg-bg/50 text-fg',
          )}
          title={c.expiresAt ? `Expires ${new Date(c.expiresAt).toLocaleString()}` : 'Open until accepted or cancelled'}
        >
          <Clock className="size-3.5 text-muted" aria-hidden />
          <span className="sr-only">Time left:</span>
          {timeLeft ?? 'No expiry'}
        </span>
      </header>

      <div className="flex flex-1 flex-col gap-4 p-4">
        <ul className="flex flex-wrap gap-1.5 text-xs font-semibold text-muted" aria-label="Details">
          <Chip icon={<PlatformIcon aria-hidden />}>{PLATFORM_LABELS[c.platform]}</Chip>
          <Chip icon={<Swords aria-hidden />}>{c.matchFormat}</Chip>
          {clock && (
            <Chip icon={<AlarmClock aria-hidden />}>
              <span className="sr-only">Clock per player per game:</span>
              <span data-testid="card-time-control" title="Clock per player per game">
                {clock}
              </span>
            </Chip>
          )}
          <Chip icon={<Star aria-hidden />}>{SKILL_LABELS[c.skillLevel]}</Chip>
          <Chip icon={<Users aria-hidden />}>
            {c.participants}/{c.maxParticipants} players
          </Chip>
          {fresh && (
            <li>
              <Badge tone="success">New</Badge>
            </li>
          )}
          {own && (
            <li>
              <Badge tone="cyan">Yours</Badge>
            </li>
          )}
        </ul>

        <div className="flex items-center gap-3">
          <Avatar name={name} src={c.creatorProfile.avatar} />
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-bold">{name}</p>
            <p className="flex flex-wrap items-center gap-x-2 text-xs text-muted" data-testid="creator-stats">
              <span>
                <span className="font-semibold text-success">{c.creatorProfile.wins}W</span>
                {' – '}
                <span className="font-semibold text-danger">{c.creatorProfile.losses}L</span>
              </span>
              <span className="inline-flex items-center gap-0.5" title="Win streak">
                <Flame className="size-3.5 text-warning" aria-hidden />
                <span className="sr-only">Streak</span>
                {c.creatorProfile.streak}
              </span>
              <span className="inline-flex items-center gap-0.5" title="Rating">
                <Star className="size-3.5 text-accent" aria-hidden />
                <span className="sr-only">Rating</span>
                {c.creatorProfile.rating}
              </span>
            </p>
          </div>
        </div>

        <dl className="grid grid-cols-3 gap-2 text-center">
          <Stat label="Stake" value={stakeMoney(c.stake, c.currency)} />
          <Stat label="Payout" value={stakeMoney(c.payout, c.currency)} tone="text-success" />
          <Stat label="Fee" value="FREE" tone="text-accent-2" />
        </dl>

        <div className="mt-auto flex items-center gap-2 pt-1">
          <p className="flex min-w-0 flex-1 items-center gap-3 text-xs text-muted">
            <span className="inline-flex items-center gap-1" data-testid="views">
              <Eye className="size-3.5" aria-hidden />
              <span className="tabular-nums">{c.views}</span>
              <span className="sr-only">views</span>
            </span>
            <span className="inline-flex items-center gap-1 truncate">
              <Timer className="size-3.5 shrink-0" aria-hidden />
              {formatRelativeTime(c.createdAt, now)}
            </span>
          </p>
          <Button variant="ghost" size="sm" onClick={onDetails} aria-label={`Details of ${c.title}`}>
            Details
          </Button>
          {own ? (
            <Button variant="outline" size="sm" onClick={onCancel} loading={busy} aria-label={`Cancel ${c.title}`}>
              <X className="size-4" aria-hidden />
              Cancel
            </Button>
          ) : (
            <Button size="sm" onClick={onAccept} loading={busy} aria-label={`Accept ${c.title}`}>
              Accept
            </Button>
          )}
        </div>
      </div>
    </article>
  );
});

function Chip({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <li className="inline-flex items-center gap-1 rounded-full border border-border/70 px-2 py-0.5 [&>svg]:size-3.5">
      {icon}
      {children}
    </li>
  );
}

function Stat({ label, value, tone }: { label: string; value: string; tone?: string }) {
  return (
    <div className="rounded-xl bg-surface-2/60 px-1.5 py-2">
      <dt className="text-[0.65rem] font-semibold tracking-wider text-muted uppercase">{label}</dt>
      <dd className={cn('mt-0.5 text-sm font-black tabular-nums sm:text-base', tone)}>{value}</dd>
    </div>
  );
}

export function Avatar({ name, src, size = 'md' }: { name: string; src: string | null; size?: 'md' | 'lg' }) {
  const box = size === 'lg' ? 'size-12 text-base' : 'size-9 text-xs';
  if (src) return <img src={src} alt="" className={cn('shrink-0 rounded-full object-cover ring-2 ring-accent/40', box)} />;
  return (
    <span
      aria-hidden
      className={cn(
        'inline-flex shrink-0 items-center justify-center rounded-full bg-linear-to-br from-accent to-accent-2 font-black text-white ring-2 ring-accent/30',
        box,
      )}
    >
      {initials(name)}
    </span>
  );
}
