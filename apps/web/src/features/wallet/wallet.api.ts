// The wallet's reads from the server (the signed-in user's own figures only).
import { virtualStatsSchema, walletTransactionsSchema, type VirtualStats, type WalletTransactions } from '@versus/domain/wallet';
import { api } from '../../api/index.ts';

export { fetchBalance, headerBalanceOf as figuresOf } from '../../api/balance.ts';

/** GET /api/wallet/transactions: newest first; pass the previous page's nextCursor for the next. */
export function fetchTransactions(cursor: number | undefined, signal?: AbortSignal): Promise<WalletTransactions> {
  const query = new URLSearchParams({ limit: '20' });
  if (cursor !== undefined) query.set('cursor', String(cursor));
  return api.get(`/api/wallet/transactions?${query}`, walletTransactionsSchema, { signal });
}

/** GET /api/wallet/virtual: weekly tokens, wins, losses and games of virtual play. */
export function fetchVirtualStats(signal?: AbortSignal): Promise<VirtualStats> {
  return api.get('/api/wallet/virtual', virtualStatsSchema, { signal });
}
