import { useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../auth/use-auth.ts';
import { useBalance, walletKeys, type WalletFigures } from '../wallet/use-balance.ts';
import { fetchBalance, figuresOf } from '../wallet/wallet.api.ts';
import { WALLET_KEY } from './challenges.api.ts';

/** What the player can stake now (the wallet's figures for the active mode, minor units). */
export function useStakeBalance(): { data: WalletFigures | undefined; isError: boolean } {
  const balance = useBalance();
  return { data: balance.figures ?? undefined, isError: balance.error !== null };
}

/** Reads the balance from the server now (not from the cache) and refreshes everything showing it. */
export function useBalanceActions() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return {
    readNow: async (): Promise<WalletFigures> => {
      if (!user) throw new Error('Sign in first');
      const view = await queryClient.fetchQuery({
        queryKey: walletKeys.balance(user.id, user.accountType, user.role),
        queryFn: ({ signal }) => fetchBalance(signal),
        staleTime: 0,
      });
      return figuresOf(view);
    },
    /** After money moved: the header, the wallet page (balance and history) and this feature refetch. */
    refresh: (): Promise<void> => queryClient.invalidateQueries({ queryKey: WALLET_KEY }),
  };
}
