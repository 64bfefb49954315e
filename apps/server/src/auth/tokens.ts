// Access tokens (short-lived signed JWTs that every feature verifies without a database
// round trip) and refresh tokens (long-lived random secrets, stored only as a hash).
import crypto from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { ACCOUNT_TYPES, ROLES, SESSION, type AccountType, type Role, type Session } from '@versus/domain';
import type { AppContext } from '../context.ts';
import type { AccessClaims, VerifiedAccessToken } from './claims.ts';
import { UUID } from '../http/validation.ts';
import { liveSessionOwner } from './auth.repository.ts';

const ISSUER = 'versus';
const AUDIENCE = 'versus';
const SECRET_NAME = 'auth_jwt_key';

interface CheckedToken {
  sub: string;
  sid: string;
  exp: number;
}

/** The HS256 key (shared by every process through app_secrets) and the tokens it verified in this app, by their exact text. */
interface SigningKey {
  bytes: Uint8Array;
  verified: Map<string, CheckedToken>;
}

const signingKey = (ctx: Pick<AppContext, 'secrets'>): Promise<SigningKey> =>
  ctx.secrets.get(
    SECRET_NAME,
    () => crypto.randomBytes(32).toString('base64url'),
    (value) => ({ bytes: new Uint8Array(Buffer.from(value, 'base64url')), verified: new Map() }),
  );

export async function signAccessToken(
  ctx: Pick<AppContext, 'db' | 'secrets'>,
  claims: AccessClaims & { sessionId: string },
  now = new Date(),
): Promise<Session> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = issuedAt + SESSION.accessTokenTtlSeconds;
  const token = await new SignJWT({ role: claims.role, account_type: claims.accountType, sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign((await signingKey(ctx)).bytes);
  return { access_token: token, token_type: 'bearer', expires_at: expiresAt, expires_in: SESSION.accessTokenTtlSeconds };
}

/** Tokens remembered per key: the HMAC (a WebCrypto job) runs once per token, not per request. */
const VERIFIED_LIMIT = 50_000;

/** The token's subject, session and expiry if its signature and claims check out and it has not expired; else null. */
async function checkToken(key: SigningKey, token: string): Promise<CheckedToken | null> {
  const cache = key.verified;
  const hit = cache.get(token);
  // As jose judges expiry: expired once `exp` is not after the current second.
  if (hit && hit.exp > Math.floor(Date.now() / 1000)) return hit;
  if (hit) cache.delete(token);
  const { payload } = await jwtVerify(token, key.bytes, {
    algorithms: ['HS256'],
    issuer: ISSUER,
    audience: AUDIENCE,
    requiredClaims: ['sub', 'exp'],
  });
  const { sub, role, account_type: accountType, sid, exp } = payload;
  if (
    typeof sub !== 'string' ||
    typeof sid !== 'string' ||
    typeof exp !== 'number' ||
    !ROLES.includes(role as Role) ||
    !ACCOUNT_TYPES.includes(accountType as AccountType) ||
    !UUID.test(sub) ||
    !UUID.test(sid)
  ) {
    return null;
  }
  if (cache.size >= VERIFIED_LIMIT) cache.delete(cache.keys().next().value!);
  const checked = { sub, sid, exp };
  cache.set(token, checked);
  return checked;
}

/** Null for a bad token or an ended session; role and account type are the user's now, so a demotion takes effect at once. */
export async function verifyAccessTokenDetailed(
  ctx: Pick<AppContext, 'db' | 'secrets'>,
  token: string,
): Promise<VerifiedAccessToken | null> {
  if (!token) return null;
  try {
    const checked = await checkToken(await signingKey(ctx), token);
    if (!checked) return null;
    const owner = await liveSessionOwner(ctx.db, checked.sub, checked.sid);
    if (!owner) return null;
    return { userId: checked.sub, role: owner.role, accountType: owner.account_type, sessionId: checked.sid, expiresAt: checked.exp };
  } catch (error) {
    // Forged, expired or garbled tokens are an answer ("not signed in"), not a failure.
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
}

/** A new refresh token: 32 random bytes, sent to the browser; only its hash is stored. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, hash: hashRefreshToken(token) };
}

export function hashRefreshToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}
