import { lazy, Suspense } from 'react';
import { Link, NavLink } from 'react-router';
import { ChevronLeft, LogIn, UserPlus } from 'lucide-react';
import type { User } from '@versus/domain';
import { useAuth } from '../features/auth/use-auth.ts';
import { useAuthDialogs } from '../features/auth/auth-dialogs.tsx';
import { Badge } from '../ui/Badge.tsx';
import { Button } from '../ui/Button.tsx';
import { cn } from '../ui/cn.ts';
import { Logo } from './Logo.tsx';
import { navItems } from './nav.ts';

// The signed-in controls (menus, popover) are their own chunk: the gate page does without them.
const HeaderAccount = lazy(() => import('./HeaderAccount.tsx'));

function AccountSkeleton() {
  return (
    <div aria-hidden className="flex items-center gap-2">
      <span className="size-10 rounded-xl bg-surface-2/60" />
      <span className="h-10 w-24 rounded-xl bg-surface-2/60" />
      <span className="size-10 rounded-full bg-surface-2/60" />
    </div>
  );
}

export interface HeaderProps {
  /** Installed-app mode: a back button with the in-app stack depth. */
  standalone?: { depth: number; onBack: () => void } | null;
}

export function Header({ standalone }: HeaderProps) {
  const { user, isAuthenticated } = useAuth();
  const dialogs = useAuthDialogs();
  return (
    <header className="glass sticky top-0 z-50 border-x-0 border-t-0 bg-bg/70">
      <div className="mx-auto flex h-16 w-full max-w-7xl items-center gap-3 px-4 sm:px-6 lg:px-8">
        {standalone && standalone.depth > 1 && (
          <button
            type="button"
            onClick={standalone.onBack}
            aria-label={`Back (${standalone.depth - 1} screens)`}
            className="relative -ml-1 inline-flex size-10 items-center justify-center rounded-xl text-fg hover:bg-surface-2"
          >
            <ChevronLeft className="size-6" aria-hidden />
            <span className="absolute -top-0.5 -right-0.5 min-w-4 rounded-full bg-accent px-1 text-center text-[0.6rem] leading-4 font-bold text-accent-fg">
              {standalone.depth - 1}
            </span>
          </button>
        )}
        <Link to="/" className="flex shrink-0 items-center gap-2 rounded-xl" aria-label="Versus home">
          <Logo />
          <Badge tone="cyan" className="hidden sm:inline-flex">
            Beta
          </Badge>
        </Link>

        {isAuthenticated && user && <DesktopNav user={user} />}

        <div className="ml-auto flex items-center gap-1.5 sm:gap-2">
          {isAuthenticated && user ? (
            <>
              <Suspense fallback={<AccountSkeleton />}>
                <HeaderAccount user={user} />
              </Suspense>
            </>
          ) : (
            <>
              <Button variant="ghost" size="sm" onClick={dialogs.openSignIn} className="h-9 text-fg">
                <LogIn className="size-4" aria-hidden />
                Sign In
              </Button>
              <Button size="sm" onClick={dialogs.openRegister} className="h-9">
                <UserPlus className="size-4" aria-hidden />
                Join Now
              </Button>
            </>
          )}
        </div>
      </div>
    </header>
  );
}

function DesktopNav({ user }: { user: User }) {
  return (
    <nav aria-label="Main" className="ml-4 hidden min-w-0 items-center gap-0.5 md:flex">
      {navItems(user).map((item) => (
        <NavLink
          key={item.to}
          to={item.to}
          end={item.to === '/admin'}
          className={({ isActive }) =>
            cn(
              'relative inline-flex h-9 items-center gap-2 rounded-lg px-2.5 text-sm font-semibold whitespace-nowrap transition-colors lg:px-3',
              isActive ? 'bg-surface-2 text-fg' : 'text-muted hover:bg-surface-2/60 hover:text-fg',
              item.adminOnly && 'text-warning/90',
            )
          }
        >
          {item.live && (
            <span className="relative flex size-2" aria-hidden>
              <span className="absolute inline-flex size-full animate-live-pulse rounded-full bg-danger" />
              <span className="relative inline-flex size-2 rounded-full bg-danger" />
            </span>
          )}
          {item.label}
          {item.live && <span className="sr-only">(live)</span>}
        </NavLink>
      ))}
    </nav>
  );
}

