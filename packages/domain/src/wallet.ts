// Wire shapes of the wallet API and the ledger's event; amounts travel in units with an exact
// `...Minor` twin where the client does arithmetic.
import { z } from 'zod';
import { CURRENCIES, ROLES } from './constants.ts';
import { LEDGER } from './messages.ts';
import { checkAmount } from './money.ts';

export const currencySchema = z.enum(CURRENCIES);

/** An amount someone asks to move, in units: > 0, at most 2 decimals. */
export const amountSchema = z.number({ error: LEDGER.amountNotNumber }).superRefine((value, ctx) => {
  const checked = checkAmount(value);
  if ('minor' in checked) return;
  const message = {
    notNumber: LEDGER.amountNotNumber,
    notPositive: LEDGER.amountPositive,
    tooManyDecimals: LEDGER.amountDecimals,
    tooLarge: LEDGER.amountTooLarge,
  }[checked.problem];
  ctx.addIssue({ code: 'custom', message });
});

/** A client-chosen key, the same on every retry of one request (a UUID does well). */
export const idempotencyKeySchema = z
  .string({ error: LEDGER.keyRequired })
  .trim()
  .min(8, LEDGER.keyRequired)
  .max(100)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'idempotencyKey may hold letters, digits and _ . : - only');

const descriptionSchema = z.string().trim().max(200).optional();

/** SPEC add_user_credits_unified / use_user_credits_unified: amount, description. */
export const creditsRequestSchema = z.object({
  amount: amountSchema,
  description: descriptionSchema,
  idempotencyKey: idempotencyKeySchema,
});
export type CreditsRequest = z.infer<typeof creditsRequestSchema>;

export const adminGrantRequestSchema = z.object({
  userId: z.string().uuid(),
  amount: amountSchema,
  /** Defaults to the currency of the user's current mode; another one is refused. */
  currency: currencySchema.optional(),
  description: descriptionSchema,
  idempotencyKey: idempotencyKeySchema,
});
export type AdminGrantRequest = z.infer<typeof adminGrantRequestSchema>;

const units = z.number();
const minor = z.number().int();

/** SPEC §3 Balance: `currency` is the role's real one; `active_currency` is what the user stakes now (vtokens in virtual mode). */
export const balanceViewSchema = z.object({
  available_balance: units,
  escrow_balance: units,
  currency: z.enum(['credits', 'pcredits']),
  role: z.enum(ROLES),
  available_credits: units,
  available_pcredits: units,
  escrow_credits: units,
  escrow_pcredits: units,
  virtual_credits_available: units,
  virtual_credits_escrow: units,
  is_virtual: z.boolean(),
  active_currency: currencySchema,
  weekly_virtual_credits_remaining: z.number().int(),
  weekly_virtual_credits_last_reset: z.string(),
  next_weekly_reset_at: z.string(),
  minor: z.object({
    available_credits: minor,
    available_pcredits: minor,
    escrow_credits: minor,
    escrow_pcredits: minor,
    virtual_credits_available: minor,
    virtual_credits_escrow: minor,
  }),
});
export type BalanceView = z.infer<typeof balanceViewSchema>;

export const TRANSFER_REASONS = [
  'starting',
  'grant',
  'admin_grant',
  'weekly_reset',
  'spend',
  'escrow_lock',
  'escrow_release',
  'settle',
  'draw',
  // A tournament's pool: each stake into it, each prize out of it (one payout operation).
  'tournament_pool',
  'tournament_prize',
] as const;
export type TransferReason = (typeof TRANSFER_REASONS)[number];

/** One ledger transfer as the player sees it: how it changed their available and escrow balances. */
export const walletTransactionSchema = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  reason: z.enum(TRANSFER_REASONS),
  description: z.string().nullable(),
  currency: currencySchema,
  available: units,
  escrow: units,
  availableMinor: minor,
  escrowMinor: minor,
  challengeId: z.string().nullable(),
  matchId: z.string().nullable(),
  roomId: z.string().nullable(),
});
export type WalletTransaction = z.infer<typeof walletTransactionSchema>;

export const WALLET_HISTORY = { defaultLimit: 20, maxLimit: 100 } as const;

export const walletTransactionsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(WALLET_HISTORY.maxLimit).default(WALLET_HISTORY.defaultLimit),
  /** The `nextCursor` of the previous page. */
  cursor: z.coerce.number().int().positive().optional(),
});

export const walletTransactionsSchema = z.object({
  items: z.array(walletTransactionSchema),
  nextCursor: z.number().int().nullable(),
});
export type WalletTransactions = z.infer<typeof walletTransactionsSchema>;

/** The answer to add, use and admin grant. `message` is SPEC's "X credits added/deducted" text. */
export const creditsResultSchema = z.object({
  currency: currencySchema,
  amount: units,
  amountMinor: minor,
  /** True when this was a retry of a request already done: nothing moved this time. */
  replayed: z.boolean(),
  message: z.string(),
  available: units,
  escrow: units,
});
export type CreditsResult = z.infer<typeof creditsResultSchema>;

/** Realtime `balance` hint on topic user:{id}, sent once the transaction that moved the money has committed. */
export const balanceEventSchema = z.object({
  currency: currencySchema,
  available: units,
  escrow: units,
  availableMinor: minor,
  escrowMinor: minor,
});
export type BalanceEvent = z.infer<typeof balanceEventSchema>;

export const ledgerAuditSchema = z.object({
  ok: z.boolean(),
  checkedAt: z.string(),
  problems: z.array(z.object({ check: z.string(), detail: z.string() })),
  currencies: z.array(
    z.object({
      currency: currencySchema,
      total: minor,
      house: minor,
      available: minor,
      escrow: minor,
      heldInEscrow: minor,
    }),
  ),
  /** Which owner tables existed and were checked for held escrow. */
  ownersChecked: z.object({ challenges: z.boolean(), matches: z.boolean(), private_rooms: z.boolean(), tournaments: z.boolean() }),
});
export type LedgerAudit = z.infer<typeof ledgerAuditSchema>;

/** GET /api/wallet/virtual: the virtual-mode overlay card's figures, in whole VTokens. */
export const virtualStatsSchema = z.object({
  is_virtual: z.boolean(),
  weekly_allowance: z.number().int(),
  weekly_virtual_credits_remaining: z.number().int(),
  weekly_virtual_credits_last_reset: z.string(),
  next_weekly_reset_at: z.string(),
  total_virtual_credits_earned: z.number().int(),
  virtual_games_played: z.number().int(),
  virtual_wins: z.number().int(),
  virtual_losses: z.number().int(),
  virtual_theme: z.string(),
  virtual_overlay_enabled: z.boolean(),
});
export type VirtualStats = z.infer<typeof virtualStatsSchema>;
