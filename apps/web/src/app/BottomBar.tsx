import type { ReactNode } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { BarChart3, Gamepad2, Plus, Store, Trophy } from 'lucide-react';
import { useAuth } from '../features/auth/use-auth.ts';
import { useAuthDialogs } from '../features/auth/auth-dialogs.tsx';
import { cn } from '../ui/cn.ts';

interface Tab {
  to: string;
  label: string;
  icon: ReactNode;
  /** Signed out, the tab opens the sign-in dialog instead. */
  needsSignIn?: boolean;
}

/** SPEC §2 Mobile bottom bar (under 768 px). Shop and Top are hidden in virtual mode like in the header. */
export function BottomBar() {
  const { isAuthenticated, isVirtual } = useAuth();
  const dialogs = useAuthDialogs();
  const navigate = useNavigate();

  const left: Tab[] = [{ to: '/live-arena', label: 'Play', icon: <Gamepad2 aria-hidden /> }];
  if (!isVirtual) left.push({ to: '/marketplace', label: 'Shop', icon: <Store aria-hidden /> });
  const right: Tab[] = [{ to: '/matches', label: 'Stats', icon: <BarChart3 aria-hidden />, needsSignIn: true }];
  if (!isVirtual) right.push({ to: '/leaderboards', label: 'Top', icon: <Trophy aria-hidden />, needsSignIn: true });

  const renderTab = (tab: Tab) =>
    tab.needsSignIn && !isAuthenticated ? (
      <button key={tab.to} type="button" onClick={dialogs.openSignIn} className={tabClass(false)}>
        {tab.icon}
        <span>{tab.label}</span>
      </button>
    ) : (
      <NavLink key={tab.to} to={tab.to} className={({ isActive }) => tabClass(isActive)}>
        {tab.icon}
        <span>{tab.label}</span>
      </NavLink>
    );

  return (
    <nav
      aria-label="Quick"
      data-testid="bottom-bar"
      className="fixed inset-x-0 bottom-0 z-50 border-t border-border bg-surface/95 pb-[env(safe-area-inset-bottom)] shadow-[0_-8px_24px_-12px_rgb(0_0_0/0.5)] backdrop-blur-xl md:hidden"
    >
      <div className="mx-auto flex h-16 max-w-md items-stretch justify-around px-2">
        {left.map(renderTab)}
        <div className="flex items-start justify-center px-1">
          <button
            type="button"
            aria-label="Create challenge"
            onClick={() => (isAuthenticated ? void navigate('/create-challenge') : dialogs.openSignIn())}
            className="bg-brand -mt-5 inline-flex size-14 items-center justify-center rounded-2xl text-accent-fg shadow-glow ring-4 ring-bg transition-[filter] hover:brightness-110 active:brightness-95"
          >
            <Plus className="size-7" strokeWidth={2.5} aria-hidden />
          </button>
        </div>
        {right.map(renderTab)}
      </div>
    </nav>
  );
}

const tabClass = (active: boolean) =>
  cn(
    'flex min-w-14 flex-1 flex-col items-center justify-center gap-0.5 rounded-xl text-[0.7rem] font-semibold transition-colors [&>svg]:size-5',
    active ? 'text-accent' : 'text-muted hover:text-fg',
  );
