import { useId } from 'react';
import { cn } from '../ui/cn.ts';

/** The Versus mark: a V in the brand gradient. */
export function LogoMark({ className }: { className?: string }) {
  const id = useId();
  return (
    <svg viewBox="0 0 64 64" className={cn('size-9', className)} aria-hidden>
      <defs>
        <linearGradient id={id} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="var(--c-accent)" />
          <stop offset="1" stopColor="var(--c-accent-2)" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="16" fill="var(--c-surface-2)" />
      <rect x="0.5" y="0.5" width="63" height="63" rx="15.5" fill="none" stroke={`url(#${id})`} strokeOpacity="0.6" />
      <path d="M14 16h9l9 22 9-22h9L37 48h-10z" fill={`url(#${id})`} />
    </svg>
  );
}

export function Logo({ className }: { className?: string }) {
  return (
    <span className={cn('flex items-center gap-2.5', className)}>
      <LogoMark />
      {/* Where the header is tight (a phone below 400 px; beside the nav links below 1400 px)
          the mark alone shows, leaving the room to the links, the wallet and the menu. */}
      <span className="hidden font-display text-lg font-black tracking-[0.18em] min-[400px]:inline md:hidden min-[1400px]:inline">
        VERSUS
      </span>
    </span>
  );
}
