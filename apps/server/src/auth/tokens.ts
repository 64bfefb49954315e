// Access tokens (short-lived signed JWTs that every feature verifies without a database
// round trip) and refresh tokens (long-lived random secrets, stored only as a hash).
import crypto from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { ACCOUNT_TYPES, ROLES, SESSION, type AccountType, type Role, type Session } from '@versus/domain';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/database.ts';
import { getOrCreateSecret } from '../db/secrets.ts';
import { UUID } from '../http/validation.ts';
import { liveSessionOwner } from './auth.repository.ts';

export interface AccessClaims {
  userId: string;
  role: Role;
  accountType: AccountType;
}

/** The claims plus what the session endpoint and sign-out need. */
export interface VerifiedAccessToken extends AccessClaims {
  /** The refresh-token family this access token was issued from. */
  sessionId: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

const ISSUER = 'versus';
const AUDIENCE = 'versus';
const SECRET_NAME = 'auth_jwt_key';

// One key per database: every server process on it reads the same row.
const keys = new WeakMap<Database, Promise<Uint8Array>>();

function signingKey(db: Database): Promise<Uint8Array> {
  let key = keys.get(db);
  if (!key) {
    key = getOrCreateSecret(db, SECRET_NAME, () => crypto.randomBytes(32).toString('base64url')).then(
      (value) => new Uint8Array(Buffer.from(value, 'base64url')),
    );
    // A failed read (database down) is retried by the next request instead of being cached.
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

export async function signAccessToken(
  ctx: AppContext,
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
    .sign(await signingKey(ctx.db));
  return { access_token: token, token_type: 'bearer', expires_at: expiresAt, expires_in: SESSION.accessTokenTtlSeconds };
}

/**
 * Verifies a bearer access token; null when it is missing, forged, malformed or expired, or
 * when its user is gone or its session was ended (signed out, or a replayed refresh token).
 * The role and account type are the user's current ones, not the token's: a demoted admin's
 * token stops opening admin routes at once.
 */
export async function verifyAccessToken(ctx: AppContext, token: string): Promise<AccessClaims | null> {
  const verified = await verifyAccessTokenDetailed(ctx, token);
  return verified && { userId: verified.userId, role: verified.role, accountType: verified.accountType };
}

export async function verifyAccessTokenDetailed(ctx: AppContext, token: string): Promise<VerifiedAccessToken | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, await signingKey(ctx.db), {
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
      !ACCOUNT_TYPES.includes(accountType as AccountType)
    ) {
      return null;
    }
    if (!UUID.test(sub) || !UUID.test(sid)) return null;
    const owner = await liveSessionOwner(ctx.db, sub, sid);
    if (!owner) return null;
    return { userId: sub, role: owner.role, accountType: owner.account_type, sessionId: sid, expiresAt: exp };
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
