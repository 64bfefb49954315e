import { useEffect, useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from 'sonner';
import { SHELL } from '@versus/domain';
import { ApiError } from '../api/index.ts';
import { AuthDialogsProvider, useAuthDialogs } from '../features/auth/auth-dialogs.tsx';
import { freshToken, startSession } from '../features/auth/session-store.ts';
import { RealtimeClient, RealtimeProvider } from '../realtime/index.ts';
import { useAuth } from '../features/auth/use-auth.ts';
import { startConnectivity } from './connectivity.ts';
import { hideSplash, splashHideAt } from './splash.ts';
import { applyStandaloneMode } from './standalone.ts';
import { applyTheme, resolveTheme, useThemeChoice } from './theme.ts';

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: false,
        // Client errors will not change on a retry; network trouble may.
        retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
    },
  });
}

/** Everything the screens rely on: data cache, session, auth dialogs, theme, splash, toasts. */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [realtime] = useState(() => new RealtimeClient({ getToken: freshToken, onError: (error) => console.warn('Realtime', error) }));
  useEffect(() => {
    void startSession();
    const stopConnectivity = startConnectivity();
    const stopStandalone = applyStandaloneMode();
    return () => {
      stopConnectivity();
      stopStandalone();
    };
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      <AuthDialogsProvider>
        <ThemeSync />
        <SplashController />
        <SessionCacheReset client={queryClient} />
        <SignedInRealtime client={realtime}>{children}</SignedInRealtime>
        <Toaster
          position="top-center"
          closeButton
          theme="dark"
          duration={SHELL.toastDurationMs}
          toastOptions={{ className: 'font-sans' }}
          style={{ zIndex: 10000001 }}
        />
      </AuthDialogsProvider>
    </QueryClientProvider>
  );
}

/** Dark or light as chosen; retro while a virtual account is signed in (SPEC §4 Account type). */
function ThemeSync() {
  const choice = useThemeChoice();
  const { user, isAuthenticated } = useAuth();
  const accountType = isAuthenticated && user ? user.accountType : null;
  useEffect(() => {
    applyTheme(resolveTheme(choice, accountType), accountType === 'virtual');
  }, [choice, accountType]);
  return null;
}

/** SPEC §2 Splash: at least 2000 ms, fonts ready + 500 ms, then 200 ms; hidden at once for an auth modal. */
function SplashController() {
  const { mode } = useAuthDialogs();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    void document.fonts.ready.then(() => {
      if (cancelled) return;
      const at = splashHideAt({ startedAt: 0, fontsReadyAt: performance.now() });
      timer = setTimeout(hideSplash, Math.max(0, at - performance.now()));
    });
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, []);
  useEffect(() => {
    if (mode !== null) hideSplash();
  }, [mode]);
  return null;
}

/** One socket per tab, connected while signed in (sign-out disconnects it before anyone else signs in). */
function SignedInRealtime({ client, children }: { client: RealtimeClient; children: ReactNode }) {
  const { isAuthenticated } = useAuth();
  return (
    <RealtimeProvider client={client} enabled={isAuthenticated}>
      {children}
    </RealtimeProvider>
  );
}

/** One player's cached data must never show to the next one on this device. */
function SessionCacheReset({ client }: { client: QueryClient }) {
  const { user } = useAuth();
  const userId = user?.id ?? null;
  useEffect(() => {
    if (userId === null) client.clear();
  }, [client, userId]);
  return null;
}
