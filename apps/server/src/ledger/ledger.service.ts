// The credits ledger: every money movement is one PL/pgSQL call in the caller's `tx` (ledgerOf(db): its own); amounts in minor units.
// Keys are global (routes namespace request keys per user). Lock order in one transaction: close holds, then lock stakes, then profiles.
import { BALANCE, DEFAULTS, LEDGER, type AccountType, type Currency, type Role } from '@versus/domain';
import {
  MAX_AMOUNT_MINOR,
  WEEKLY_RESET_MS,
  currencyFor,
  currencyTitle,
  formatMoney,
  fromMinor,
  startingBalance,
} from '@versus/domain/money';
import type { BalanceEvent, BalanceView, WalletTransaction } from '@versus/domain/wallet';
import type { Database, Queryable } from '../db/database.ts';
import { AppError, badRequest, notFound } from '../http/errors.ts';
import { hint, topics } from '../realtime/publish.ts';
import * as repo from './ledger.repository.ts';
import type { BalanceChange, EscrowOwner, GrantReason, HoldsOwner, OperationDone, PoolPayout, Refusal } from './ledger.repository.ts';

export type { BalanceChange, EscrowOwner, OperationDone, PoolPayout, Refusal, GrantReason } from './ledger.repository.ts';

// ---------------------------------------------------------------------------------------
// Refusals

/** A refused money movement: 4xx, a catalogue message, and the details for callers to reword. */
export class LedgerError extends AppError {
  constructor(
    status: number,
    code: string,
    message: string,
    readonly refusal: Refusal,
    /** A toast title where SPEC gives one ("Insufficient Credits"). */
    readonly title?: string,
  ) {
    super(status, code, message);
    this.name = 'LedgerError';
  }
}

export function refusalError(refusal: Refusal): LedgerError {
  const fail = (status: number, code: string, message: string, title?: string) => new LedgerError(status, code, message, refusal, title);
  switch (refusal.error) {
    case 'insufficient': {
      const currency = refusal.currency ?? 'credits';
      return fail(
        409,
        'insufficient_funds',
        BALANCE.insufficient(formatMoney(refusal.needed ?? 0, currency), formatMoney(refusal.available ?? 0, currency)),
        BALANCE.insufficientTitle(currencyTitle(currency)),
      );
    }
    case 'currency_not_allowed': {
      const currency = refusal.currency ?? 'credits';
      const message =
        refusal.accountType === 'virtual'
          ? LEDGER.virtualOnlyVTokens(currencyTitle(currency))
          : currency === 'vtokens'
            ? LEDGER.vtokensVirtualOnly
            : LEDGER.wrongRealCurrency(currencyTitle(currency), currencyTitle(refusal.allowed ?? 'credits'));
      return fail(403, 'currency_not_allowed', message);
    }
    case 'invalid_amount':
      return fail(400, 'invalid_amount', LEDGER.amountPositive);
    case 'invalid_owner':
      return fail(400, 'invalid_owner', LEDGER.invalidOwner);
    case 'user_not_found':
      return fail(404, 'user_not_found', LEDGER.userNotFound);
    case 'key_reused':
      return fail(409, 'idempotency_key_reused', LEDGER.keyReused);
    case 'already_held':
      return fail(409, 'already_held', LEDGER.alreadyHeld);
    case 'nothing_held':
      return fail(409, 'nothing_held', LEDGER.nothingHeld);
    case 'mixed_currencies':
      return fail(409, 'mixed_currencies', LEDGER.mixedCurrencies);
    case 'winner_without_stake':
      return fail(409, 'winner_without_stake', LEDGER.winnerWithoutStake);
    case 'stakes_missing':
      return fail(409, 'stakes_missing', LEDGER.stakesMissing);
    case 'payout_mismatch':
      return fail(409, 'payout_mismatch', LEDGER.payoutMismatch);
  }
}

function checkMinor(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw badRequest('invalid_amount', LEDGER.amountPositive, 'amount');
  if (amount > MAX_AMOUNT_MINOR) throw badRequest('invalid_amount', LEDGER.amountTooLarge, 'amount');
}

function checkKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > 300)
    throw badRequest('invalid_key', LEDGER.keyRequired, 'idempotencyKey');
}

/** Publishes each changed balance to its owner (inside `tx`: seen only if it commits), then returns the result. */
async function settled(tx: Queryable, result: repo.OperationResult): Promise<OperationDone> {
  if (!result.ok) throw refusalError(result);
  if (!result.replayed) publishBalances(tx, result.balances);
  return result;
}

/** Each new balance as a hint on user:{id} after commit: the ledger is its record, so no event row (decisions.md, "Hints"). */
function publishBalances(tx: Queryable, balances: BalanceChange[]): void {
  for (const balance of balances) hint(tx, topics.user(balance.userId), 'balance', balanceEvent(balance));
}

export function balanceEvent(balance: BalanceChange): BalanceEvent {
  return {
    currency: balance.currency,
    available: fromMinor(balance.available),
    escrow: fromMinor(balance.escrow),
    availableMinor: balance.available,
    escrowMinor: balance.escrow,
  };
}

// ---------------------------------------------------------------------------------------
// Operations (amounts in minor units)

interface Keyed {
  /** The same key on every retry of one request; a replay moves nothing and returns the first result. */
  idempotencyKey: string;
  /** Shown in the transaction history (at most 200 characters). */
  description?: string | null;
}

export interface GrantInput extends Keyed {
  userId: string;
  currency: Currency;
  amount: number;
  reason?: GrantReason;
}

/** House → the user's available balance (opening the user's accounts of that currency if needed). */
export async function grant(tx: Queryable, input: GrantInput): Promise<OperationDone> {
  checkMinor(input.amount);
  checkKey(input.idempotencyKey);
  const result = await repo.grant(
    tx,
    input.idempotencyKey,
    input.userId,
    input.currency,
    input.amount,
    input.reason ?? 'grant',
    input.description ?? null,
  );
  return settled(tx, result);
}

export interface SpendInput extends Keyed {
  userId: string;
  amount: number;
  /** Defaults to the currency of the user's mode; any other is refused (403). */
  currency?: Currency;
}

/** The user's available balance → house. VTokens spent also count against the week's allowance. */
export async function spend(tx: Queryable, input: SpendInput): Promise<OperationDone> {
  checkMinor(input.amount);
  checkKey(input.idempotencyKey);
  const result = await repo.spend(tx, input.idempotencyKey, input.userId, input.currency ?? null, input.amount, input.description ?? null);
  return settled(tx, result);
}

export interface LockInput extends Keyed {
  userId: string;
  amount: number;
  owner: EscrowOwner;
  /** Defaults to the currency of the user's mode; any other is refused (403). */
  currency?: Currency;
}

/** The user's available → escrow, held for one challenge, match, room or tournament. The result carries `holdId`. */
export async function lockEscrow(tx: Queryable, input: LockInput): Promise<OperationDone & { holdId: number }> {
  checkMinor(input.amount);
  checkKey(input.idempotencyKey);
  const result = await repo.lockEscrow(
    tx,
    input.idempotencyKey,
    input.userId,
    input.currency ?? null,
    input.amount,
    input.owner,
    input.description ?? null,
  );
  const done = await settled(tx, result);
  return { ...done, holdId: done.holdId! };
}

export interface ReleaseInput extends Keyed {
  owner: EscrowOwner;
  /** Only this player's stake; every held stake of the owner when absent. */
  userId?: string;
}

/** Held stakes of the owner → back to their players (a cancelled or expired challenge). */
export async function releaseEscrow(tx: Queryable, input: ReleaseInput): Promise<OperationDone> {
  checkKey(input.idempotencyKey);
  const result = await repo.closeHolds(
    tx,
    'release',
    input.idempotencyKey,
    input.owner,
    input.userId ?? null,
    null,
    input.description ?? null,
  );
  return settled(tx, result);
}

export interface SettleInput extends Keyed {
  owner: EscrowOwner;
  winnerId: string;
}

/** Every held stake of the owner → the winner's available balance: 2 × stake for a match, no fee. */
export async function settleEscrow(tx: Queryable, input: SettleInput): Promise<OperationDone> {
  checkKey(input.idempotencyKey);
  const result = await repo.closeHolds(tx, 'settle', input.idempotencyKey, input.owner, null, input.winnerId, input.description ?? null);
  return settled(tx, result);
}

export interface DrawInput extends Keyed {
  owner: EscrowOwner;
}

/** A draw: each held stake of the owner back to its player. */
export async function settleDraw(tx: Queryable, input: DrawInput): Promise<OperationDone> {
  checkKey(input.idempotencyKey);
  const result = await repo.closeHolds(tx, 'draw', input.idempotencyKey, input.owner, null, null, input.description ?? null);
  return settled(tx, result);
}

/** Moves the held stakes of one owner (by its id) to another, e.g. a challenge's to its match. Returns how many. */
export function transferHolds(tx: Queryable, input: { fromOwnerId: string; to: HoldsOwner }): Promise<number> {
  return repo.transferHolds(tx, input.fromOwnerId, input.to);
}

export interface PayPoolInput extends Keyed {
  tournamentId: string;
  /** The prizes' currency; the stakes (or a sponsor's prize) held may be in another, paid at par. */
  currency: Currency;
  payouts: PoolPayout[];
}

/** A tournament's pool in ONE operation: its stakes → the house → each winner; the payouts must add up to what is held (409). */
export async function payPool(tx: Queryable, input: PayPoolInput): Promise<OperationDone> {
  checkKey(input.idempotencyKey);
  for (const payout of input.payouts) checkMinor(payout.amount);
  const result = await repo.payPool(tx, input.idempotencyKey, input.tournamentId, input.currency, input.payouts, input.description ?? null);
  return settled(tx, result);
}

// ---------------------------------------------------------------------------------------
// Opening accounts

export interface NewAccount {
  userId: string;
  accountType: AccountType;
  role: Role;
}

/** Whether a money movement was recorded under this idempotency key (a retry of it would be a replay). */
export const operationRecorded = (tx: Queryable, key: string): Promise<boolean> => repo.operationExists(tx, key);

/** Opens the mode's accounts with their starting grant, once (registration, a type switch, a balance read repairing a role change). */
export async function ensureAccounts(tx: Queryable, user: NewAccount): Promise<{ currency: Currency; opened: boolean }> {
  const currency = currencyFor(user.role, user.accountType);
  const key = `open:${user.userId}:${currency}`;
  if (await repo.operationExists(tx, key)) return { currency, opened: false };
  const result = await grant(tx, {
    idempotencyKey: key,
    userId: user.userId,
    currency,
    amount: startingBalance(currency),
    reason: 'starting',
    description: currency === 'vtokens' ? 'Weekly VTokens' : 'Welcome credits',
  });
  if (!result.replayed && currency === 'vtokens') await repo.startWeek(tx, user.userId, DEFAULTS.weeklyVirtualCredits);
  return { currency, opened: !result.replayed };
}

/** Locks a stake, first opening the current role's and mode's accounts: a player made admin since stakes pcredits, not refused. */
export async function lockStake(tx: Queryable, player: NewAccount, input: LockInput): Promise<OperationDone & { holdId: number }> {
  await ensureAccounts(tx, player);
  return lockEscrow(tx, input);
}

/** Opens a new player's balances and grants the starting credits, in the caller's (registration) transaction. */
export async function openAccounts(tx: Queryable, account: NewAccount): Promise<void> {
  await ensureAccounts(tx, account);
}

// ---------------------------------------------------------------------------------------
// Reading

/** The profile, its current role's and mode's accounts opened (SPEC §6: a mismatch is repaired automatically); 404 for no such user. */
export async function repairedProfile(tx: Queryable, userId: string): Promise<repo.ProfileMoney> {
  const profile = await repo.findProfile(tx, userId);
  if (!profile) throw notFound(LEDGER.userNotFound);
  await ensureAccounts(tx, { userId, role: profile.role, accountType: profile.account_type });
  return profile;
}

/** SPEC §3 Balance of one user, repairing missing accounts for the user's current role and mode. */
export async function getBalanceView(tx: Queryable, userId: string): Promise<BalanceView> {
  const profile = await repairedProfile(tx, userId);
  const accounts = await repo.userAccounts(tx, userId);
  const balanceOf = (currency: Currency, kind: 'available' | 'escrow') =>
    accounts.find((a) => a.currency === currency && a.kind === kind)?.balance ?? 0;
  const minor = {
    available_credits: balanceOf('credits', 'available'),
    available_pcredits: balanceOf('pcredits', 'available'),
    escrow_credits: balanceOf('credits', 'escrow'),
    escrow_pcredits: balanceOf('pcredits', 'escrow'),
    virtual_credits_available: balanceOf('vtokens', 'available'),
    virtual_credits_escrow: balanceOf('vtokens', 'escrow'),
  };
  const currency = profile.role === 'user' ? 'credits' : 'pcredits';
  const lastReset = new Date(profile.weekly_virtual_credits_last_reset);
  return {
    available_balance: fromMinor(balanceOf(currency, 'available')),
    escrow_balance: fromMinor(balanceOf(currency, 'escrow')),
    currency,
    role: profile.role,
    available_credits: fromMinor(minor.available_credits),
    available_pcredits: fromMinor(minor.available_pcredits),
    escrow_credits: fromMinor(minor.escrow_credits),
    escrow_pcredits: fromMinor(minor.escrow_pcredits),
    virtual_credits_available: fromMinor(minor.virtual_credits_available),
    virtual_credits_escrow: fromMinor(minor.virtual_credits_escrow),
    is_virtual: profile.account_type === 'virtual',
    active_currency: currencyFor(profile.role, profile.account_type),
    weekly_virtual_credits_remaining: profile.weekly_virtual_credits_remaining,
    weekly_virtual_credits_last_reset: lastReset.toISOString(),
    next_weekly_reset_at: new Date(lastReset.getTime() + WEEKLY_RESET_MS).toISOString(),
    minor,
  };
}

/** The user's own transfers, newest first, `limit` per page; pass the previous page's nextCursor. */
export async function getTransactions(
  tx: Queryable,
  userId: string,
  page: { limit: number; cursor?: number | undefined },
): Promise<{ items: WalletTransaction[]; nextCursor: number | null }> {
  const accounts = await repo.userAccounts(tx, userId);
  if (accounts.length === 0) return { items: [], nextCursor: null };
  const kindOf = new Map(accounts.map((a) => [a.id, a.kind]));
  const rows = await repo.transfersOf(
    tx,
    accounts.map((a) => a.id),
    page.cursor ?? null,
    page.limit + 1,
  );
  const items = rows.slice(0, page.limit).map((row): WalletTransaction => {
    let available = 0;
    let escrow = 0;
    const from = kindOf.get(row.from_account);
    const to = kindOf.get(row.to_account);
    if (from === 'available') available -= row.amount;
    if (from === 'escrow') escrow -= row.amount;
    if (to === 'available') available += row.amount;
    if (to === 'escrow') escrow += row.amount;
    return {
      id: row.id,
      createdAt: new Date(row.created_at).toISOString(),
      reason: row.reason,
      description: row.description,
      currency: row.currency,
      available: fromMinor(available),
      escrow: fromMinor(escrow),
      availableMinor: available,
      escrowMinor: escrow,
      challengeId: row.challenge_id,
      matchId: row.match_id,
      roomId: row.room_id,
    };
  });
  const nextCursor = rows.length > page.limit ? (items[items.length - 1]?.id ?? null) : null;
  return { items, nextCursor };
}

// ---------------------------------------------------------------------------------------
// Weekly VTokens (SPEC §4, §9): the rule itself is in ledger_weekly_reset (db/functions/ledger_weekly_reset.sql)

/** Resets one virtual account if its week is over; null when it was not due. */
export async function weeklyReset(tx: Queryable, userId: string): Promise<repo.WeeklyReset | null> {
  const result = await repo.weeklyReset(tx, userId);
  if (result) publishBalances(tx, result.balances);
  return result;
}

/** Resets every virtual account whose week is over, each in its own transaction. Returns how many. */
export async function runWeeklyResets(db: Database, batch = 200): Promise<number> {
  let reset = 0;
  const failed = new Set<string>();
  let lastError: unknown;
  for (;;) {
    const due = (await repo.dueWeeklyResets(db, batch + failed.size)).filter((id) => !failed.has(id));
    if (due.length === 0) break;
    for (const userId of due) {
      try {
        if (await db.transaction((tx) => weeklyReset(tx, userId))) reset += 1;
      } catch (error) {
        failed.add(userId);
        lastError = error;
      }
    }
    if (due.length < batch) break;
  }
  if (failed.size > 0) {
    throw new Error(`weekly reset failed for ${failed.size} account(s), ${reset} done`, { cause: lastError });
  }
  return reset;
}

// ---------------------------------------------------------------------------------------
// The same operations, each in its own transaction

export function ledgerOf(db: Database) {
  return {
    grant: (input: GrantInput) => db.transaction((tx) => grant(tx, input)),
    spend: (input: SpendInput) => db.transaction((tx) => spend(tx, input)),
    lockEscrow: (input: LockInput) => db.transaction((tx) => lockEscrow(tx, input)),
    releaseEscrow: (input: ReleaseInput) => db.transaction((tx) => releaseEscrow(tx, input)),
    settleEscrow: (input: SettleInput) => db.transaction((tx) => settleEscrow(tx, input)),
    settleDraw: (input: DrawInput) => db.transaction((tx) => settleDraw(tx, input)),
    transferHolds: (input: { fromOwnerId: string; to: HoldsOwner }) => db.transaction((tx) => transferHolds(tx, input)),
    payPool: (input: PayPoolInput) => db.transaction((tx) => payPool(tx, input)),
    getBalanceView: (userId: string) => db.transaction((tx) => getBalanceView(tx, userId)),
    weeklyReset: (userId: string) => db.transaction((tx) => weeklyReset(tx, userId)),
  };
}
export type Ledger = ReturnType<typeof ledgerOf>;
