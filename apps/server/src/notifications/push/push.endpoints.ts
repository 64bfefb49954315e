// Only the push services' https hosts and PUSH_ENDPOINT_ORIGINS: an endpoint is a URL the user hands us, and
// any URL would let anyone make the server POST into its own network.
import { z } from 'zod';

/** Chrome/Edge (FCM), Firefox (Mozilla autopush), Windows (WNS), Safari (Apple). */
const PUSH_SERVICE_HOSTS = ['fcm.googleapis.com', 'push.services.mozilla.com', 'notify.windows.com', 'push.apple.com'];

export interface EndpointPolicy {
  /** Extra origins ("http://127.0.0.1:4100") allowed besides the known push services. */
  extraOrigins: readonly string[];
}

export function endpointPolicyFromEnv(env: NodeJS.ProcessEnv = process.env): EndpointPolicy {
  const extraOrigins = (env.PUSH_ENDPOINT_ORIGINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => new URL(s).origin);
  return { extraOrigins };
}

/** C0 controls and DEL: never in a push service's address (and PostgreSQL text cannot hold a NUL). */
// eslint-disable-next-line no-control-regex -- control characters are what this refuses.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export function isAllowedEndpoint(endpoint: string, policy: EndpointPolicy): boolean {
  // The URL parser would quietly encode them; the endpoint is stored and POSTed to as given.
  if (CONTROL_CHARACTERS.test(endpoint)) return false;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (policy.extraOrigins.includes(url.origin)) return true;
  if (url.protocol !== 'https:' || (url.port && url.port !== '443')) return false;
  const host = url.hostname.toLowerCase();
  return PUSH_SERVICE_HOSTS.some((known) => host === known || host.endsWith(`.${known}`));
}

const base64url = (bytes: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/)
    .refine((s) => Buffer.from(s, 'base64url').length === bytes);

/** The browser's keys (PushSubscription.toJSON().keys): a P-256 point and a 16-byte secret. */
export const pushKeysSchema = z.object({
  p256dh: base64url(65).refine((s) => Buffer.from(s, 'base64url')[0] === 0x04),
  auth: base64url(16),
});
