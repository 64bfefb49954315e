import {
  authResponseSchema,
  type AuthResponse,
  type SignInRequest,
  type SignUpRequest,
  type UpdateUserRequest,
} from '@versus/domain';
import { errorFrom, parse, requestJson, send, type Schema } from './http.ts';

// The auth API (SPEC §7 Auth). The refresh token travels in an httpOnly cookie the browser
// sends by itself; the access token lives in memory only and is passed in where needed.

/** GET /api/auth/session answers a session, or nulls when there is none. */
const maybeSessionSchema: Schema<AuthResponse | null> = {
  safeParse(data) {
    if (typeof data === 'object' && data !== null && (data as { user?: unknown }).user === null) {
      return { success: true, data: null };
    }
    return authResponseSchema.safeParse(data);
  },
};
const userResponseSchema = authResponseSchema.pick({ user: true });
const userUpdateResponseSchema = authResponseSchema.partial({ session: true });

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
