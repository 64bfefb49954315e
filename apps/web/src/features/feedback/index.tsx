import { lazy, Suspense } from 'react';
import { useAuth } from '../auth/use-auth.ts';

// Signed-in only, so its code is not part of a visitor's first page.
const FeedbackWidget = lazy(() => import('./FeedbackWidget.tsx').then((m) => ({ default: m.FeedbackWidget })));

/** The beta chat widget on every screen once signed in (SPEC §2 Always-present overlays). */
export function BetaFeedback() {
  const { isAuthenticated } = useAuth();
  if (!isAuthenticated) return null;
  return (
    <Suspense fallback={null}>
      <FeedbackWidget />
    </Suspense>
  );
}
