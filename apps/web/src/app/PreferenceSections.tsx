// The theme and account-mode preferences, one markup for the profile page and Game Settings
// (both edit the same two settings: the theme choice and the account type).
import { useId, type ReactNode } from 'react';
import { Gamepad2, Lock, Moon, Sun, Wallet } from 'lucide-react';
import { useAccountSwitch } from '../features/auth/use-account-switch.ts';
import { Button, ChoiceCards, cn, type Choice } from '../ui/index.ts';
import { setThemeChoice, useThemeChoice, type ThemeChoice } from './theme.ts';

const THEMES: readonly Choice<ThemeChoice>[] = [
  { value: 'dark', title: 'Dark', description: 'The default arena look', icon: <Moon className="size-4 text-accent" aria-hidden /> },
  { value: 'light', title: 'Light', description: 'Bright and clean', icon: <Sun className="size-4 text-warning" aria-hidden /> },
];

interface PreferenceProps {
  /** A virtual account is signed in: the theme is locked, the switch goes back to real. */
  virtual: boolean;
  className?: string;
  /** Puts the profile page's test ids on (theme-locked, account-type, switch-account-type). */
  testIds?: boolean;
}

function PreferenceSection({ title, className, children }: { title: string; className?: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className={cn('grid gap-3', className)} aria-labelledby={id}>
      <h3 id={id} className="text-xs font-semibold tracking-wide text-muted uppercase">
        {title}
      </h3>
      {children}
    </section>
  );
}

/** Dark or light (SPEC §1 themes); locked to Retro while in virtual mode. */
export function ThemePreference({ virtual, className, testIds }: PreferenceProps) {
  const theme = useThemeChoice();
  return (
    <PreferenceSection title="Theme" className={className}>
      {virtual ? (
        <p
          className="flex items-center gap-2 rounded-xl border border-accent/40 bg-accent/10 px-3.5 py-3 text-sm"
          data-testid={testIds ? 'theme-locked' : undefined}
        >
          <Lock className="size-4 text-accent" aria-hidden />
          Theme locked to <strong>Retro</strong> while in virtual mode.
        </p>
      ) : (
        <ChoiceCards label="Theme" value={theme} onChange={setThemeChoice} choices={THEMES} />
      )}
    </PreferenceSection>
  );
}

/** The account type, real or virtual, and the button that switches it (SPEC §4 Account type). */
export function AccountModePreference({
  title,
  virtual,
  canSwitch = true,
  className,
  testIds,
}: PreferenceProps & { title: string; canSwitch?: boolean }) {
  const { switching, switchTo } = useAccountSwitch();
  return (
    <PreferenceSection title={title} className={className}>
      <div className="flex items-center gap-3 rounded-xl border border-border bg-bg/50 p-3.5">
        {virtual ? (
          <Gamepad2 className="size-5 shrink-0 text-vt" aria-hidden />
        ) : (
          <Wallet className="size-5 shrink-0 text-accent-2" aria-hidden />
        )}
        <div className="flex-1 text-sm">
          <p className="font-bold" data-testid={testIds ? 'account-type' : undefined}>
            {virtual ? 'Virtual (demo)' : 'Real'}
          </p>
          <p className="text-muted">{virtual ? 'VTokens, weekly allowance, no real stakes.' : 'Credits and real stakes.'}</p>
        </div>
      </div>
      {canSwitch && (
        <Button
          variant="secondary"
          loading={switching}
          onClick={() => void switchTo(virtual ? 'real' : 'virtual')}
          data-testid={testIds ? 'switch-account-type' : undefined}
        >
          {virtual ? 'Switch to Real account' : 'Switch to Virtual mode'}
        </Button>
      )}
    </PreferenceSection>
  );
}
