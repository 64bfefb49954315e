import type { AuthResponse, SignInRequest, SignUpRequest, UpdateUserRequest } from '@versus/domain';
import { errorFrom, parse, requestJson, send, type Schema } from './http.ts';

// The auth API (SPEC §7 Auth). The refresh token travels in an httpOnly cookie the browser
// sends by itself; the access token lives in memory only and is passed in where needed.

// The answers' schemas load with the first answer that has a session to check, so a visitor's
// first page (whose session check answers no one) carries no schema code.
const schemas = () => import('./auth-schemas.ts');
const authResponseSchema = () => schemas().then((s) => s.authResponseSchema);
const userResponseSchema = () => schemas().then((s) => s.userResponseSchema);
const userUpdateResponseSchema = () => schemas().then((s) => s.userUpdateResponseSchema);

const NO_SESSION: Schema<null> = { safeParse: () => ({ success: true, data: null }) };

/** GET /api/auth/session answers a session, or nulls when there is none. */
const maybeSessionSchema = (data: unknown): Schema<AuthResponse | null> | Promise<Schema<AuthResponse | null>> =>
  typeof data === 'object' && data !== null && (data as { user?: unknown }).user === null ? NO_SESSION : authResponseSchema();

export const authApi = {
  signUp: (body: SignUpRequest) => requestJson('/api/auth/signup', authResponseSchema, { method: 'POST', body }),
  signIn: (body: SignInRequest) => requestJson('/api/auth/signin', authResponseSchema, { method: 'POST', body }),
  /** The session behind the refresh cookie (rotating it), or null when there is none. */
  session: () => requestJson('/api/auth/session', maybeSessionSchema),
  refresh: () => requestJson('/api/auth/refresh', authResponseSchema, { method: 'POST', body: {} }),
  async signOut(token: string | null): Promise<void> {
    const response = await send('/api/auth/signout', { method: 'POST', body: {}, token });
    // Already signed out on the server is still signed out.
    if (!response.ok && response.status !== 401) throw await errorFrom(response);
  },
  user: (token: string) => requestJson('/api/auth/user', userResponseSchema, { token }),
  async updateUser(token: string, body: UpdateUserRequest) {
    const response = await send('/api/auth/user', { method: 'PATCH', body, token });
    if (!response.ok) throw await errorFrom(response);
    return parse(response, userUpdateResponseSchema);
  },
};
