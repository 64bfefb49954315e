import { useRouteError } from 'react-router';
import { ErrorFallback } from './ErrorBoundary.tsx';
import { boundaryErrorKind } from './error-retry.ts';

/** The last line of defence: an error in the shell itself. Only Reload Page can help here. */
export function RouteError() {
  const error = useRouteError();
  console.error('The app shell failed', error);
  const normalised = error instanceof Error ? error : new Error(typeof error === 'string' ? error : 'Unexpected application error');
  return (
    <main className="min-h-dvh">
      <ErrorFallback error={normalised} kind={boundaryErrorKind(error)} retryCount={0} onTryAgain={() => window.location.reload()} />
    </main>
  );
}
