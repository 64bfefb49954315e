// A browser's subscription keys, and a local push service that checks VAPID and decrypts each message per
// RFC 8291 (aes128gcm), as a browser would.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BrowserKeys {
  ecdh: crypto.ECDH;
  /** Uncompressed P-256 point, 65 bytes, base64url (PushSubscription.keys.p256dh). */
  p256dh: string;
  /** 16 random bytes, base64url (PushSubscription.keys.auth). */
  auth: string;
}

export function browserKeys(): BrowserKeys {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') };
}

/** RFC 8291 §3.4 and RFC 8188 §2: one aes128gcm record, decrypted with the browser's keys. */
export function decryptAes128gcm(body: Buffer, keys: BrowserKeys): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body.readUInt8(20);
  const serverPublicKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error(`keyid must be the sender's 65-byte public key, got ${idLength} bytes`);
  if (ciphertext.length > recordSize) throw new Error('more than one record');

  const ecdhSecret = keys.ecdh.computeSecret(serverPublicKey);
  const authSecret = Buffer.from(keys.auth, 'base64url');
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), serverPublicKey]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', ecdhSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));

  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 0x02) throw new Error('missing last-record padding delimiter');
  return padded.subarray(0, end).toString('utf8');
}

export interface VapidClaims {
  aud: string;
  exp: number;
  sub: string;
}

/** RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`, an ES256 JWT; the claims once the signature checks out. */
export function verifyVapid(header: string | undefined, expectedPublicKey: string): VapidClaims {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) throw new Error(`not a VAPID Authorization header: ${header}`);
  const [, jwt, k] = match as unknown as [string, string, string];
  if (k !== expectedPublicKey) throw new Error('VAPID k is not the server public key');
  const [head, claims, signature] = jwt.split('.') as [string, string, string];
  const header64 = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg: string };
  if (header64.alg !== 'ES256') throw new Error(`alg ${header64.alg}`);
  const point = Buffer.from(k, 'base64url');
  const publicKey = crypto.createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  const ok = crypto.verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new Error('VAPID signature does not verify');
  return JSON.parse(Buffer.from(claims, 'base64url').toString()) as VapidClaims;
}

export interface ReceivedPush {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A push service on 127.0.0.1: records each request; `answer` picks the status per path. */
export class FakePushService {
  readonly received: ReceivedPush[] = [];
  answer: (path: string) => number = () => 201;
  private server: http.Server;
  private waiters: Array<() => void> = [];

  private constructor(server: http.Server) {
    this.server = server;
  }

  static async start(): Promise<FakePushService> {
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        service.received.push({ path, headers: request.headers, body: Buffer.concat(chunks) });
        response.statusCode = service.answer(path);
        response.end();
        for (const wake of service.waiters.splice(0)) wake();
      });
    });
    const service = new FakePushService(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return service;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  endpoint(name: string): string {
    return `${this.origin}/push/${name}`;
  }

  async waitFor(count: number, timeoutMs = 5000): Promise<ReceivedPush[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${count} pushes, got ${this.received.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.received.slice(0, count);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
