import { toast } from 'sonner';
import {
  AUTH,
  SESSION,
  SHELL,
  userMessageFor,
  type AccountType,
  type AuthResponse,
  type LoginForm,
  type RegistrationForm,
  type UpdateUserRequest,
  type User,
} from '@versus/domain';
import { ApiError, authApi, setAuthHooks } from '../../api/index.ts';

// The session, held outside React so the fetch helper, the realtime socket and the UI read the
// same one. The access token lives in memory only; the refresh token is an httpOnly cookie.

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

export interface AuthState {
  status: AuthStatus;
  user: User | null;
  /** The last auth failure as a user-facing text (SPEC §3 "Auth state"). */
  error: string | null;
}

const ACCOUNT_TYPE_KEY = 'versus:accountType';
const SIGNED_OUT_MESSAGE = 'signed-out';

let state: AuthState = { status: 'loading', user: null, error: null };
let accessToken: string | null = null;
/** When the access token expires, in ms since the epoch. */
let accessExpiresAt = 0;
let refreshTimer: ReturnType<typeof setInterval> | undefined;
let refreshInFlight: Promise<string | null> | null = null;
let started: Promise<void> | null = null;
const listeners = new Set<() => void>();
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('versus:auth');

function setState(next: Partial<AuthState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

export const authStore = {
  getState: (): AuthState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getToken: (): string | null => accessToken,
};

function accept(response: AuthResponse): void {
  accessToken = response.session.access_token;
  accessExpiresAt = response.session.expires_at * 1000;
  rememberAccountType(response.user.accountType);
  setState({ status: 'authenticated', user: response.user, error: null });
  scheduleProactiveRefresh();
}

function clear(error: string | null = null): void {
  accessToken = null;
  accessExpiresAt = 0;
  if (refreshTimer !== undefined) clearInterval(refreshTimer);
  refreshTimer = undefined;
  setState({ status: 'unauthenticated', user: null, error });
}

function scheduleProactiveRefresh(): void {
  if (refreshTimer !== undefined) clearInterval(refreshTimer);
  // A failed tick because of a network blip keeps the session; the next call or tick tries again.
  refreshTimer = setInterval(() => void refreshSession(), SESSION.proactiveRefreshMs);
}

/** A reused refresh token revokes the whole family, so Web Locks keep two tabs from refreshing at once. */
function withRefreshLock<T>(work: () => Promise<T>): Promise<T> {
  if (typeof navigator !== 'undefined' && navigator.locks) {
    return navigator.locks.request('versus:refresh', work) as Promise<T>;
  }
  return work();
}

/** One refresh at a time; resolves the new access token, or null when the session is over. */
export function refreshSession(): Promise<string | null> {
  refreshInFlight ??= withRefreshLock(() => authApi.refresh())
    .then((response) => {
      accept(response);
      return response.session.access_token;
    })
    .catch((error: unknown) => {
      if (error instanceof ApiError && (error.status === 401 || error.status === 400)) {
        expireSession();
        return null;
      }
      // Offline or server trouble: keep the session for now.
      console.warn('Session refresh failed', error);
      return null;
    })
    .finally(() => {
      refreshInFlight = null;
    });
  return refreshInFlight;
}

/** The refresh token is gone or refused (SPEC §8 Session and auth): clear, tell, reload after 2 s. */
export function expireSession(): void {
  const wasSignedIn = state.status === 'authenticated';
  clear(AUTH.refreshFailed);
  if (!wasSignedIn) return;
  toast.error(AUTH.sessionExpiredToast, {
    duration: SHELL.toastDurationMs,
    action: { label: 'Refresh Page', onClick: () => window.location.reload() },
  });
  setTimeout(() => window.location.reload(), 2000);
}

/** A token good for at least another minute, for long-lived users such as the socket; null when signed out. */
export async function freshToken(): Promise<string | null> {
  if (state.status !== 'authenticated' || !accessToken) return null;
  if (accessExpiresAt - Date.now() > 60_000) return accessToken;
  return refreshSession();
}

/** Looks for a session behind the refresh cookie; runs once per page. */
export function startSession(): Promise<void> {
  started ??= withRefreshLock(() => authApi.session())
    .then((response) => {
      if (response) accept(response);
      else clear();
    })
    .catch((error: unknown) => {
      console.warn('Session check failed', error);
      clear(messageFor(error));
    });
  return started;
}

export async function signIn(form: LoginForm): Promise<User> {
  try {
    const response = await authApi.signIn({ email: form.email.trim(), password: form.password, account_type: form.accountType });
    accept(response);
    return response.user;
  } catch (error) {
    throw failed(error, AUTH.loginNoUser);
  }
}

export async function signUp(form: RegistrationForm): Promise<User> {
  try {
    const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const { toSignUpRequest } = await import('@versus/domain/auth');
    const response = await authApi.signUp(toSignUpRequest(form, timezone));
    accept(response);
    return response.user;
  } catch (error) {
    throw failed(error, AUTH.registrationNoUser);
  }
}

/** Records a sign-in/up failure as the auth error; a success without a user reads "... No user returned". */
function failed(error: unknown, noUserMessage: string): ApiError {
  const apiError =
    error instanceof ApiError
      ? error.code === 'bad_response'
        ? new ApiError(error.status, 'no_user', noUserMessage)
        : error
      : new ApiError(0, 'other', messageFor(error));
  setState({ error: messageFor(apiError) });
  return apiError;
}

export async function signOut(): Promise<void> {
  const token = accessToken;
  clear();
  channel?.postMessage(SIGNED_OUT_MESSAGE);
  try {
    await authApi.signOut(token);
  } catch (error) {
    // Locally signed out either way; the cookie expires on its own.
    console.warn('Sign-out request failed', error);
  }
}

/** PATCH the signed-in user (account type switch, username, avatar). */
export async function updateUser(patch: UpdateUserRequest): Promise<User> {
  const token = accessToken ?? (await refreshSession());
  if (!token) throw new ApiError(401, 'session_expired', AUTH.authFailedExpired);
  const response = await authApi.updateUser(token, patch);
  if (response.session) {
    accessToken = response.session.access_token;
    accessExpiresAt = response.session.expires_at * 1000;
  }
  rememberAccountType(response.user.accountType);
  setState({ user: response.user });
  return response.user;
}

export function clearAuthError(): void {
  if (state.error !== null) setState({ error: null });
}

/** The account type last used on this device (SPEC §4: stored in the profile and locally). */
export function lastAccountType(): AccountType | null {
  try {
    const value = localStorage.getItem(ACCOUNT_TYPE_KEY);
    return value === 'real' || value === 'virtual' ? value : null;
  } catch (error) {
    console.warn('Local storage unavailable', error);
    return null;
  }
}

function rememberAccountType(type: AccountType): void {
  try {
    localStorage.setItem(ACCOUNT_TYPE_KEY, type);
  } catch (error) {
    console.warn('Local storage unavailable', error);
  }
}

/** The text to show for an auth failure (SPEC §8 Session and auth, then the generic mapping). */
export function messageFor(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.message.includes('Signups not allowed')) return AUTH.signupsDisabled;
    // No answer: the fetch layer already wrote the SPEC text (network or timeout).
    if (error.code === 'no_user' || error.status === 0) return error.message;
    if (error.status >= 400 && error.status < 500 && error.code !== 'bad_response') return error.message;
    return userMessageFor(error);
  }
  if (error instanceof Error) return userMessageFor(error);
  return userMessageFor({ message: String(error) });
}

// Another tab signed out: so does this one.
channel?.addEventListener('message', (event: MessageEvent<unknown>) => {
  if (event.data === SIGNED_OUT_MESSAGE && state.status === 'authenticated') clear();
});

setAuthHooks({
  getToken: () => accessToken,
  refresh: refreshSession,
  onExpired: expireSession,
});
