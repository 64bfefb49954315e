import { lazy, Suspense } from 'react';
import { Link, NavLink } from 'react-router';
import { ChevronLeft, LogIn, RotateCcw, UserPlus } from 'lucide-react';
import type { User } from '@versus/domain';
import { useAuth } from '../features/auth/use-auth.ts';
import { useAuthDialogs } from '../features/auth/auth-dialogs.tsx';
import { Badge } from '../ui/Badge.tsx';
import { Button } from '../ui/Button.tsx';
import { cn } from '../ui/cn.ts';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { Logo } from './Logo.tsx';
import { navItems } from './nav.ts';

// The signed-in controls (menus, popover) are their own chunk: the gate page does without them.
const HeaderAccount = lazy(() => import('./HeaderAccount.tsx'));

function AccountUnavailable({ onRetry }: { onRetry: () => void }) {
  return (
    <Button variant="ghost" size="icon" onClick={onRetry} aria-label="Account menu failed to load. Retry">
      <RotateCcw className="size-5" aria-hidden />
    </Button>
  );
}

function AccountSkeleton() {
  return (
    <div aria-hidden className="flex items-center gap-2">
      <span className="size-10 rounded-xl bg-surface-2/60 md:hidden" />
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
    <header className="sticky top-0 z-50 border-b border-border/80 bg-bg/85 backdrop-blur-xl">
      <div className="mx-auto flex h-16 w-full max-w-7xl items-center gap-2 px-3 sm:gap-3 sm:px-6 lg:px-8">
        {standalone && standalone.depth > 1 && (
          <button
            type="button"
            onClick={standalone.onBack}
            aria-label={`Back (${standalone.depth - 1} screens)`}
            className="relative -ml-1 inline-flex size-10 items-center justify-center rounded-xl text-fg hover:bg-surface-2"
          >
            <ChevronLeft className="size-6" aria-hidden />
            <span className="absolute -top-0.5 -right-0.5 min-w-4 rounded-full bg-accent-solid px-1 text-center text-[0.6rem] leading-4 font-bold text-accent-fg">
              {standalone.depth - 1}
            </span>
          </button>
        )}
        <Link to="/" className="flex min-h-10 min-w-10 shrink-0 items-center justify-center gap-2 rounded-xl" aria-label="Versus home">
          <Logo />
          <span className="hidden sm:inline-flex md:hidden min-[1400px]:inline-flex">
            <Badge tone="cyan">Beta</Badge>
          </span>
        </Link>

        {isAuthenticated && user && <DesktopNav user={user} />}

        <div className="ml-auto flex items-center gap-1.5 sm:gap-2">
          {isAuthenticated && user ? (
            <>
              <ErrorBoundary fallback={(retry) => <AccountUnavailable onRetry={retry} />}>
                <Suspense fallback={<AccountSkeleton />}>
                  <HeaderAccount user={user} />
                </Suspense>
              </ErrorBoundary>
            </>
          ) : (
            <>
              <Button variant="ghost" size="sm" onClick={dialogs.openSignIn} className="h-9 px-2.5 text-fg sm:px-3">
                <LogIn className="hidden size-4 sm:block" aria-hidden />
                Sign In
              </Button>
              <Button size="sm" onClick={dialogs.openRegister} className="h-9 px-3">
                <UserPlus className="hidden size-4 sm:block" aria-hidden />
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
    // Takes the room left between the logo and the account controls, and scrolls sideways
    // rather than run under them when the links do not fit (an admin's seven on a laptop).
    <nav aria-label="Main" className="ml-4 hidden min-w-0 flex-1 items-center gap-0.5 overflow-x-auto [scrollbar-width:none] md:flex">
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
