import { useEffect, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { AlarmClock, Flame, Lock, Star, TriangleAlert } from 'lucide-react';
import { clockPerGame, timeControlLabel } from '@versus/domain/arena';
import { CHALLENGE, MARKETPLACE, SHELL_TEXT } from '@versus/domain';
import { PLATFORM_LABELS, formatTimeLeft, isGamertagRequired } from '@versus/domain/catalogue';
import type { Challenge } from '@versus/domain/challenges';
import { currencyLabel, formatMoney, toMinor } from '@versus/domain/money';
import { Badge, Button, Dialog, DialogActions, DialogContent, Field, Input, Spinner, cn } from '../../ui/index.ts';
import { challengeKeys, fetchChallenge } from '../challenges/challenges.api.ts';
import { slotDay, slotTime } from '../challenges/schedule-format.ts';
import { useStakeBalance } from '../challenges/use-stake-balance.ts';
import { GAME_ICONS, SKILL_LABELS, durationLabel, stakeMoney } from '../challenges/visuals.ts';
import { Avatar } from './ChallengeCard.tsx';

export type DialogMode = 'details' | 'accept' | 'cancel';

export interface ActiveChallenge {
  id: string;
  mode: DialogMode;
  /** Found by code: accepting needs it, and the challenge is not fetched by id (private ones are not visible by id). */
  code: string | null;
  /** Already known (from the list or the code search). */
  initial: Challenge | null;
}

export interface ChallengeDialogProps {
  active: ActiveChallenge | null;
  userId: string;
  now: Date;
  pending: boolean;
  onClose: () => void;
  onMode: (mode: DialogMode) => void;
  /** The server counted a view: its fresher copy. */
  onViewed: (challenge: Challenge) => void;
  onAccept: (challenge: Challenge, gamertag: string) => void;
  onCancel: (challenge: Challenge) => void;
}

/** The challenge={id} detail dialog, and the confirmations of Accept (stake and balance) and Cancel. */
export function ChallengeDialog({ active, userId, now, pending, onClose, onMode, onViewed, onAccept, onCancel }: ChallengeDialogProps) {
  const fetchById = active !== null && active.code === null;
  const detail = useQuery({
    queryKey: challengeKeys.detail(active?.id ?? ''),
    queryFn: ({ signal }) => fetchChallenge(active!.id, signal),
    enabled: fetchById,
    staleTime: 0,
    gcTime: 0,
  });
  const challenge = (fetchById ? detail.data : null) ?? active?.initial ?? null;

  useEffect(() => {
    if (detail.data) onViewed(detail.data);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per fetched copy.
  }, [detail.data]);

  const open = active !== null;
  const own = challenge?.creatorId === userId;
  const title =
    active?.mode === 'accept'
      ? MARKETPLACE.acceptTitle
      : active?.mode === 'cancel'
        ? MARKETPLACE.cancelTitle
        : (challenge?.title ?? 'Challenge');

  return (
    <Dialog open={open} onOpenChange={(next) => !next && !pending && onClose()}>
      {active && (
        <DialogContent
          title={title}
          description={challenge ? `${challenge.gameName} · ${PLATFORM_LABELS[challenge.platform]} · ${challenge.matchFormat}` : undefined}
          data-testid="challenge-dialog"
          className="sm:max-w-lg"
        >
          {!challenge ? (
            detail.isError ? (
              <p role="alert" className="text-sm text-danger">
                {detail.error.message}
              </p>
            ) : (
              <p className="flex items-center gap-3 text-sm text-muted">
                <Spinner className="size-4" /> {SHELL_TEXT.loadingChallenge}
              </p>
            )
          ) : active.mode === 'accept' ? (
            <AcceptConfirm
              challenge={challenge}
              pending={pending}
              onBack={() => onMode('details')}
              onConfirm={(tag) => onAccept(challenge, tag)}
            />
          ) : active.mode === 'cancel' ? (
            <CancelConfirm challenge={challenge} pending={pending} onBack={() => onMode('details')} onConfirm={() => onCancel(challenge)} />
          ) : (
            <Details challenge={challenge} now={now} own={own} onAccept={() => onMode('accept')} onCancel={() => onMode('cancel')} />
          )}
        </DialogContent>
      )}
    </Dialog>
  );
}

function Details({
  challenge: c,
  now,
  own,
  onAccept,
  onCancel,
}: {
  challenge: Challenge;
  now: Date;
  own: boolean;
  onAccept: () => void;
  onCancel: () => void;
}) {
  const Icon = GAME_ICONS[c.game];
  const name = c.creator.displayName || c.creator.username;
  const starts = c.scheduledTime ? new Date(c.scheduledTime) : null;
  const open = c.status === 'open';
  const rows: [string, ReactNode][] = [
    ['Skill level', SKILL_LABELS[c.skillLevel]],
    ['Players', `${c.participants}/${c.maxParticipants}`],
    ['Match length', durationLabel(c.duration)],
    ['Starts', starts ? `${slotTime(starts)} · ${slotDay(starts, now)}` : 'When accepted'],
    ['Time left', formatTimeLeft(c.expiresAt, now) ?? 'No expiry'],
    ['Views', <span data-testid="detail-views">{c.views}</span>],
  ];
  const clock = timeControlLabel(c.game, c.duration);
  if (clock) rows.splice(3, 0, ['Clock', <span data-testid="detail-time-control">{clockPerGame(clock)}</span>]);
  if (c.creatorGamertag) rows.push(['Creator gamertag', c.creatorGamertag]);
  if (c.code) rows.push(['Code', <span className="font-mono font-black tracking-[0.2em] text-accent-2">{c.code}</span>]);

  return (
    <div className="grid grid-cols-1 gap-5">
      <div className="flex min-w-0 items-center gap-3 rounded-2xl border border-border bg-bg/40 p-3">
        <Avatar name={name} src={c.creatorProfile.avatar} size="lg" />
        <div className="min-w-0 flex-1">
          <p className="truncate font-bold">{name}</p>
          <p className="truncate text-xs text-muted">@{c.creator.username}</p>
          <p className="mt-1 flex flex-wrap gap-x-3 text-xs">
            <span>
              <span className="font-semibold text-success">{c.creatorProfile.wins}W</span> –{' '}
              <span className="font-semibold text-danger">{c.creatorProfile.losses}L</span>
            </span>
            <span className="inline-flex items-center gap-0.5">
              <Flame className="size-3.5 text-warning" aria-hidden /> {c.creatorProfile.streak} streak
            </span>
            <span className="inline-flex items-center gap-0.5">
              <Star className="size-3.5 text-accent" aria-hidden /> {c.creatorProfile.rating} rating
            </span>
          </p>
        </div>
        <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-bg/60 ring-1 ring-accent/40">
          <Icon className="size-5 text-accent-2" aria-hidden />
        </span>
      </div>

      <dl className="grid grid-cols-3 gap-2 text-center">
        <Tile label="Stake" value={stakeMoney(c.stake, c.currency)} />
        <Tile label="Payout" value={stakeMoney(c.payout, c.currency)} tone="text-success" />
        <Tile label="Fee" value="FREE" tone="text-accent-2" />
      </dl>

      <dl className="divide-y divide-border/60 rounded-2xl border border-border bg-bg/40 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex items-center justify-between gap-4 px-4 py-2">
            <dt className="text-muted">{label}</dt>
            <dd className="text-right font-semibold">{value}</dd>
          </div>
        ))}
      </dl>

      {c.description && <p className="rounded-2xl bg-surface-2/50 px-4 py-3 text-sm break-words">“{c.description}”</p>}
      {c.rules.length > 0 && (
        <div>
          <p className="text-xs font-semibold tracking-wide text-muted uppercase">Rules</p>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
            {c.rules.map((rule, i) => (
              <li key={i}>{rule}</li>
            ))}
          </ul>
        </div>
      )}

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-end">
        {!open && (
          <Badge tone="neutral" className="self-start sm:mr-auto sm:self-center">
            {c.status}
          </Badge>
        )}
        {open && own && (
          <Button variant="outline" onClick={onCancel}>
            Cancel challenge
          </Button>
        )}
        {open && !own && <Button onClick={onAccept}>Accept challenge</Button>}
      </div>
    </div>
  );
}

function AcceptConfirm({
  challenge: c,
  pending,
  onBack,
  onConfirm,
}: {
  challenge: Challenge;
  pending: boolean;
  onBack: () => void;
  onConfirm: (gamertag: string) => void;
}) {
  const balance = useStakeBalance();
  const [gamertag, setGamertag] = useState('');
  const stakeMinor = toMinor(c.stake);
  const sameCurrency = balance.data?.currency === c.currency;
  const short = balance.data !== undefined && sameCurrency && balance.data.availableMinor < stakeMinor;
  const needsTag = isGamertagRequired(c.platform);
  const clock = timeControlLabel(c.game, c.duration);

  return (
    <div className="grid grid-cols-1 gap-5">
      <dl className="grid grid-cols-3 gap-2 text-center">
        <Tile label="Your stake" value={stakeMoney(c.stake, c.currency)} />
        <Tile label="Payout" value={stakeMoney(c.payout, c.currency)} tone="text-success" />
        <Tile label="Fee" value="FREE" tone="text-accent-2" />
      </dl>
      {clock && (
        <p className="flex items-start gap-2 text-sm">
          <AlarmClock className="mt-0.5 size-4 shrink-0 text-accent-2" aria-hidden />
          <span>
            {c.matchFormat}, clock <strong data-testid="accept-time-control">{clockPerGame(clock)}</strong>
          </span>
        </p>
      )}
      <dl className="divide-y divide-border/60 rounded-2xl border border-border bg-bg/40 text-sm" data-testid="accept-balance">
        <Row
          label="Your available balance"
          value={balance.data ? formatMoney(balance.data.availableMinor, balance.data.currency) : balance.isError ? '—' : '…'}
        />
        {balance.data && sameCurrency && !short && (
          <Row label="After the escrow lock" value={formatMoney(balance.data.availableMinor - stakeMinor, balance.data.currency)} />
        )}
      </dl>
      {short && balance.data && (
        <p role="alert" className="flex items-start gap-2 rounded-xl border border-danger/40 bg-danger/10 px-3 py-2 text-sm text-danger">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          {CHALLENGE.insufficientToAccept(
            currencyLabel(c.currency),
            formatMoney(stakeMinor, c.currency),
            formatMoney(balance.data.availableMinor, c.currency),
          )}
        </p>
      )}
      {needsTag && (
        <Field label={`Your gamertag on ${PLATFORM_LABELS[c.platform]}`} hint="So your opponent can find you. You can add it later.">
          {({ id, hintId }) => (
            <Input
              id={id}
              aria-describedby={hintId}
              maxLength={64}
              autoComplete="nickname"
              value={gamertag}
              onChange={(e) => setGamertag(e.target.value)}
            />
          )}
        </Field>
      )}
      <p className="flex items-start gap-2 text-xs text-muted">
        <Lock className="mt-0.5 size-3.5 shrink-0" aria-hidden />
        Your stake is locked in escrow next to {c.creator.displayName || c.creator.username}'s; the winner takes{' '}
        {stakeMoney(c.payout, c.currency)}.
      </p>
      <DialogActions>
        <Button variant="ghost" onClick={onBack} disabled={pending}>
          Back
        </Button>
        <Button onClick={() => onConfirm(gamertag)} loading={pending} disabled={short} data-testid="confirm-accept">
          Accept &amp; lock {stakeMoney(c.stake, c.currency)}
        </Button>
      </DialogActions>
    </div>
  );
}

function CancelConfirm({
  challenge: c,
  pending,
  onBack,
  onConfirm,
}: {
  challenge: Challenge;
  pending: boolean;
  onBack: () => void;
  onConfirm: () => void;
}) {
  return (
    <div className="grid grid-cols-1 gap-5">
      <p className="text-sm text-muted">
        {c.title} comes off the marketplace and your {stakeMoney(c.stake, c.currency)} stake returns to your available balance.
      </p>
      <DialogActions>
        <Button variant="ghost" onClick={onBack} disabled={pending}>
          Keep it open
        </Button>
        <Button variant="danger" onClick={onConfirm} loading={pending} data-testid="confirm-cancel">
          Cancel challenge
        </Button>
      </DialogActions>
    </div>
  );
}

function Tile({ label, value, tone }: { label: string; value: string; tone?: string }) {
  return (
    <div className="rounded-xl bg-surface-2/60 px-1.5 py-2.5">
      <dt className="text-[0.65rem] font-semibold tracking-wider text-muted uppercase">{label}</dt>
      <dd className={cn('mt-0.5 text-sm font-black tabular-nums sm:text-base', tone)}>{value}</dd>
    </div>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-center justify-between gap-4 px-4 py-2.5">
      <dt className="text-muted">{label}</dt>
      <dd className="font-bold tabular-nums">{value}</dd>
    </div>
  );
}
