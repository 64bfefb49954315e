import { SHELL, classifyFailure } from '@versus/domain';

// The error boundary's retry policy (SPEC §4, §8, §9), pure so it is tested on its own.

export type BoundaryErrorKind = 'network' | 'other';

export function boundaryErrorKind(error: unknown): BoundaryErrorKind {
  if (!(error instanceof Error)) return 'other';
  const message = error.message.toLowerCase();
  // A lazy screen whose chunk could not be fetched is a connection problem too.
  if (
    message.includes('dynamically imported module') ||
    message.includes('importing a module script failed') ||
    error.name === 'ChunkLoadError'
  ) {
    return 'network';
  }
  const status = (error as { status?: unknown }).status;
  const code = (error as { code?: unknown }).code;
  // The API client's own marks for "no answer arrived".
  if (code === 'network' || code === 'timeout') return 'network';
  const kind = classifyFailure({
    message: error.message,
    name: error.name,
    status: typeof status === 'number' ? status : undefined,
    code: typeof code === 'string' ? code : undefined,
  });
  return kind === 'network' || kind === 'timeout' ? 'network' : 'other';
}

/** Milliseconds until the next automatic retry, or null when there is none. */
export function autoRetryDelayMs(kind: BoundaryErrorKind, retryCount: number): number | null {
  if (kind !== 'network' || retryCount >= SHELL.errorRetryCap) return null;
  return SHELL.errorRetryBaseMs * (retryCount + 1);
}

/** Whether Try Again is enabled. */
export function canTryAgain(kind: BoundaryErrorKind, retryCount: number): boolean {
  return kind !== 'network' || retryCount < SHELL.errorRetryCap;
}
