import { useState } from 'react';
import { toast } from 'sonner';
import type { AccountType } from '@versus/domain';
import { messageFor } from './session-store.ts';
import { useAuth } from './use-auth.ts';

/** Switching between a real and a virtual account (SPEC §4), with its toasts; the theme follows the account. */
export function useAccountSwitch(): { switching: boolean; switchTo: (accountType: AccountType) => Promise<void> } {
  const { updateUser } = useAuth();
  const [switching, setSwitching] = useState(false);
  const switchTo = async (accountType: AccountType) => {
    setSwitching(true);
    try {
      await updateUser({ account_type: accountType });
      toast.success(accountType === 'virtual' ? 'Virtual mode on' : 'Real mode on', {
        description: accountType === 'virtual' ? 'Play risk-free with VTokens. The retro theme is on.' : 'Back to credits and real stakes.',
      });
    } catch (failure) {
      toast.error('Could not switch account type', { description: messageFor(failure) });
    } finally {
      setSwitching(false);
    }
  };
  return { switching, switchTo };
}
