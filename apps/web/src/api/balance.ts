import type { Currency } from '@versus/domain';
import { balanceViewSchema, type BalanceView } from '@versus/domain/wallet';
import { api } from './client.ts';

/** What the header's wallet dropdown shows: the balance of the mode the player is in, in minor units. */
export interface HeaderBalance {
  availableMinor: number;
  escrowMinor: number;
  currency: Currency;
}

/** The active mode's figures: VTokens in virtual mode, else the role's real currency. */
export function headerBalanceOf(view: BalanceView): HeaderBalance {
  if (view.is_virtual) {
    return { availableMinor: view.minor.virtual_credits_available, escrowMinor: view.minor.virtual_credits_escrow, currency: 'vtokens' };
  }
  if (view.currency === 'pcredits') {
    return { availableMinor: view.minor.available_pcredits, escrowMinor: view.minor.escrow_pcredits, currency: 'pcredits' };
  }
  return { availableMinor: view.minor.available_credits, escrowMinor: view.minor.escrow_credits, currency: 'credits' };
}

/** GET /api/wallet/balance (the current user's balance, SPEC §3 Balance). */
export const fetchBalance = (signal?: AbortSignal) => api.get('/api/wallet/balance', balanceViewSchema, { signal });
