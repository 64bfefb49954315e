import { useEffect, useState } from 'react';
import { Bot, Coins, Lock, Minimize2, Palette, RotateCcw } from 'lucide-react';
import { WALLET } from '@versus/domain';
import type { VirtualStats } from '@versus/domain/wallet';
import { Badge, Button, cn } from '../../ui/index.ts';
import { formatResetIn } from './wallet-format.ts';

export interface VirtualOverlayCardProps {
  stats: VirtualStats | undefined;
  isError?: boolean;
  onRetry?: () => void;
  /** Floating: a minimise button in the corner. */
  onMinimise?: () => void;
  className?: string;
}

/** SPEC §2 Virtual-mode overlay card: weekly tokens, wins, losses, games; Retro locked; AI Mode and Next Reset disabled. */
export function VirtualOverlayCard({ stats, isError, onRetry, onMinimise, className }: VirtualOverlayCardProps) {
  const now = useMinuteClock();
  const allowance = stats?.weekly_allowance ?? 500;
  const remaining = stats?.weekly_virtual_credits_remaining;
  const share = remaining === undefined ? 0 : Math.min(100, Math.round((remaining / allowance) * 100));
  const value = (n: number | undefined) => (n === undefined ? '—' : String(n));

  return (
    <section
      aria-labelledby="virtual-overlay-title"
      data-testid="virtual-overlay"
      className={cn('glass relative overflow-hidden rounded-2xl border-vt/40 p-4 shadow-xl shadow-black/30', className)}
    >
      <div aria-hidden className="pointer-events-none absolute -top-12 -right-10 size-36 rounded-full bg-vt/20 blur-3xl" />
      <div className="relative flex items-center justify-between gap-2">
        <h2 id="virtual-overlay-title" className="flex items-center gap-2 font-display text-base font-black whitespace-nowrap">
          <Coins className="size-5 text-vt" aria-hidden />
          {WALLET.virtualMode}
        </h2>
        <div className="flex items-center gap-1">
          <Badge tone="vt" className="whitespace-nowrap">
            {WALLET.demoMode}
          </Badge>
          {onMinimise && (
            <button
              type="button"
              onClick={onMinimise}
              aria-label="Minimise the Virtual Mode card"
              className="inline-flex size-8 items-center justify-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg"
            >
              <Minimize2 className="size-4" aria-hidden />
            </button>
          )}
        </div>
      </div>

      {isError && (
        <p
          role="alert"
          className="relative mt-3 flex items-center justify-between gap-2 rounded-xl border border-danger/40 bg-danger/10 px-3 py-2 text-sm"
        >
          Couldn't load your virtual stats.
          {onRetry && (
            <Button size="sm" variant="secondary" onClick={onRetry}>
              {WALLET.retry}
            </Button>
          )}
        </p>
      )}

      <div className="relative mt-4">
        <div className="flex items-baseline justify-between gap-2">
          <span className="text-xs font-semibold tracking-wide text-muted uppercase">{WALLET.weeklyTokens}</span>
          <span className="font-mono text-sm font-bold text-vt tabular-nums" data-testid="virtual-weekly-tokens">
            {value(remaining)} / {allowance} VT
          </span>
        </div>
        <div
          className="mt-2 h-2 overflow-hidden rounded-full bg-surface-2"
          role="progressbar"
          aria-label={WALLET.weeklyTokens}
          aria-valuemin={0}
          aria-valuemax={allowance}
          aria-valuenow={remaining ?? 0}
        >
          <div className="h-full rounded-full bg-vt transition-[width] duration-500" style={{ width: `${share}%` }} />
        </div>
      </div>

      <dl className="relative mt-4 grid grid-cols-3 gap-2 text-center">
        {(
          [
            [WALLET.wins, stats?.virtual_wins, 'text-success'],
            [WALLET.losses, stats?.virtual_losses, 'text-danger'],
            [WALLET.games, stats?.virtual_games_played, 'text-fg'],
          ] as const
        ).map(([label, n, tone]) => (
          <div key={label} className="rounded-xl border border-border bg-bg/40 px-2 py-2">
            <dt className="text-[0.65rem] font-semibold tracking-wide text-muted uppercase">{label}</dt>
            <dd className={cn('font-mono text-lg font-black tabular-nums', tone)}>{value(n)}</dd>
          </div>
        ))}
      </dl>

      <div className="relative mt-4 flex items-center justify-between rounded-xl border border-border bg-bg/40 px-3 py-2 text-sm">
        <span className="flex items-center gap-2 text-muted">
          <Palette className="size-4" aria-hidden />
          {WALLET.theme}
        </span>
        <span className="flex items-center gap-1.5 font-bold" data-testid="virtual-theme" aria-label="Theme locked to Retro">
          {WALLET.retroLocked}
          <Lock className="size-3.5 text-muted" aria-hidden />
        </span>
      </div>

      <div className="relative mt-3 grid grid-cols-2 gap-2">
        <Button variant="secondary" size="sm" disabled className="h-10">
          <Bot className="size-4" aria-hidden />
          {WALLET.aiMode}
        </Button>
        <Button variant="secondary" size="sm" disabled className="h-10 flex-col gap-0 leading-tight">
          <span className="flex items-center gap-1.5">
            <RotateCcw className="size-3.5" aria-hidden />
            {WALLET.nextReset}
          </span>
          {stats && <span className="text-[0.65rem] font-medium text-muted">in {formatResetIn(stats.next_weekly_reset_at, now)}</span>}
        </Button>
      </div>
    </section>
  );
}

/** The current time, updated once a minute (the reset countdown has minute precision). */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
