// How the wallet writes figures: amounts with 2 decimals, $ or VT (VT in orange), the ecosystem
// label and the account status (SPEC §1, §2, §9), and a readable line for each transaction.
import { WALLET, type Currency, type Role } from '@versus/domain';
import { formatMoney, isPromoter } from '@versus/domain/money';
import type { TransferReason, WalletTransaction } from '@versus/domain/wallet';

/** "$1,000.00" or "500.00 VT". */
export const formatAmount = formatMoney;

/** "+$25.00", "-$25.00", "+10.00 VT"; zero has no sign. */
export function formatSigned(minor: number, currency: Currency): string {
  return minor > 0 ? `+${formatMoney(minor, currency)}` : formatMoney(minor, currency);
}

/** The text colour class of an amount: VTokens in orange (SPEC §1). */
export function amountClass(currency: Currency): 'text-vt' | 'text-fg' {
  return currency === 'vtokens' ? 'text-vt' : 'text-fg';
}

/** SPEC §2 Wallet dropdown: "Demo Mode" for a virtual account, "Active" otherwise. */
export function accountStatus(isVirtual: boolean): string {
  return isVirtual ? WALLET.demoMode : WALLET.active;
}

/** SPEC §1: promoters and admins see "Promoter Ecosystem", others "Player Ecosystem"; virtual play is its own. */
export function ecosystemLabel(role: Role, isVirtual: boolean): string {
  if (isVirtual) return WALLET.virtualEcosystem;
  return isPromoter(role) ? WALLET.promoterEcosystem : WALLET.playerEcosystem;
}

/** The currency's name under an amount. */
export function currencyName(currency: Currency): string {
  return currency === 'vtokens' ? 'VTokens' : currency === 'pcredits' ? 'Promoter credits (USD)' : 'Credits (USD)';
}

// ---------------------------------------------------------------------------------------------
// Transactions

export interface TransactionLine {
  title: string;
  /** The description, when it says more than the title. */
  detail: string | null;
  /** The main signed amount: the available balance's change, or escrow's when available did not move. */
  amountMinor: number;
  /** What `amountMinor` changed. */
  amountOf: 'available' | 'escrow';
  /** The escrow change shown beside a change of available (a stake locked or returned); 0 when none. */
  escrowMinor: number;
  currency: Currency;
  tone: 'gain' | 'loss' | 'neutral';
}

const TITLES: Record<Exclude<TransferReason, 'settle'>, string> = {
  starting: 'Starting balance',
  grant: 'Credits granted',
  admin_grant: 'Added by an admin',
  weekly_reset: 'Weekly VTokens',
  spend: 'Credits used',
  escrow_lock: 'Stake locked in escrow',
  escrow_release: 'Stake returned from escrow',
  draw: 'Draw: stake returned',
  tournament_pool: 'Stake paid into the prize pool',
  tournament_prize: 'Tournament prize',
};

function titleOf(tx: WalletTransaction): string {
  if (tx.reason === 'settle') return tx.availableMinor > 0 ? 'Match won' : 'Match lost';
  const title = TITLES[tx.reason];
  return tx.currency === 'vtokens' ? title.replace('Credits', 'VTokens') : title;
}

export function describeTransaction(tx: WalletTransaction): TransactionLine {
  const title = titleOf(tx);
  const description = tx.description?.trim() || null;
  const detail = description && description.toLowerCase() !== title.toLowerCase() ? description : null;
  const onAvailable = tx.availableMinor !== 0 || tx.escrowMinor === 0;
  const amountMinor = onAvailable ? tx.availableMinor : tx.escrowMinor;
  // Moving a stake into escrow is not a loss; losing the stake in a settled match is.
  const tone =
    tx.reason === 'escrow_lock' || tx.reason === 'escrow_release' || tx.reason === 'draw'
      ? 'neutral'
      : amountMinor > 0
        ? 'gain'
        : amountMinor < 0
          ? 'loss'
          : 'neutral';
  return {
    title,
    detail,
    amountMinor,
    amountOf: onAvailable ? 'available' : 'escrow',
    escrowMinor: onAvailable ? tx.escrowMinor : 0,
    currency: tx.currency,
    tone,
  };
}

/** "Mar 2, 2026, 10:00 AM" in the reader's locale and zone (fixed ones in tests). */
export function formatWhen(iso: string, locale?: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date);
}

/** Time until the next weekly reset: "6d 23h" above a day, else "5h 12m", "0m" when due (SPEC §9 time-left style). */
export function formatResetIn(nextResetAt: string, now: number): string {
  const at = new Date(nextResetAt).getTime();
  if (Number.isNaN(at)) return '';
  const minutes = Math.max(0, Math.floor((at - now) / 60_000));
  const days = Math.floor(minutes / (24 * 60));
  const hours = Math.floor((minutes % (24 * 60)) / 60);
  if (days > 0) return `${days}d ${hours}h`;
  return `${hours}h ${minutes % 60}m`;
}
