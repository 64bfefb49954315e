// Who is asking: every request's bearer token is verified once, up front, and features ask
// with requireUser / requireRole / optionalUser.
import type { FastifyRequest } from 'fastify';
import { AUTH, type Role } from '@versus/domain';
import type { App, AppContext } from '../context.ts';
import { forbidden, unauthorized } from '../http/errors.ts';
import type { AccessClaims, VerifiedAccessToken } from './claims.ts';
import { verifyAccessTokenDetailed } from './tokens.ts';

interface RequestAuth {
  /** The bearer token as presented ('' when the Authorization header is not a bearer token). */
  token: string;
  /** Its verified claims; null when forged, malformed or expired. */
  access: VerifiedAccessToken | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    versusAuth: RequestAuth | null;
  }
}

/** Verifies the bearer token of every request (the routes of every feature, whenever registered). */
export function installAuth(app: App, ctx: AppContext): void {
  app.decorateRequest('versusAuth', null);
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request.headers.authorization);
    if (token === null) return;
    request.versusAuth = { token, access: token ? await verifyAccessTokenDetailed(ctx, token) : null };
  });
}

function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : '';
}

/** The signed-in user, or a 401 ("Please sign in to continue.") when the bearer token is missing or invalid. */
export function requireUser(request: FastifyRequest, message: string = AUTH.signInRequired): AccessClaims {
  return requireSession(request, message);
}

/** requireUser plus the session the token belongs to (for the auth routes themselves). */
export function requireSession(request: FastifyRequest, message: string = AUTH.signInRequired): VerifiedAccessToken {
  const access = request.versusAuth?.access;
  if (!access) throw unauthorized(message);
  return access;
}

/** The signed-in user, or null for a visitor (an invalid token also reads as a visitor). */
export function optionalUser(request: FastifyRequest): AccessClaims | null {
  return request.versusAuth?.access ?? null;
}

const ROLE_RANK: Record<Role, number> = { user: 0, promoter: 1, admin: 2 };

/** `role` or above (SPEC §6 counts admins as promoters); 401 when signed out, 403 otherwise. */
export function requireRole(request: FastifyRequest, role: Role): AccessClaims {
  const claims = requireUser(request);
  if (ROLE_RANK[claims.role] < ROLE_RANK[role]) throw forbidden(AUTH.forbidden);
  return claims;
}

/** Route option: refuse visitors before the body is validated, so a visitor always gets 401. */
export async function signedInOnly(request: FastifyRequest): Promise<void> {
  requireUser(request);
}
