import { AUTH } from '@versus/domain';
import { ApiError, errorFrom, parse, send, type RequestOptions, type Schema } from './http.ts';

// The authenticated fetch helper (SPEC §7): the bearer token, and one refresh and retry on 401/403.

export interface AuthHooks {
  /** The in-memory access token, or null when signed out. */
  getToken(): string | null;
  /** Refreshes the session (one refresh at a time); the new token, or null when it failed. */
  refresh(): Promise<string | null>;
  /** The refresh failed after a 401/403: end the session. */
  onExpired(): void;
}

let hooks: AuthHooks = {
  getToken: () => null,
  refresh: async () => null,
  onExpired: () => undefined,
};

/** The auth store plugs itself in here at start. */
export function setAuthHooks(next: AuthHooks): void {
  hooks = next;
}

const isAuthFailure = (status: number) => status === 401 || status === 403;

/** fetch with the bearer token and the refresh-once-and-retry rule. Error answers other than auth are returned as is. */
export async function authedSend(path: string, options: Omit<RequestOptions, 'token'> = {}): Promise<Response> {
  const token = hooks.getToken();
  const first = await send(path, { ...options, token });
  if (!isAuthFailure(first.status)) return first;

  const fresh = await hooks.refresh();
  if (!fresh) {
    hooks.onExpired();
    throw new ApiError(401, 'session_expired', AUTH.authFailedExpired);
  }
  const second = await send(path, { ...options, token: fresh });
  if (second.status === 401) {
    hooks.onExpired();
    throw new ApiError(401, 'session_expired', AUTH.authFailedExpired);
  }
  // A 403 with a fresh token is a real "not allowed", not an expired session.
  return second;
}

async function call<T>(path: string, schema: Schema<T>, options: Omit<RequestOptions, 'token'>): Promise<T> {
  const response = await authedSend(path, options);
  if (!response.ok) throw await errorFrom(response);
  return parse(response, schema);
}

/** Typed calls to the Versus API as the signed-in user. Every failure is an ApiError. */
export const api = {
  get: <T>(path: string, schema: Schema<T>, options: Pick<RequestOptions, 'signal' | 'timeoutMs'> = {}) =>
    call(path, schema, { ...options, method: 'GET' }),
  post: <T>(
    path: string,
    body: unknown,
    schema: Schema<T>,
    options: Pick<RequestOptions, 'signal' | 'timeoutMs' | 'idempotencyKey'> = {},
  ) => call(path, schema, { ...options, method: 'POST', body }),
  patch: <T>(path: string, body: unknown, schema: Schema<T>, options: Pick<RequestOptions, 'signal' | 'timeoutMs'> = {}) =>
    call(path, schema, { ...options, method: 'PATCH', body }),
  put: <T>(path: string, body: unknown, schema: Schema<T>, options: Pick<RequestOptions, 'signal' | 'timeoutMs'> = {}) =>
    call(path, schema, { ...options, method: 'PUT', body }),
  async delete(path: string, options: Pick<RequestOptions, 'signal' | 'timeoutMs'> = {}): Promise<void> {
    const response = await authedSend(path, { ...options, method: 'DELETE' });
    if (!response.ok) throw await errorFrom(response);
  },
};
