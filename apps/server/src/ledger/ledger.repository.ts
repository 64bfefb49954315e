// The ledger's SQL: calls of the operations defined in db/functions/ledger_*.sql (lock, close,
// grant, spend, weekly reset), and reads.
import type { AccountType, Currency, Role } from '@versus/domain';
import type { TransferReason } from '@versus/domain/wallet';
import type { Queryable } from '../db/database.ts';

/** A user's balances in one currency, in minor units. */
export interface BalanceChange {
  userId: string;
  currency: Currency;
  available: number;
  escrow: number;
}

export interface OperationDone {
  ok: true;
  operationId: number;
  currency: Currency;
  /** Minor units moved (the sum of the holds for a settlement). */
  amount: number;
  /** Every user whose balance the operation changed, after it. */
  balances: BalanceChange[];
  /** True when the key had been used by the same request before: nothing moved this time. */
  replayed: boolean;
  holdId?: number;
  holds?: number;
}

export type RefusalCode =
  | 'invalid_amount'
  | 'invalid_owner'
  | 'user_not_found'
  | 'key_reused'
  | 'currency_not_allowed'
  | 'insufficient'
  | 'already_held'
  | 'nothing_held'
  | 'mixed_currencies'
  | 'winner_without_stake'
  | 'stakes_missing'
  | 'payout_mismatch';

export interface Refusal {
  ok: false;
  error: RefusalCode;
  currency?: Currency;
  allowed?: Currency;
  accountType?: AccountType;
  needed?: number;
  available?: number;
}

export type OperationResult = OperationDone | Refusal;

export type GrantReason = Extract<TransferReason, 'starting' | 'grant' | 'admin_grant' | 'weekly_reset'>;

/** Where a hold belongs: exactly one challenge, match, room or tournament. */
export type EscrowOwner = { challengeId: string } | { matchId: string } | { roomId: string } | { tournamentId: string };
/** Owners a held stake can be handed to (a tournament's stakes stay its own until its payout). */
export type HoldsOwner = Exclude<EscrowOwner, { tournamentId: string }>;

type OwnerColumns = [string | null, string | null, string | null, string | null];

function ownerColumns(owner: EscrowOwner): OwnerColumns {
  if ('challengeId' in owner) return [owner.challengeId, null, null, null];
  if ('matchId' in owner) return [null, owner.matchId, null, null];
  if ('roomId' in owner) return [null, null, owner.roomId, null];
  return [null, null, null, owner.tournamentId];
}

type Operation = 'ledger_grant' | 'ledger_spend' | 'ledger_lock_escrow' | 'ledger_close_holds' | 'ledger_pay_pool';

/** Calls one of the ledger's functions (a statement named after it: its text never varies). */
async function call(tx: Queryable, operation: Operation, params: unknown[]): Promise<OperationResult> {
  const sql = `SELECT ${operation}(${params.map((_, i) => `$${i + 1}`).join(', ')}) AS r`;
  try {
    const [row] = await tx.query<{ r: OperationResult }>(sql, params, operation);
    if (!row) throw new Error('ledger: the operation returned nothing');
    return row.r;
  } catch (error) {
    // The functions answer key_reused themselves; a key that still meets the unique index is reused all the same (transaction spoiled).
    const { code, constraint } = error as { code?: string; constraint?: string };
    if (code === '23505' && constraint === 'ledger_operations_idempotency_key') return { ok: false, error: 'key_reused' };
    throw error;
  }
}

export function grant(
  tx: Queryable,
  key: string,
  userId: string,
  currency: Currency,
  amount: number,
  reason: GrantReason,
  description: string | null,
): Promise<OperationResult> {
  return call(tx, 'ledger_grant', [key, userId, currency, amount, reason, description]);
}

export function spend(
  tx: Queryable,
  key: string,
  userId: string,
  currency: Currency | null,
  amount: number,
  description: string | null,
): Promise<OperationResult> {
  return call(tx, 'ledger_spend', [key, userId, currency, amount, description]);
}

export function lockEscrow(
  tx: Queryable,
  key: string,
  userId: string,
  currency: Currency | null,
  amount: number,
  owner: EscrowOwner,
  description: string | null,
): Promise<OperationResult> {
  return call(tx, 'ledger_lock_escrow', [key, userId, currency, amount, ...ownerColumns(owner), description]);
}

export function closeHolds(
  tx: Queryable,
  mode: 'release' | 'draw' | 'settle',
  key: string,
  owner: EscrowOwner,
  userId: string | null,
  winnerId: string | null,
  description: string | null,
): Promise<OperationResult> {
  return call(tx, 'ledger_close_holds', [mode, key, ...ownerColumns(owner), userId, winnerId, description]);
}

export async function transferHolds(tx: Queryable, fromOwnerId: string, to: HoldsOwner): Promise<number> {
  const [row] = await tx.query<{ n: number }>('SELECT ledger_transfer_holds($1, $2, $3, $4) AS n', [
    fromOwnerId,
    ...ownerColumns(to).slice(0, 3),
  ]);
  return row?.n ?? 0;
}

/** One winner's share of a tournament's pool (minor units). */
export interface PoolPayout {
  userId: string;
  amount: number;
  description?: string;
}

export function payPool(
  tx: Queryable,
  key: string,
  tournamentId: string,
  currency: Currency,
  payouts: PoolPayout[],
  description: string | null,
): Promise<OperationResult> {
  return call(tx, 'ledger_pay_pool', [key, tournamentId, currency, JSON.stringify(payouts), description]);
}

export interface WeeklyReset {
  ok: true;
  /** Null when the balance was already at the allowance (nothing granted). */
  operationId: number | null;
  currency: 'vtokens';
  /** Minor units granted to top the balance up. */
  amount: number;
  balances: BalanceChange[];
}

/** The weekly reset of one virtual account; null when none is due. */
export async function weeklyReset(tx: Queryable, userId: string): Promise<WeeklyReset | null> {
  const [row] = await tx.query<{ r: WeeklyReset | null }>('SELECT ledger_weekly_reset($1) AS r', [userId]);
  return row?.r ?? null;
}

export async function dueWeeklyResets(db: Queryable, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM profiles
      WHERE account_type = 'virtual' AND weekly_virtual_credits_last_reset <= now() - interval '7 days'
      ORDER BY weekly_virtual_credits_last_reset LIMIT $1`,
    [limit],
  );
  return rows.map((r) => r.id);
}

/** Minor units in escrow per currency: every user's escrow account summed (currencies with none are absent). */
export function escrowTotals(db: Queryable): Promise<{ currency: Currency; amount: number }[]> {
  return db.query(`SELECT currency, coalesce(sum(balance), 0) AS amount FROM ledger_accounts WHERE kind = 'escrow' GROUP BY currency`);
}

export async function operationExists(tx: Queryable, key: string): Promise<boolean> {
  const rows = await tx.query('SELECT 1 FROM ledger_operations WHERE idempotency_key = $1', [key]);
  return rows.length > 0;
}

export interface ProfileMoney {
  role: Role;
  account_type: AccountType;
  weekly_virtual_credits_remaining: number;
  weekly_virtual_credits_last_reset: Date;
}

export async function findProfile(tx: Queryable, userId: string): Promise<ProfileMoney | null> {
  const [row] = await tx.query<ProfileMoney>(
    `SELECT role, account_type, weekly_virtual_credits_remaining, weekly_virtual_credits_last_reset
       FROM profiles WHERE id = $1`,
    [userId],
  );
  return row ?? null;
}

export async function startWeek(tx: Queryable, userId: string, allowance: number): Promise<void> {
  await tx.query(
    `UPDATE profiles SET weekly_virtual_credits_remaining = $2, weekly_virtual_credits_last_reset = now(), updated_at = now()
      WHERE id = $1`,
    [userId, allowance],
  );
}

export interface AccountRow {
  id: number;
  currency: Currency;
  kind: 'available' | 'escrow';
  balance: number;
}

export function userAccounts(tx: Queryable, userId: string): Promise<AccountRow[]> {
  return tx.query<AccountRow>('SELECT id, currency, kind, balance FROM ledger_accounts WHERE user_id = $1 ORDER BY id', [userId]);
}

export interface TransferRow {
  id: number;
  created_at: Date;
  reason: TransferReason;
  description: string | null;
  currency: Currency;
  amount: number;
  from_account: number;
  to_account: number;
  challenge_id: string | null;
  match_id: string | null;
  room_id: string | null;
}

/** Transfers touching any of `accountIds`, newest first, before the cursor id. */
export function transfersOf(tx: Queryable, accountIds: number[], before: number | null, limit: number): Promise<TransferRow[]> {
  const columns = 'id, created_at, reason, description, currency, amount, from_account, to_account, challenge_id, match_id, room_id';
  const cursor = 'AND ($2::bigint IS NULL OR id < $2)';
  return tx.query<TransferRow>(
    `SELECT ${columns} FROM (
       (SELECT ${columns} FROM ledger_transfers WHERE from_account = ANY ($1::bigint[]) ${cursor} ORDER BY id DESC LIMIT $3)
       UNION
       (SELECT ${columns} FROM ledger_transfers WHERE to_account = ANY ($1::bigint[]) ${cursor} ORDER BY id DESC LIMIT $3)
     ) t ORDER BY id DESC LIMIT $3`,
    [accountIds, before, limit],
  );
}
