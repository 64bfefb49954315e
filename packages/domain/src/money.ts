// Money rules shared by server and web: each player's currency, units to the ledger's integer
// minor units and back, and how amounts are written.
import { DEFAULTS, MINOR_UNITS, type AccountType, type Currency, type Role } from './constants.ts';

/** Promoters and admins use pcredits (SPEC §6: promoter status is true for either). */
export function isPromoter(role: Role): boolean {
  return role === 'promoter' || role === 'admin';
}

/** The one currency a player spends and stakes: VTokens in virtual mode, else decided by role. */
export function currencyFor(role: Role, accountType: AccountType): Currency {
  if (accountType === 'virtual') return 'vtokens';
  return isPromoter(role) ? 'pcredits' : 'credits';
}

/** The real-money currency the role decides (SPEC §3 Balance `currency`: credits or pcredits). */
export function realCurrencyFor(role: Role): Exclude<Currency, 'vtokens'> {
  return isPromoter(role) ? 'pcredits' : 'credits';
}

/** A real account may use only its role's currency; a virtual one only VTokens. */
export function canUseCurrency(role: Role, accountType: AccountType, currency: Currency): boolean {
  return currencyFor(role, accountType) === currency;
}

/** The balance a mode's accounts are opened with, in minor units. */
export function startingBalance(currency: Currency): number {
  return toMinor(currency === 'vtokens' ? DEFAULTS.weeklyVirtualCredits : DEFAULTS.tokens);
}

export const WEEKLY_VIRTUAL_ALLOWANCE_MINOR = DEFAULTS.weeklyVirtualCredits * MINOR_UNITS;
export const WEEKLY_RESET_MS = 7 * 24 * 60 * 60 * 1000;

/** SPEC §4: a virtual account's weekly reset is due when 7 days or more passed since the last. */
export function isWeeklyResetDue(lastReset: Date, now: Date): boolean {
  return now.getTime() - lastReset.getTime() >= WEEKLY_RESET_MS;
}

/** Winnings above the allowance are kept; escrow is not counted, as it comes back when the game ends. */
export function weeklyTopUp(availableMinor: number): number {
  return Math.max(0, WEEKLY_VIRTUAL_ALLOWANCE_MINOR - availableMinor);
}

// ---------------------------------------------------------------------------------------
// Units

/** The largest amount of one operation, in minor units: far above any stake, far below 2^53. */
export const MAX_AMOUNT_MINOR = 1_000_000_000_000;

/** Minor units to the unit people read: 1050 → 10.5. */
export function fromMinor(minor: number): number {
  return minor / MINOR_UNITS;
}

/** 10.5 → 1050; null beyond 2 decimals, float noise aside, so 0.1 + 0.2 still reads as 30. */
export function toMinorOrNull(units: number): number | null {
  if (!Number.isFinite(units)) return null;
  const scaled = units * MINOR_UNITS;
  const minor = Math.round(scaled);
  // Only binary rounding noise may separate `scaled` from a whole number of cents.
  if (Math.abs(scaled - minor) > 8 * Number.EPSILON * Math.max(1, Math.abs(scaled))) return null;
  if (!Number.isSafeInteger(minor)) return null;
  return minor === 0 ? 0 : minor; // never -0
}

export function toMinor(units: number): number {
  const minor = toMinorOrNull(units);
  if (minor === null) throw new RangeError(`${units} is not an amount with at most 2 decimals`);
  return minor;
}

export type AmountProblem = 'notNumber' | 'notPositive' | 'tooManyDecimals' | 'tooLarge';

/** Checks an amount someone typed or sent (in units) for a money-moving request. */
export function checkAmount(units: number): { minor: number } | { problem: AmountProblem } {
  if (typeof units !== 'number' || !Number.isFinite(units)) return { problem: 'notNumber' };
  if (!(units > 0)) return { problem: 'notPositive' };
  const minor = toMinorOrNull(units);
  if (minor === null) return { problem: 'tooManyDecimals' };
  if (minor === 0) return { problem: 'notPositive' };
  if (minor > MAX_AMOUNT_MINOR) return { problem: 'tooLarge' };
  return { minor };
}

// ---------------------------------------------------------------------------------------
// Writing amounts (SPEC §9: 2 decimals; $ for credits and pcredits, VT for VTokens)

export function currencySymbol(currency: Currency): '$' | 'VT' {
  return currency === 'vtokens' ? 'VT' : '$';
}

/** The currency's name in titles: "Insufficient Credits", "Insufficient Pcredits", "Insufficient VTokens". */
export function currencyTitle(currency: Currency): string {
  return currency === 'vtokens' ? 'VTokens' : currency === 'pcredits' ? 'Pcredits' : 'Credits';
}

/** The currency's name in running text: "add more credits". */
export function currencyLabel(currency: Currency): string {
  return currency === 'vtokens' ? 'VTokens' : currency;
}

/** 123456 → "1,234.56" (always 2 decimals, comma thousands, a leading "-" when negative). */
export function formatMinor(minor: number): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`${minor} is not an amount in minor units`);
  const negative = minor < 0;
  const abs = Math.abs(minor);
  const whole = Math.floor(abs / MINOR_UNITS);
  const cents = abs % MINOR_UNITS;
  const grouped = String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}.${String(cents).padStart(2, '0')}`;
}

/** "$1,000.00", "-$5.25", "500.00 VT". */
export function formatMoney(minor: number, currency: Currency): string {
  const text = formatMinor(minor);
  if (currency === 'vtokens') return `${text} VT`;
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
}

/** Reads back what formatMoney wrote (for tests and pasted amounts); null when it is not one. */
export function parseMoney(text: string): { minor: number; currency: 'vtokens' | 'dollars' } | null {
  const match = /^(-?)(\$?)(\d{1,3}(?:,\d{3})*|\d+)\.(\d{2})( VT)?$/.exec(text.trim());
  if (!match) return null;
  const [, sign, dollar, whole, cents, vt] = match;
  if (Boolean(dollar) === Boolean(vt)) return null;
  const minor = Number(whole!.replaceAll(',', '')) * MINOR_UNITS + Number(cents);
  if (!Number.isSafeInteger(minor)) return null;
  return { minor: sign && minor !== 0 ? -minor : minor, currency: vt ? 'vtokens' : 'dollars' };
}
