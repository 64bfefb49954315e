import type { User } from '@versus/domain';
import { initials } from '../app/nav.ts';
import { cn } from './cn.ts';

/** A player's picture, or their initials on a gradient (virtual or real account); `className` sizes it. */
export function UserAvatar({ user, className, alt = '', testId }: { user: User; className: string; alt?: string; testId?: string }) {
  if (user.avatar)
    return (
      <img src={user.avatar} alt={alt} className={cn('rounded-full object-cover ring-2 ring-accent/50', className)} data-testid={testId} />
    );
  return (
    <span
      aria-hidden
      className={cn(
        'inline-flex shrink-0 items-center justify-center rounded-full font-black text-white ring-2 ring-accent/40',
        user.accountType === 'virtual' ? 'bg-gradient-to-br from-vt to-accent' : 'bg-gradient-to-br from-accent to-accent-2',
        className,
      )}
    >
      {initials(user.displayName || user.username)}
    </span>
  );
}
