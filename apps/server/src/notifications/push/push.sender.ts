// web-push builds the request (RFC 8291, RFC 8292) and fetch sends it, so a test can stand plain HTTP in for
// the push service; the endpoint allowlist guards production.
import webpush from 'web-push';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushMessage {
  /** JSON text; encrypted for the one subscription. */
  payload: string;
  /** Seconds the push service keeps the message for an offline device. */
  ttlSeconds: number;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
}

export type SendResult =
  | { ok: true; status: number }
  /** gone: the push service no longer knows the subscription (404/410); delete it. */
  | { ok: false; status: number | null; gone: boolean; error: string };

const SEND_TIMEOUT_MS = 10_000;

export async function sendPush(target: PushTarget, message: PushMessage, vapid: VapidKeys & { subject: string }): Promise<SendResult> {
  let details: ReturnType<typeof webpush.generateRequestDetails>;
  try {
    details = webpush.generateRequestDetails(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      message.payload,
      {
        vapidDetails: vapid,
        TTL: message.ttlSeconds,
        urgency: message.urgency,
        contentEncoding: 'aes128gcm',
      },
    );
  } catch (error) {
    // Keys the encryption cannot use: the subscription is unusable.
    return { ok: false, status: null, gone: true, error: (error as Error).message };
  }
  try {
    const response = await fetch(details.endpoint, {
      method: details.method,
      headers: details.headers as Record<string, string>,
      body: details.body ?? undefined,
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      redirect: 'error',
    });
    // The push service's answer body is not ours to keep; drain it so the connection is reused.
    await response.arrayBuffer().catch(() => undefined);
    if (response.ok) return { ok: true, status: response.status };
    return {
      ok: false,
      status: response.status,
      gone: response.status === 404 || response.status === 410,
      error: `push service answered ${response.status}`,
    };
  } catch (error) {
    return { ok: false, status: null, gone: false, error: (error as Error).message };
  }
}

export const generateVapidKeys = (): VapidKeys => webpush.generateVAPIDKeys();
