// Web Push for this device; throws an Error with a readable message the caller toasts when push
// cannot be had.
import { z } from 'zod';
import { PUSH } from '@versus/domain';
import { api, authedSend } from '../../api/client.ts';
import { errorFrom } from '../../api/http.ts';

const PUBLIC_KEY_PATH = '/api/notifications/push/public-key';
const SUBSCRIPTIONS_PATH = '/api/notifications/push/subscriptions';

const publicKeySchema = z.object({ publicKey: z.string().min(1) });
const subscribedSchema = z.object({ id: z.string() });

/** What push needs from the browser; injected in tests. */
export interface PushBrowser {
  /** The page's service worker registration, or null when none controls this page (dev server). */
  registration(): Promise<Pick<ServiceWorkerRegistration, 'pushManager'> | null>;
  permission(): NotificationPermission;
  requestPermission(): Promise<NotificationPermission>;
  userAgent: string;
}

export interface PushServer {
  publicKey(): Promise<string>;
  subscribe(body: PushSubscriptionJSON & { userAgent: string }): Promise<void>;
  unsubscribe(endpoint: string): Promise<void>;
}

export function browserPush(): PushBrowser | null {
  if (typeof window === 'undefined' || !('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    return null;
  }
  return {
    registration: async () => (await navigator.serviceWorker.getRegistration()) ?? null,
    permission: () => Notification.permission,
    requestPermission: () => Notification.requestPermission(),
    userAgent: navigator.userAgent,
  };
}

export const serverPush: PushServer = {
  async publicKey() {
    return (await api.get(PUBLIC_KEY_PATH, publicKeySchema)).publicKey;
  },
  async subscribe(body) {
    await api.post(SUBSCRIPTIONS_PATH, body, subscribedSchema);
  },
  async unsubscribe(endpoint) {
    const response = await authedSend(SUBSCRIPTIONS_PATH, { method: 'DELETE', body: { endpoint } });
    // Already gone on the server is what we wanted.
    if (!response.ok && response.status !== 404) throw await errorFrom(response);
  },
};

/** base64url (the server's key) → the bytes PushManager.subscribe wants. */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a) return false;
  const left = new Uint8Array(a);
  return left.length === b.length && left.every((byte, i) => byte === b[i]);
}

/** Registers even when already subscribed: the server upserts by endpoint, so the device moves to who signed in. */
export async function enablePush(browser: PushBrowser | null = browserPush(), server: PushServer = serverPush): Promise<string> {
  if (!browser) throw new Error(PUSH.unsupported);
  const registration = await browser.registration();
  if (!registration) throw new Error(PUSH.unsupported);
  let permission = browser.permission();
  if (permission === 'default') permission = await browser.requestPermission();
  if (permission !== 'granted') throw new Error(PUSH.blocked);

  const key = base64UrlToBytes(await server.publicKey());
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    // Made under another server key (a new database): the push service would refuse our pushes.
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await server.subscribe({ ...subscription.toJSON(), userAgent: browser.userAgent });
  return subscription.endpoint;
}

/** Stops push on this device: the server forgets it and the browser drops the subscription. */
export async function disablePush(browser: PushBrowser | null = browserPush(), server: PushServer = serverPush): Promise<void> {
  const registration = await browser?.registration();
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return;
  await server.unsubscribe(subscription.endpoint);
  await subscription.unsubscribe();
}
