// A wallet's add, use and the admin's grant (docs/decisions.md, "Where credits come from"); keys are
// namespaced by the caller, so one user's key never replays another's.
import { BALANCE, LEDGER, type AccountType, type Currency } from '@versus/domain';
import { currencyFor, formatMinor, fromMinor, toMinor } from '@versus/domain/money';
import type { AdminGrantRequest, CreditsRequest, CreditsResult } from '@versus/domain/wallet';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import * as ledger from '../ledger/ledger.service.ts';
import { notify } from '../notifications/notify.ts';

function result(done: ledger.OperationDone, userId: string, message: (amount: string) => string): CreditsResult {
  const balance = done.balances.find((b) => b.userId === userId);
  return {
    currency: done.currency,
    amount: fromMinor(done.amount),
    amountMinor: done.amount,
    replayed: done.replayed,
    message: message(formatMinor(done.amount)),
    available: fromMinor(balance?.available ?? 0),
    escrow: fromMinor(balance?.escrow ?? 0),
  };
}

export type VirtualRestrictedAction = keyof typeof LEDGER.virtualRestricted;

/** SPEC §5's restrictions on virtual accounts: a feature offering one calls this first (403). */
export function refuseForVirtual(accountType: AccountType, action: VirtualRestrictedAction): void {
  if (accountType === 'virtual') throw new AppError(403, 'virtual_restricted', LEDGER.virtualRestricted[action]);
}

export async function addCredits(ctx: AppContext, userId: string, request: CreditsRequest): Promise<CreditsResult> {
  return ctx.db.transaction(async (tx) => {
    // (A refusal below rolls back the accounts this may open.)
    const profile = await ledger.repairedProfile(tx, userId);
    refuseForVirtual(profile.account_type, 'deposit');
    if (profile.role !== 'admin') throw new AppError(403, 'feature_coming_soon', BALANCE.featureComingSoon);
    const done = await ledger.grant(tx, {
      idempotencyKey: `wallet-add:${userId}:${request.idempotencyKey}`,
      userId,
      currency: currencyFor(profile.role, profile.account_type),
      amount: toMinor(request.amount),
      reason: 'admin_grant',
      description: request.description || 'Credits added',
    });
    return result(done, userId, BALANCE.added);
  });
}

export async function useCredits(ctx: AppContext, userId: string, request: CreditsRequest): Promise<CreditsResult> {
  return ctx.db.transaction(async (tx) => {
    // A player made promoter (or an admin made player) spends in the new currency: repaired first.
    await ledger.repairedProfile(tx, userId);
    const done = await ledger.spend(tx, {
      idempotencyKey: `wallet-use:${userId}:${request.idempotencyKey}`,
      userId,
      amount: toMinor(request.amount),
      description: request.description || 'Credits used',
    });
    if (!done.replayed) {
      await notify(tx, { userId, type: 'credits_deducted', metadata: { amount: fromMinor(done.amount), currency: done.currency } });
    }
    return result(done, userId, BALANCE.deducted);
  });
}

export async function adminGrant(ctx: AppContext, adminId: string, input: AdminGrantRequest): Promise<CreditsResult> {
  // A UUID names its user in either case; the key, the answer and the user's topic use its one form.
  const request = { ...input, userId: input.userId.toLowerCase() };
  return ctx.db.transaction(async (tx) => {
    const profile = await ledger.repairedProfile(tx, request.userId);
    const allowed: Currency = currencyFor(profile.role, profile.account_type);
    const currency = request.currency ?? allowed;
    if (currency !== allowed) {
      throw ledger.refusalError({ ok: false, error: 'currency_not_allowed', currency, allowed, accountType: profile.account_type });
    }
    const done = await ledger.grant(tx, {
      idempotencyKey: `admin-grant:${adminId}:${request.idempotencyKey}`,
      userId: request.userId,
      currency,
      amount: toMinor(request.amount),
      reason: 'admin_grant',
      description: request.description || 'Granted by an admin',
    });
    if (!done.replayed) {
      await notify(tx, { userId: request.userId, type: 'credits_earned', metadata: { amount: fromMinor(done.amount), currency } });
    }
    return result(done, request.userId, BALANCE.added);
  });
}
