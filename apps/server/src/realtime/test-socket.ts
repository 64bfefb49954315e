// Test helpers: a real WebSocket client (the `ws` package) that records what the server says.
import WebSocket from 'ws';
import { REALTIME_PROTOCOL, parseServerMessage, type ServerMessage, type ServerMessageOf } from '@versus/domain/realtime';
import type { App } from '../context.ts';
import { messageText } from './message-text.ts';

export class TestSocket {
  readonly ws: WebSocket;
  readonly received: ServerMessage[] = [];
  /** Frames that were not valid server messages (there should be none). */
  readonly invalid: string[] = [];
  closed: { code: number; reason: string } | undefined;
  private waiters: Array<() => void> = [];

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data) => {
      const text = messageText(data);
      const parsed = parseServerMessage(text);
      if (parsed.ok) this.received.push(parsed.message);
      else this.invalid.push(text);
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  static async open(url: string, options?: WebSocket.ClientOptions): Promise<TestSocket> {
    const ws = new WebSocket(url, options);
    const socket = new TestSocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return socket;
  }

  /** Opens a socket and says hello; resolves after `welcome`. */
  static async signedIn(url: string, token: string): Promise<TestSocket> {
    const socket = await TestSocket.open(url);
    socket.send({ t: 'hello', d: { token, protocol: REALTIME_PROTOCOL } });
    await socket.next('welcome');
    return socket;
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private async until<T>(check: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = check();
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; received ${JSON.stringify(this.received)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Takes (removes) the first received message of type `t`; waits for it if need be. */
  async next<T extends ServerMessage['t']>(t: T, timeoutMs = 5000): Promise<ServerMessageOf<T>> {
    return this.until(
      () => {
        const i = this.received.findIndex((m) => m.t === t);
        if (i < 0) return undefined;
        return this.received.splice(i, 1)[0] as ServerMessageOf<T>;
      },
      `"${t}"`,
      timeoutMs,
    );
  }

  /** Waits for `count` events in all and takes them, in the order they came. */
  async events(count: number, timeoutMs = 5000): Promise<Array<ServerMessageOf<'event'>['d']>> {
    const taken: Array<ServerMessageOf<'event'>['d']> = [];
    await this.until(
      () => {
        for (let i = 0; i < this.received.length && taken.length < count;) {
          const message = this.received[i]!;
          if (message.t === 'event') {
            taken.push(message.d);
            this.received.splice(i, 1);
          } else i++;
        }
        return taken.length >= count ? true : undefined;
      },
      `${count} events (have ${taken.length})`,
      timeoutMs,
    );
    return taken;
  }

  /** A ping/pong round trip: everything the server sent before it has arrived. */
  async settle(): Promise<void> {
    this.send({ t: 'ping' });
    await this.next('pong');
  }

  async waitClosed(timeoutMs = 5000): Promise<{ code: number; reason: string }> {
    return this.until(() => this.closed, 'close', timeoutMs);
  }

  close(): void {
    this.ws.close();
  }
}

/** Listens on a free port on 127.0.0.1 and answers the socket address. */
export async function listen(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `ws://127.0.0.1:${address.port}/realtime`;
}

let counter = 0;

/** The sign-up body of a real-money test player named `name`. */
export const signUpPayload = (name: string) => ({
  email: `${name}@example.com`,
  password: 'secret-password',
  options: {
    data: {
      account_type: 'real',
      username: name,
      full_name: 'Test Player',
      phone: '+15555550100',
      date_of_birth: '1990-01-01',
      age_verified: true,
    },
  },
});

/** Signs up a fresh player through the auth API (of an app here, or a server at an http:// address); answers id and token. */
export async function signUp(app: App | string, label = 'player'): Promise<{ userId: string; token: string }> {
  counter++;
  const name = `${label}${counter}${Math.random().toString(36).slice(2, 8)}`.slice(0, 24);
  const post = async (payload: object) => {
    if (typeof app !== 'string') return app.inject({ method: 'POST', url: '/api/auth/signup', payload });
    const res = await fetch(`${app}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    const body = await res.text();
    return { statusCode: res.status, body, json: () => JSON.parse(body) as unknown };
  };
  const res = await post(signUpPayload(name));
  if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as { user: { id: string }; session: { access_token: string } };
  return { userId: body.user.id, token: body.session.access_token };
}
