import type { ReactNode } from 'react';
import { Button, Spinner } from './Button.tsx';
import { Card } from './Card.tsx';
import { cn } from './cn.ts';

/** A centred spinner while a query loads; `compact` inside a card or dialog. */
export function Loading({ compact = false, padding }: { compact?: boolean; padding?: string }) {
  return (
    <div className={cn('flex justify-center', padding ?? (compact ? 'py-8' : 'py-12'))}>
      <Spinner className={compact ? 'size-5' : 'size-6'} />
    </div>
  );
}

/** A query that failed to load: its message and a retry button, in an alert card. */
export function LoadFailed({
  message,
  retryLabel,
  onRetry,
  className,
}: {
  message: ReactNode;
  retryLabel: ReactNode;
  onRetry: () => void;
  /** Extra classes before the card's own (e.g. a top margin). */
  className?: string;
}) {
  return (
    <Card role="alert" className={cn(className, 'flex flex-wrap items-center justify-between gap-3 p-5')}>
      <p className="font-bold text-danger">{message}</p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        {retryLabel}
      </Button>
    </Card>
  );
}

/** The compact failure: one alert line, without a retry (inside a card or dialog). */
export function LoadFailedText({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <p role="alert" className={cn(className, 'text-sm text-danger')}>
      {children}
    </p>
  );
}
