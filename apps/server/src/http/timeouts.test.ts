// Over a real socket, slow heads, endless bodies and idle keep-alives are cut off; a WebSocket outlives them.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createTestApp, type TestApp } from '../test/app.ts';
import { listen, signUp, TestSocket } from '../realtime/test-socket.ts';

const TIMEOUTS = { headersMs: 300, requestMs: 800, keepAliveMs: 300, idleMs: 1_500 };
// Node checks the head and request timeouts on a beat (a quarter of the head timeout here).
const SLACK_MS = 400;
// Node keeps an idle keep-alive socket 1 s past the timeout it advertises, so a client reusing it
// at the last moment does not race the close.
const KEEP_ALIVE_GRACE_MS = 1_000;

let t: TestApp;
let url: string;
let port: number;
beforeAll(async () => {
  t = await createTestApp({ timeouts: TIMEOUTS });
  url = await listen(t.app);
  port = Number(new URL(url).port);
});
afterAll(async () => t?.close());

interface Outcome {
  /** Milliseconds from the first byte sent to the server closing the connection. */
  closedAfterMs: number;
  answer: string;
}

/** Connects, writes `first` and nothing more, and waits for the server to close the connection. */
function slowClient(first: string, waitMs = 5_000): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let sentAt = 0;
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open after ${waitMs} ms; received ${JSON.stringify(answer)}`));
    }, waitMs);
    socket.on('connect', () => {
      sentAt = performance.now();
      socket.write(first);
    });
    socket.on('data', (data) => (answer += data.toString()));
    socket.on('error', () => undefined); // a reset is a close too
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve({ closedAfterMs: performance.now() - sentAt, answer });
    });
  });
}

describe('HTTP timeout settings', () => {
  it('default to 10 s for the head, 120 s for the request, 5 s keep-alive, 60 s idle, and refuse nonsense', () => {
    expect(loadConfig({}).timeouts).toEqual({ headersMs: 10_000, requestMs: 120_000, keepAliveMs: 5_000, idleMs: 60_000 });
    expect(loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '2500' }).timeouts.headersMs).toBe(2_500);
    for (const bad of ['0', '-1', '1.5', 'soon'])
      expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: bad }), bad).toThrow(/HTTP_REQUEST_TIMEOUT_MS/);
  });
});

describe('HTTP timeouts', () => {
  it('close a connection that sends half a request head within the header timeout (408)', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () => slowClient('GET /api/health HTTP/1.1\r\nHost: versus.example\r\nX-Slow: ')),
    );
    for (const { closedAfterMs, answer } of outcomes) {
      expect(closedAfterMs).toBeLessThan(TIMEOUTS.headersMs + SLACK_MS);
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    }
  });

  it('close a connection whose body never finishes within the request timeout', async () => {
    const { closedAfterMs } = await slowClient(
      'POST /api/auth/signin HTTP/1.1\r\nHost: versus.example\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":',
    );
    expect(closedAfterMs).toBeLessThan(TIMEOUTS.requestMs + SLACK_MS);
  });

  it('close an idle keep-alive connection after the keep-alive timeout', async () => {
    const { closedAfterMs, answer } = await slowClient('GET /api/health HTTP/1.1\r\nHost: versus.example\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(TIMEOUTS.keepAliveMs - 50);
    expect(closedAfterMs).toBeLessThan(TIMEOUTS.keepAliveMs + KEEP_ALIVE_GRACE_MS + SLACK_MS);
  });

  it('leave a realtime WebSocket open past every one of them', async () => {
    const player = await signUp(t.app, 'slowpoke');
    const socket = await TestSocket.signedIn(url, player.token);
    try {
      await new Promise((resolve) => setTimeout(resolve, Math.max(TIMEOUTS.requestMs, TIMEOUTS.idleMs) + 2 * SLACK_MS));
      expect(socket.closed).toBeUndefined();
      socket.send({ t: 'ping' });
      expect((await socket.next('pong')).t).toBe('pong');
    } finally {
      socket.close();
    }
  });
});
