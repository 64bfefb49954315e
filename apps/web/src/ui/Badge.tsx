import type { HTMLAttributes } from 'react';
import { cn } from './cn.ts';

export type BadgeTone = 'accent' | 'cyan' | 'success' | 'warning' | 'danger' | 'vt' | 'neutral';

const TONES: Record<BadgeTone, string> = {
  accent: 'border-accent/40 bg-accent/15 text-accent',
  cyan: 'border-accent-2/40 bg-accent-2/15 text-accent-2',
  success: 'border-success/40 bg-success/15 text-success',
  warning: 'border-warning/40 bg-warning/15 text-warning',
  danger: 'border-danger/40 bg-danger/15 text-danger',
  vt: 'border-vt/40 bg-vt/15 text-vt',
  neutral: 'border-border bg-surface-2 text-muted',
};

export function Badge({ tone = 'accent', className, ...props }: HTMLAttributes<HTMLSpanElement> & { tone?: BadgeTone }) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-[0.7rem] font-bold tracking-wider uppercase',
        TONES[tone],
        className,
      )}
      {...props}
    />
  );
}
