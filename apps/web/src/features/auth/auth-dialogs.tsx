import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

// The type only: the modals' code stays in its own chunk.
import type { AuthDialogMode } from './AuthModals.tsx';

interface AuthDialogs {
  mode: AuthDialogMode | null;
  openSignIn: () => void;
  openRegister: () => void;
  close: () => void;
}

const AuthDialogsContext = createContext<AuthDialogs | null>(null);

const loadModals = () => import('./AuthModals.tsx');
const AuthModals = lazy(loadModals);
/** Warm the modals' code before the first click. */
export const preloadAuthModals = (): void => {
  loadModals().catch((error: unknown) => console.debug('Preloading the sign-in dialogs failed', error));
};

/** Holds which auth modal is open; Sign In and Register switch between each other. */
export function AuthDialogsProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<AuthDialogMode | null>(null);
  const [everOpened, setEverOpened] = useState(false);
  const open = useCallback((next: AuthDialogMode) => {
    setEverOpened(true);
    setMode(next);
  }, []);
  const value = useMemo<AuthDialogs>(
    () => ({ mode, openSignIn: () => open('signin'), openRegister: () => open('register'), close: () => setMode(null) }),
    [mode, open],
  );
  return (
    <AuthDialogsContext.Provider value={value}>
      {children}
      {everOpened && (
        <Suspense fallback={null}>
          <AuthModals mode={mode} onModeChange={setMode} />
        </Suspense>
      )}
    </AuthDialogsContext.Provider>
  );
}

export function useAuthDialogs(): AuthDialogs {
  const value = useContext(AuthDialogsContext);
  if (!value) throw new Error('useAuthDialogs must be used inside AuthDialogsProvider');
  return value;
}
