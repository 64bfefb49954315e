import { useSyncExternalStore } from 'react';
import type { User } from '@versus/domain';
import { authStore, clearAuthError, signIn, signOut, signUp, updateUser, type AuthStatus } from './session-store.ts';

export interface Auth {
  status: AuthStatus;
  user: User | null;
  error: string | null;
  isLoading: boolean;
  isAuthenticated: boolean;
  isAdmin: boolean;
  /** A virtual (demo) account is signed in. */
  isVirtual: boolean;
  signIn: typeof signIn;
  signUp: typeof signUp;
  signOut: typeof signOut;
  updateUser: typeof updateUser;
  clearError: typeof clearAuthError;
}

const actions = { signIn, signUp, signOut, updateUser, clearError: clearAuthError };

/** The auth state (SPEC §3 Auth state: isAuthenticated, isLoading, error) and its actions. */
export function useAuth(): Auth {
  const state = useSyncExternalStore(authStore.subscribe, authStore.getState, authStore.getState);
  return {
    ...state,
    ...actions,
    isLoading: state.status === 'loading',
    isAuthenticated: state.status === 'authenticated',
    isAdmin: state.user?.role === 'admin',
    isVirtual: state.status === 'authenticated' && state.user?.accountType === 'virtual',
  };
}
