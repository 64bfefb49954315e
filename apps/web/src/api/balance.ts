import { CURRENCIES, type Currency } from '@versus/domain';
import { api } from './client.ts';
import type { Schema } from './http.ts';

/** What the header's wallet dropdown shows. Amounts are integer minor units (cents). */
export interface HeaderBalance {
  availableMinor: number;
  escrowMinor: number;
  currency: Currency | null;
}

const pick = (source: Record<string, unknown>, keys: string[]): unknown => {
  for (const key of keys) if (key in source) return source[key];
  return undefined;
};

/** An amount in minor units: integers are taken as minor units (the ledger's unit), decimals as units. */
const toMinor = (value: unknown): number | null => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) return null;
  return Number.isInteger(n) ? n : Math.round(n * 100);
};

/**
 * GET /api/wallet/balance belongs to the wallet feature; the header reads it tolerantly
 * (top level or under `balance`, camel or snake case) so the two can evolve apart.
 */
export const headerBalanceSchema: Schema<HeaderBalance> = {
  safeParse(data) {
    const root = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : null;
    const source = root && typeof root.balance === 'object' && root.balance !== null ? (root.balance as Record<string, unknown>) : root;
    if (!source) return { success: false, error: { issues: ['not an object'] } };
    const available = toMinor(pick(source, ['availableMinor', 'available_minor', 'available', 'availableBalance', 'available_balance']));
    const escrow = toMinor(pick(source, ['escrowMinor', 'escrow_minor', 'escrow', 'escrowBalance', 'escrow_balance'])) ?? 0;
    if (available === null) return { success: false, error: { issues: ['no available amount'] } };
    const currency = pick(source, ['currency']);
    return {
      success: true,
      data: {
        availableMinor: available,
        escrowMinor: escrow,
        currency: (CURRENCIES as readonly unknown[]).includes(currency) ? (currency as Currency) : null,
      },
    };
  },
};

export const fetchHeaderBalance = (signal?: AbortSignal) => api.get('/api/wallet/balance', headerBalanceSchema, { signal });
