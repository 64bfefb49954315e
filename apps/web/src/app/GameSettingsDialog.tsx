import { Link } from 'react-router';
import { Bell, ChevronRight, Gamepad2, Lock, Moon, Sun, Wallet } from 'lucide-react';
import { NOTIFICATION_SETTINGS } from '@versus/domain';
import { useAccountSwitch } from '../features/auth/use-account-switch.ts';
import { useAuth } from '../features/auth/use-auth.ts';
import { Button, ChoiceCards, Dialog, DialogContent, type Choice } from '../ui/index.ts';
import { setThemeChoice, useThemeChoice, type ThemeChoice } from './theme.ts';

const THEMES: readonly Choice<ThemeChoice>[] = [
  { value: 'dark', title: 'Dark', description: 'The default arena look', icon: <Moon className="size-4 text-accent" aria-hidden /> },
  { value: 'light', title: 'Light', description: 'Bright and clean', icon: <Sun className="size-4 text-warning" aria-hidden /> },
];

/** Theme and account mode (SPEC §1 themes, §4 Account type: switchable, stored in the profile). */
export default function GameSettingsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { user, isVirtual } = useAuth();
  const theme = useThemeChoice();
  const { switching, switchTo } = useAccountSwitch();

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Game Settings" description="How Versus looks and which wallet you play with." data-testid="game-settings">
        <section className="grid gap-3">
          <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">Theme</h3>
          {isVirtual ? (
            <p className="flex items-center gap-2 rounded-xl border border-accent/40 bg-accent/10 px-3.5 py-3 text-sm">
              <Lock className="size-4 text-accent" aria-hidden />
              Theme locked to <strong>Retro</strong> while in virtual mode.
            </p>
          ) : (
            <ChoiceCards label="Theme" value={theme} onChange={setThemeChoice} choices={THEMES} />
          )}
        </section>
        <section className="mt-6 grid gap-3">
          <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">Notifications</h3>
          <Link
            to="/settings/notifications"
            onClick={() => onOpenChange(false)}
            data-testid="notification-preferences-link"
            className="flex items-center gap-3 rounded-xl border border-border bg-bg/50 p-3.5 transition-colors hover:border-accent/60 focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none"
          >
            <Bell className="size-5 text-accent" aria-hidden />
            <span className="flex-1 text-sm">
              <span className="block font-bold">{NOTIFICATION_SETTINGS.openPreferences}</span>
              <span className="block text-muted">{NOTIFICATION_SETTINGS.openPreferencesHint}</span>
            </span>
            <ChevronRight className="size-4 text-muted" aria-hidden />
          </Link>
        </section>
        <section className="mt-6 grid gap-3">
          <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">Account mode</h3>
          <div className="flex items-center gap-3 rounded-xl border border-border bg-bg/50 p-3.5">
            {isVirtual ? <Gamepad2 className="size-5 text-vt" aria-hidden /> : <Wallet className="size-5 text-accent-2" aria-hidden />}
            <div className="flex-1 text-sm">
              <p className="font-bold">{isVirtual ? 'Virtual (demo)' : 'Real'}</p>
              <p className="text-muted">{isVirtual ? 'VTokens, weekly allowance, no real stakes.' : 'Credits and real stakes.'}</p>
            </div>
          </div>
          {user && (
            <Button variant="secondary" loading={switching} onClick={() => switchTo(isVirtual ? 'real' : 'virtual')}>
              {isVirtual ? 'Switch to Real account' : 'Switch to Virtual mode'}
            </Button>
          )}
        </section>
      </DialogContent>
    </Dialog>
  );
}
