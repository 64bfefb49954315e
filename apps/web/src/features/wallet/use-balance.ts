// useBalance(): the signed-in player's wallet figures for any screen, kept fresh over the
// realtime socket, with optimistic changes for screens that move money.
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { useInfiniteQuery, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { BALANCE, type Currency } from '@versus/domain';
import { currencyFor } from '@versus/domain/money';
import type { BalanceView, VirtualStats, WalletTransactions } from '@versus/domain/wallet';
import { useAuth } from '../auth/use-auth.ts';
import { useTopicRefetch } from '../../realtime/index.ts';
import { balanceRetryDelay, createRefreshScheduler, shouldRetryBalance, type RefreshScheduler } from './balance-refresh.ts';
import { applyPending, OptimisticChanges, runOptimistic, type BalanceDelta, type PendingChange, type WalletFigures } from './optimistic.ts';
import { fetchBalance, fetchTransactions, fetchVirtualStats, figuresOf } from './wallet.api.ts';

export type { BalanceDelta, WalletFigures } from './optimistic.ts';

/** Query keys; invalidating `walletKeys.all(userId)` refreshes every wallet read of that player. */
export const walletKeys = {
  all: (userId: string) => ['wallet', userId] as const,
  balance: (userId: string, accountType: string, role: string) => ['wallet', userId, 'balance', accountType, role] as const,
  transactions: (userId: string) => ['wallet', userId, 'transactions'] as const,
  virtual: (userId: string) => ['wallet', userId, 'virtual'] as const,
};

/** Realtime events and hints on user:{id} after which the wallet reads again (and any gap or reconnect). */
const REFRESH_ON = { types: new Set(['balance', 'profile.updated']), hints: true, resumed: true };

interface WalletSync {
  scheduler: RefreshScheduler;
  changes: OptimisticChanges;
}

// One scheduler and one list of pending changes per player and cache, shared by every screen
// that shows the balance, so ten mounted consumers still refetch once per change.
const syncs = new WeakMap<QueryClient, Map<string, WalletSync>>();

function walletSync(queryClient: QueryClient, userId: string): WalletSync {
  let byUser = syncs.get(queryClient);
  if (!byUser) {
    byUser = new Map();
    syncs.set(queryClient, byUser);
  }
  let sync = byUser.get(userId);
  if (!sync) {
    sync = {
      scheduler: createRefreshScheduler(() => void queryClient.invalidateQueries({ queryKey: walletKeys.all(userId) })),
      changes: new OptimisticChanges(),
    };
    byUser.set(userId, sync);
  }
  return sync;
}

/** Refreshes after a reconnect too, as balance hints are not replayed. */
function useWalletRealtime(userId: string | null, sync: WalletSync | null): void {
  useTopicRefetch(userId ? `user:${userId}` : null, REFRESH_ON, () => sync?.scheduler.request());
}

export interface OptimisticHandle {
  /** The operation failed: the shown balance goes back to the server's. */
  rollback(): void;
  /** The operation succeeded: refetch, then drop the change (the server's figures now hold it). */
  confirm(): Promise<void>;
}

export interface UseBalance {
  /** The server's balance view (SPEC §3 Balance); undefined until loaded. */
  view: BalanceView | undefined;
  /** The active mode's figures with pending optimistic changes applied; null until loaded. */
  figures: WalletFigures | null;
  /** The currency the player spends and stakes now (known before the balance loads). */
  currency: Currency;
  isLoading: boolean;
  /** "Failed to load balance" once the three retries (1 s, 2 s, 4 s) have failed; else null. */
  error: string | null;
  /** Loads again (the error state's Retry). */
  retry(): void;
  /** Shows `delta` at once (never below 0) until confirmed or rolled back. */
  applyOptimistic(delta: BalanceDelta): OptimisticHandle;
  /** applyOptimistic around `operation`: rolled back and rethrown if it fails. */
  withOptimistic<T>(delta: BalanceDelta, operation: () => Promise<T>): Promise<T>;
}

const NO_CHANGES: readonly PendingChange[] = [];
const noSubscription = () => () => undefined;
const noChanges = () => NO_CHANGES;

export function useBalance(): UseBalance {
  const { user, isAuthenticated } = useAuth();
  const queryClient = useQueryClient();
  const userId = isAuthenticated && user ? user.id : null;
  const sync = userId ? walletSync(queryClient, userId) : null;
  useWalletRealtime(userId, sync);

  const currency = user ? currencyFor(user.role, user.accountType) : 'credits';
  const query = useQuery({
    queryKey: walletKeys.balance(userId ?? '', user?.accountType ?? 'real', user?.role ?? 'user'),
    queryFn: ({ signal }) => fetchBalance(signal),
    enabled: userId !== null,
    staleTime: 30_000,
    retry: shouldRetryBalance,
    retryDelay: balanceRetryDelay,
  });
  const pending = useSyncExternalStore(sync?.changes.subscribe ?? noSubscription, sync?.changes.getSnapshot ?? noChanges, noChanges);
  const figures = useMemo(() => (query.data ? applyPending(figuresOf(query.data), pending) : null), [query.data, pending]);

  const refresh = useCallback(async () => {
    if (userId) await queryClient.invalidateQueries({ queryKey: walletKeys.all(userId) });
  }, [queryClient, userId]);

  const applyOptimistic = useCallback(
    (delta: BalanceDelta): OptimisticHandle => {
      if (!sync) throw new Error('Sign in before changing a balance');
      const id = sync.changes.add(delta, currency);
      return {
        rollback: () => sync.changes.remove(id),
        confirm: async () => {
          try {
            await refresh();
          } finally {
            sync.changes.remove(id);
          }
        },
      };
    },
    [sync, currency, refresh],
  );

  const withOptimistic = useCallback(
    <T>(delta: BalanceDelta, operation: () => Promise<T>): Promise<T> => {
      if (!sync) return Promise.reject(new Error('Sign in before changing a balance'));
      return runOptimistic(sync.changes, delta, currency, operation, refresh);
    },
    [sync, currency, refresh],
  );

  return {
    view: query.data,
    figures,
    currency: figures?.currency ?? currency,
    isLoading: query.isPending && userId !== null,
    error: query.isError && !query.data ? BALANCE.loadFailed : null,
    retry: () => void query.refetch(),
    applyOptimistic,
    withOptimistic,
  };
}

/** The player's own transfers, newest first, a page at a time (refreshed with the balance). */
export function useTransactions() {
  const { user, isAuthenticated } = useAuth();
  const userId = isAuthenticated && user ? user.id : null;
  return useInfiniteQuery({
    queryKey: walletKeys.transactions(userId ?? ''),
    queryFn: ({ pageParam, signal }): Promise<WalletTransactions> => fetchTransactions(pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: userId !== null,
    staleTime: 30_000,
  });
}

/** The virtual-mode figures of the overlay card (only fetched for a virtual account). */
export function useVirtualStats(): { stats: VirtualStats | undefined; isLoading: boolean; isError: boolean; retry(): void } {
  const { user, isAuthenticated, isVirtual } = useAuth();
  const userId = isAuthenticated && user ? user.id : null;
  const query = useQuery({
    queryKey: walletKeys.virtual(userId ?? ''),
    queryFn: ({ signal }) => fetchVirtualStats(signal),
    enabled: userId !== null && isVirtual,
    staleTime: 30_000,
  });
  return { stats: query.data, isLoading: query.isPending && isVirtual, isError: query.isError, retry: () => void query.refetch() };
}
