// The three throws of rock-paper-scissors, as big buttons and as small results.
import { Hand, HandFist, Scissors } from 'lucide-react';
import type { Throw } from '@versus/domain/games/rock-paper-scissors';
import { cn } from '../../../ui/index.ts';

export const THROW_LIST: readonly Throw[] = ['rock', 'paper', 'scissors'];
const ICONS = { rock: HandFist, paper: Hand, scissors: Scissors } as const;
export const throwName = (t: Throw) => t[0]!.toUpperCase() + t.slice(1);

export function ThrowIcon({ value, className }: { value: Throw; className?: string }) {
  const Icon = ICONS[value];
  return <Icon aria-hidden className={className} />;
}

export function ThrowButtons({ disabled, onThrow }: { disabled: boolean; onThrow: (t: Throw) => void }) {
  return (
    <div className="grid grid-cols-3 gap-3" role="group" aria-label="Your throw">
      {THROW_LIST.map((t) => (
        <button
          key={t}
          type="button"
          disabled={disabled}
          onClick={() => onThrow(t)}
          className={cn(
            'flex aspect-square flex-col items-center justify-center gap-2 rounded-2xl border-2 border-border bg-surface text-fg transition',
            'hover:border-accent hover:bg-accent/10 focus-visible:border-accent active:scale-95 disabled:opacity-50 disabled:hover:border-border disabled:hover:bg-surface',
          )}
        >
          <ThrowIcon value={t} className="size-[clamp(2.5rem,12vw,4rem)]" />
          <span className="text-sm font-bold sm:text-base">{throwName(t)}</span>
        </button>
      ))}
    </div>
  );
}

/** A throw that has been made: shown, or hidden behind a question mark. */
export function ThrowCard({ label, value, thrown }: { label: string; value: Throw | null; thrown: boolean }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-2xl border border-border bg-surface-2/60 p-4 text-center">
      <span className="text-xs font-bold tracking-wider text-muted uppercase">{label}</span>
      <div className="flex size-16 items-center justify-center rounded-full bg-surface">
        {value ? (
          <ThrowIcon value={value} className="size-9 text-accent" />
        ) : (
          <span className="text-2xl font-black text-muted">{thrown ? '✓' : '…'}</span>
        )}
      </div>
      <span className="text-sm font-semibold">{value ? throwName(value) : thrown ? 'Thrown' : 'Thinking'}</span>
    </div>
  );
}
