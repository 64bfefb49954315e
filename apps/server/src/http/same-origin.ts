// CSRF for the routes a cookie alone authorises (refresh, sign-out, the session read): a request
// another site's page made is refused with 403, whatever SameSite did with the cookie.
import type { FastifyRequest } from 'fastify';
import { GENERIC } from '@versus/domain/messages';
import { AppError } from './errors.ts';

/** 'same-site' is refused too, as the app is served from its API's origin; with neither header it is no browser's, so it passes. */
export function isCrossSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  try {
    const from = new URL(origin);
    // request.host: the Host header, or X-Forwarded-Host from a proxy TRUST_PROXY names; read
    // with the origin's scheme, so an explicit default port (:443) compares equal.
    return from.host !== new URL(`${from.protocol}//${request.host}`).host;
  } catch {
    return true; // 'null' (a sandboxed frame, a privacy redirect) or garbage
  }
}

/** onRequest hook: 403 for a cross-site request. */
export async function refuseCrossSite(request: FastifyRequest): Promise<void> {
  if (isCrossSite(request)) throw new AppError(403, 'cross_site', GENERIC.crossSite);
}
