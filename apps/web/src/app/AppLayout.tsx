import { lazy, Suspense, useEffect, useLayoutEffect, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigate, useNavigationType } from 'react-router';
import { SHELL, TAGLINE } from '@versus/domain';
import { preloadAuthModals } from '../features/auth/auth-dialogs.tsx';
import { useAuth } from '../features/auth/use-auth.ts';
import { InstallPrompt } from '../features/pwa/index.ts';
import { BetaFeedback } from '../features/feedback/index.tsx';
import { BottomBar } from './BottomBar.tsx';
import { DEFAULT_TITLE } from './document-title.ts';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { Header } from './Header.tsx';
import { nextHistory } from './history.ts';
import { RouteLoading } from './Loading.tsx';
import { LogoMark } from './Logo.tsx';
import { OfflineBadge, OfflineBanner } from './Offline.tsx';
import { likelyNext, pages } from './pages.ts';
import { isStandalone } from './standalone.ts';

// Signed-in only, so its code is not part of a visitor's first page.
const MatchMonitor = lazy(() => import('../features/match-monitor/MatchMonitor.tsx'));

/** The frame around every screen: header, content, footer, mobile bottom bar, offline signs. */
export function AppLayout() {
  const location = useLocation();
  const signedIn = Boolean(useAuth().user);
  const standalone = useStandaloneHistory();
  usePreloading(location.pathname);
  // Layout effects run before the screens' effects, so a screen's own title wins.
  useLayoutEffect(() => {
    document.title = DEFAULT_TITLE;
  }, [location.pathname]);
  return (
    <div className="relative z-[2] flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-[100] rounded-lg bg-accent-solid px-4 py-2 font-bold text-accent-fg focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <Header standalone={standalone} />
      <OfflineBanner />
      <main id="main" tabIndex={-1} className="flex-1 pb-[calc(9rem+env(safe-area-inset-bottom))] outline-none md:pb-0">
        <ErrorBoundary resetKey={location.pathname}>
          <Suspense fallback={<RouteLoading />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <Footer />
      <BottomBar />
      <OfflineBadge />
      <InstallPrompt />
      <BetaFeedback />
      {signedIn && (
        <Suspense fallback={null}>
          <MatchMonitor />
        </Suspense>
      )}
      <ScrollRestoration />
    </div>
  );
}

function Footer() {
  return (
    <footer className="hidden border-t border-border/60 md:block">
      {/* Its right end clears the beta chat button floating in the corner. */}
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 py-6 pr-20 pl-8 text-sm text-muted">
        <span className="flex items-center gap-2">
          <LogoMark className="size-6" />
          <span className="font-bold text-fg">Versus</span>
          <span aria-hidden>·</span>
          {TAGLINE}
        </span>
        <span>Beta · Players must be 18 or older · Stakes held in escrow</span>
      </div>
    </footer>
  );
}

/** Installed-app mode: the in-app stack (capped at 50) behind the header's back button. */
function useStandaloneHistory() {
  const location = useLocation();
  const action = useNavigationType();
  const navigate = useNavigate();
  const [enabled] = useState(() => isStandalone());
  const [stack, setStack] = useState<string[]>([]);
  const entry = location.pathname + location.search;
  useEffect(() => {
    if (enabled) setStack((current) => nextHistory(current, action, entry, SHELL.historyCap));
  }, [enabled, action, entry]);
  if (!enabled) return null;
  return { depth: stack.length, onBack: () => navigate(-1) };
}

/** SPEC §2 preloading: likely next screens after 2 s, common pieces after 5 s. */
function usePreloading(pathname: string) {
  const { status } = useAuth();
  const signedIn = status === 'authenticated';
  useEffect(() => {
    if (status === 'loading') return;
    const next = setTimeout(() => {
      for (const id of likelyNext(pathname, signedIn)) pages[id].preload();
      if (!signedIn) preloadAuthModals();
    }, SHELL.preloadRoutesMs);
    const common = setTimeout(() => {
      pages.notFound.preload();
    }, SHELL.preloadCommonMs);
    return () => {
      clearTimeout(next);
      clearTimeout(common);
    };
  }, [pathname, signedIn, status]);
}
