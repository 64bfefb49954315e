import { Link } from 'react-router';
import { Bell, ChevronRight } from 'lucide-react';
import { NOTIFICATION_SETTINGS } from '@versus/domain';
import { useAuth } from '../features/auth/use-auth.ts';
import { Dialog, DialogContent } from '../ui/index.ts';
import { AccountModePreference, ThemePreference } from './PreferenceSections.tsx';

/** Theme and account mode (SPEC §1 themes, §4 Account type: switchable, stored in the profile). */
export default function GameSettingsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { user, isVirtual } = useAuth();

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Game Settings" description="How Versus looks and which wallet you play with." data-testid="game-settings">
        <ThemePreference virtual={isVirtual} />
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
        <AccountModePreference title="Account mode" virtual={isVirtual} canSwitch={user !== null} className="mt-6" />
      </DialogContent>
    </Dialog>
  );
}
