import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ChevronDown, LogOut, Settings2, ShieldCheck, UserCog } from 'lucide-react';
import type { User } from '@versus/domain';
import { useAuth } from '../features/auth/use-auth.ts';
import { BetaFeedback } from '../features/feedback/index.tsx';
import { NotificationBell } from '../features/notifications/NotificationBell.tsx';
import { WalletMenu } from '../features/wallet/WalletMenu.tsx';
import { Badge, Menu, MenuContent, MenuItem, MenuSeparator, MenuTrigger } from '../ui/index.ts';
import { UserAvatar } from '../ui/UserAvatar.tsx';

const GameSettingsDialog = lazy(() => import('./GameSettingsDialog.tsx'));

/** The signed-in end of the header: (on a phone) the beta chat, notification bell, wallet balance, user menu (SPEC §2). */
export default function HeaderAccount({ user }: { user: User }) {
  return (
    <>
      <BetaFeedback placement="header" />
      <NotificationBell />
      <WalletMenu user={user} />
      <UserMenu user={user} />
    </>
  );
}

// ---------------------------------------------------------------------------------------------

function UserMenu({ user }: { user: User }) {
  const { isAdmin, signOut } = useAuth();
  const navigate = useNavigate();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const name = user.displayName || user.username;
  const virtual = user.accountType === 'virtual';

  const onSignOut = async () => {
    await signOut();
    navigate('/');
    toast.success('Signed out', { description: 'See you in the arena soon.' });
  };

  return (
    <>
      <Menu>
        <MenuTrigger asChild>
          <button
            type="button"
            data-testid="user-menu"
            className="inline-flex h-10 items-center gap-2 rounded-xl pr-1 pl-1 transition-colors hover:bg-surface-2 data-[state=open]:bg-surface-2 lg:pr-2"
          >
            <UserAvatar user={user} className="size-8 text-xs" />
            <span className="sr-only">User menu </span>
            <span className="hidden max-w-32 truncate text-sm font-semibold lg:block">{name}</span>
            <ChevronDown className="hidden size-4 text-muted lg:block" aria-hidden />
          </button>
        </MenuTrigger>
        <MenuContent className="w-64">
          <div className="flex items-center gap-3 px-3 py-2.5">
            <UserAvatar user={user} className="size-11 text-sm" />
            <div className="min-w-0">
              <p className="truncate font-bold">{name}</p>
              <p className="truncate text-xs text-muted">@{user.username}</p>
              <div className="mt-1 flex gap-1">
                {virtual ? <Badge tone="vt">Virtual</Badge> : <Badge tone="cyan">Real</Badge>}
                {user.role !== 'user' && <Badge tone="warning">{user.role}</Badge>}
              </div>
            </div>
          </div>
          <MenuSeparator />
          <MenuItem icon={<UserCog aria-hidden />} onSelect={() => void navigate('/profile')}>
            Profile Settings
          </MenuItem>
          {isAdmin && (
            <MenuItem icon={<ShieldCheck aria-hidden />} onSelect={() => void navigate('/admin')}>
              Admin Dashboard
            </MenuItem>
          )}
          <MenuItem icon={<Settings2 aria-hidden />} onSelect={() => setSettingsOpen(true)}>
            Game Settings
          </MenuItem>
          <MenuSeparator />
          <MenuItem
            icon={<LogOut aria-hidden />}
            onSelect={() => void onSignOut()}
            className="text-danger data-[highlighted]:text-danger [&>svg]:text-danger"
          >
            Sign Out
          </MenuItem>
        </MenuContent>
      </Menu>
      {settingsOpen && (
        <Suspense fallback={null}>
          <GameSettingsDialog open={settingsOpen} onOpenChange={setSettingsOpen} />
        </Suspense>
      )}
    </>
  );
}
