import { lazy, Suspense } from 'react';
import { useAuth } from '../auth/use-auth.ts';
import type { FeedbackPlacement } from './FeedbackWidget.tsx';

// Signed-in only, so its code is not part of a visitor's first page.
const FeedbackWidget = lazy(() => import('./FeedbackWidget.tsx').then((m) => ({ default: m.FeedbackWidget })));

/** The beta chat widget once signed in (SPEC §2); `docked` in a match screen, where floating would cover the board. */
export function BetaFeedback({ placement = 'floating' }: { placement?: FeedbackPlacement }) {
  const { isAuthenticated } = useAuth();
  if (!isAuthenticated) return null;
  return (
    <Suspense fallback={null}>
      <FeedbackWidget placement={placement} />
    </Suspense>
  );
}
