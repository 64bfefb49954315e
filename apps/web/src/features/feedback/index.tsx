import { lazy, Suspense } from 'react';
import { useAuth } from '../auth/use-auth.ts';
import type { FeedbackPlacement } from './FeedbackWidget.tsx';

// Signed-in only, so its code is not part of a visitor's first page.
const FeedbackWidget = lazy(() => import('./FeedbackWidget.tsx').then((m) => ({ default: m.FeedbackWidget })));

/**
 * The beta chat widget on every screen once signed in (SPEC §2 Always-present overlays): floating
 * in the corner on a wide screen, in the header on a phone (`header`), or `docked` in a match
 * screen's controls (a floating one would cover the board).
 */
export function BetaFeedback({ placement = 'floating' }: { placement?: FeedbackPlacement }) {
  const { isAuthenticated } = useAuth();
  if (!isAuthenticated) return null;
  return (
    <Suspense fallback={null}>
      <FeedbackWidget placement={placement} />
    </Suspense>
  );
}
