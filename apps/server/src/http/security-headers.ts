// Security headers on every response; docs/security.md explains each directive.
import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/** One year; sent only over HTTPS, where a browser honours it. */
export const HSTS = 'max-age=31536000; includeSubDomains';

export const CSP_DIRECTIVES = {
  'default-src': ["'self'"],
  // Our bundles, the service worker and its imported scripts: all files from this origin.
  'script-src': ["'self'"],
  // Sonner and Radix's scroll lock insert <style> elements at run time (no nonce hook); CSS
  // cannot run script, and React's style props are set through the CSSOM, which CSP leaves alone.
  'style-src': ["'self'", "'unsafe-inline'"],
  // Avatars may be any http(s) address; uploads preview from blob: URLs.
  'img-src': ["'self'", 'data:', 'blob:', 'https:', 'http:'],
  'font-src': ["'self'", 'data:'],
  // The API and the /realtime WebSocket are same-origin ('self' covers ws:/wss: to this host).
  'connect-src': ["'self'"],
  'worker-src': ["'self'"],
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  // A page with stake and accept buttons must never sit in someone else's frame.
  'frame-ancestors': ["'none'"],
};

export async function securityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    // Same-origin keeps the Origin header on our own POSTs (the CSRF check reads it) and sends
    // no address (a match id, a private code) to other sites.
    referrerPolicy: { policy: 'same-origin' },
    // For browsers older than frame-ancestors.
    xFrameOptions: { action: 'deny' },
    // Set below, only when the request came over HTTPS.
    strictTransportSecurity: false,
    // Avatars are other sites' images: requiring CORP from them would blank them.
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    // request.protocol reads X-Forwarded-Proto only from the proxies TRUST_PROXY names.
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
}
