import { GENERIC } from './messages.ts';

/** The shape of a failure as the client sees it: an HTTP-ish status, an optional code, a text. */
export interface FailureLike {
  status?: number;
  code?: string;
  message?: string;
  name?: string;
}

export type FailureKind = 'network' | 'notFound' | 'functionMissing' | 'timeout' | 'permission' | 'other';

/** SPEC §8 generic mapping: which row of the table a failure falls under. */
export function classifyFailure(error: FailureLike): FailureKind {
  const message = (error.message ?? '').toLowerCase();
  if (error.code === 'PGRST202') return 'functionMissing';
  if (
    error.name === 'AbortError' ||
    error.name === 'TimeoutError' ||
    error.status === 408 ||
    message.includes('timeout') ||
    message.includes('timed out')
  ) {
    return 'timeout';
  }
  if (
    error.name === 'NetworkError' ||
    message.includes('failed to fetch') ||
    message.includes('network') ||
    message.includes('load failed')
  ) {
    return 'network';
  }
  if (error.status === 401 || error.status === 403 || error.code === '42501' || message.includes('permission')) {
    return 'permission';
  }
  if (error.status === 404 || message.includes('not found')) return 'notFound';
  return 'other';
}

export function userMessageFor(error: FailureLike): string {
  return GENERIC[classifyFailure(error)];
}

/** The error body every API failure answers with. */
export interface ApiErrorBody {
  error: { code: string; message: string; field?: string };
}
