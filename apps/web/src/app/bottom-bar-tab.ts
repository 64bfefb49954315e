import { cn } from '../ui/cn.ts';

/** From this width the header's nav replaces the phone's bottom bar (Tailwind's `md`). */
export const WIDE = '(min-width: 768px)';

/** An item of the phone's bottom bar (a link to a screen, or a button such as the beta chat's). */
export const bottomBarTabClass = (active: boolean) =>
  cn(
    'flex min-w-14 flex-1 flex-col items-center justify-center gap-0.5 rounded-xl text-[0.7rem] font-semibold transition-colors [&>svg]:size-5',
    active ? 'text-accent' : 'text-muted hover:text-fg',
  );
