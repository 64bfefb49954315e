import type { HTMLAttributes } from 'react';
import { cn } from './cn.ts';

/** A glassy panel over the page backdrop. */
export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('glass rounded-2xl shadow-xl shadow-black/20', className)} {...props} />;
}
