import { useId, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useLocation, useNavigate } from 'react-router';
import { AlertTriangle, ChevronDown, Coins, Gamepad2, RotateCcw, Wallet } from 'lucide-react';
import { WALLET, type User } from '@versus/domain';
import { formatMoney } from '@versus/domain/money';
import { isMatchScreen } from '../../app/match-screen.ts';
import { Badge, Menu, MenuContent, MenuItem, MenuLabel, MenuSeparator, MenuTrigger, cn } from '../../ui/index.ts';
import { useBalance, useVirtualStats } from './use-balance.ts';
import { VirtualOverlayCard } from './VirtualOverlayCard.tsx';
import { accountStatus, amountClass, ecosystemLabel } from './wallet-format.ts';

/** SPEC §2 header wallet dropdown: Available, In Games, account status, and the way to the wallet. */
export function WalletMenu({ user }: { user: User }) {
  const navigate = useNavigate();
  const balance = useBalance();
  const virtual = user.accountType === 'virtual';
  const overlay = useOverlayState();
  const { figures, currency, error } = balance;
  const money = (minor: number | undefined) => (minor === undefined ? '—' : formatMoney(minor, currency));
  const tone = amountClass(currency);
  const figureClass = cn('font-bold tabular-nums', tone);
  const figuresId = useId();

  return (
    <>
      <Menu>
        <MenuTrigger asChild>
          <button
            type="button"
            data-testid="wallet-menu"
            className="inline-flex h-10 items-center gap-2 rounded-xl border border-border bg-surface-2/60 px-2.5 text-sm font-bold transition-colors hover:border-accent/60 data-[state=open]:border-accent/60 sm:px-3"
          >
            {error ? (
              <AlertTriangle className="size-4 text-danger" aria-hidden />
            ) : virtual ? (
              <Coins className="size-4 text-vt" aria-hidden />
            ) : (
              <Wallet className="size-4 text-accent-2" aria-hidden />
            )}
            <span className="sr-only">Wallet balance </span>
            <span className={cn('tabular-nums', tone)} data-testid="header-balance">
              {money(figures?.availableMinor)}
            </span>
            <ChevronDown className="hidden size-4 text-muted sm:block" aria-hidden />
          </button>
        </MenuTrigger>
        <MenuContent className="w-68" data-testid="wallet-dropdown" aria-describedby={figuresId}>
          <MenuLabel>{ecosystemLabel(user.role, virtual)}</MenuLabel>
          {/* A menu owns only items and separators: the error and the figures are plain text, read as the menu's description. */}
          <div role="none" id={figuresId}>
            {error ? (
              <p
                role="none"
                className="mx-1.5 my-1 rounded-xl border border-danger/40 bg-danger/10 px-3 py-2.5 text-sm font-semibold text-danger"
                data-testid="dropdown-error"
              >
                {error}
              </p>
            ) : null}
            <dl role="none" className="grid gap-2 px-3 py-2 text-sm">
              <Figure label={WALLET.available} className={figureClass} testId="dropdown-available">
                {money(figures?.availableMinor)}
              </Figure>
              <Figure label={WALLET.inGames} className={figureClass} testId="dropdown-escrow">
                {money(figures?.escrowMinor)}
              </Figure>
              <Figure label={WALLET.status}>
                <Badge tone={virtual ? 'vt' : 'success'}>{accountStatus(virtual)}</Badge>
              </Figure>
            </dl>
          </div>
          {error ? (
            // Retrying keeps the menu open: the figures appear in place once the balance loads.
            <MenuItem
              icon={<RotateCcw aria-hidden />}
              onSelect={(event) => {
                event.preventDefault();
                balance.retry();
              }}
            >
              {WALLET.retry}
            </MenuItem>
          ) : null}
          <MenuSeparator />
          <MenuItem icon={<Wallet aria-hidden />} onSelect={() => void navigate('/wallet')}>
            {WALLET.openWallet}
          </MenuItem>
          {virtual && (
            <MenuItem icon={<Gamepad2 aria-hidden />} onSelect={overlay.open}>
              {WALLET.showVirtualCard}
            </MenuItem>
          )}
        </MenuContent>
      </Menu>
      {virtual && <FloatingVirtualOverlay state={overlay} />}
    </>
  );
}

/** One line of the dropdown's figures: plain text (a menu owns only items). */
function Figure({ label, className, testId, children }: { label: string; className?: string; testId?: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-4">
      <dt role="none" className="text-muted">
        {label}
      </dt>
      <dd role="none" className={className} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// The floating virtual-mode card: open, or minimised to a pill; remembered on this device.

type OverlayMode = 'open' | 'minimised';
const OVERLAY_KEY = 'versus:virtual-overlay';

function readOverlayMode(): OverlayMode {
  try {
    const stored = localStorage.getItem(OVERLAY_KEY);
    if (stored === 'open' || stored === 'minimised') return stored;
  } catch (error) {
    console.warn('Local storage unavailable', error);
  }
  // First visit: a pill in the corner, which never covers a screen's content; one tap opens the card.
  return 'minimised';
}

interface OverlayState {
  mode: OverlayMode;
  open: () => void;
  minimise: () => void;
}

function useOverlayState(): OverlayState {
  const [mode, setMode] = useState<OverlayMode>(readOverlayMode);
  const set = (next: OverlayMode) => {
    setMode(next);
    try {
      localStorage.setItem(OVERLAY_KEY, next);
    } catch (error) {
      console.warn('Could not store the overlay state', error);
    }
  };
  return { mode, open: () => set('open'), minimise: () => set('minimised') };
}

function FloatingVirtualOverlay({ state }: { state: OverlayState }) {
  const { pathname, search } = useLocation();
  const { stats, isError, retry } = useVirtualStats();
  // The wallet page pins its own card; a player who turned the overlay off still opens it from the menu.
  if (pathname === '/wallet') return null;
  // No pill over a game board (the header menu still opens the card there).
  const onBoard = isMatchScreen({ pathname, search });
  if (state.mode === 'minimised' && onBoard) return null;
  if (state.mode === 'minimised' && stats?.virtual_overlay_enabled === false) return null;
  // On a phone above the bottom bar and its raised add button; on a wide screen stacked above the beta chat button, which shares the corner.
  const place = 'fixed right-3 bottom-[calc(6rem+env(safe-area-inset-bottom))] z-[55] md:right-4 md:bottom-[4.75rem]';
  return createPortal(
    state.mode === 'open' ? (
      <div className={cn(place, 'w-[min(20rem,calc(100vw-1.5rem))] animate-rise')} data-testid="virtual-overlay-floating">
        <VirtualOverlayCard stats={stats} isError={isError} onRetry={retry} onMinimise={state.minimise} className="bg-surface!" />
      </div>
    ) : (
      <button
        type="button"
        onClick={state.open}
        title="Show the Virtual Mode card"
        data-testid="virtual-overlay-pill"
        className={cn(
          place,
          'inline-flex h-10 items-center gap-2 rounded-full border border-vt/50 bg-surface/95 px-3.5 text-sm font-bold shadow-lg shadow-black/30 backdrop-blur hover:border-vt',
        )}
      >
        <Coins className="size-4 text-vt" aria-hidden />
        {WALLET.virtualMode}
        {stats && <span className="font-mono text-vt tabular-nums">{stats.weekly_virtual_credits_remaining} VT</span>}
      </button>
    ),
    document.body,
  );
}
