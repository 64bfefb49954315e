// The client against a scripted server speaking the realtime protocol over real sockets
// (the `ws` package), so reconnects, backoff and resubscription run for real.
import { afterEach, describe, expect, it } from 'vitest';
import WS, { WebSocketServer } from 'ws';
import {
  REALTIME_CLOSE,
  REALTIME_PROTOCOL,
  clientMessageSchema,
  type ClientMessage,
  type ClientMessageOf,
  type ServerMessage,
} from '@versus/domain/realtime';
import {
  MoveUnanswered,
  RealtimeClient,
  SocketUnavailable,
  type RealtimeClientOptions,
  type RealtimeStatus,
  type RealtimeUpdate,
} from './client.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(check: () => T | undefined, what: string, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

class FakeConnection {
  readonly received: ClientMessage[] = [];
  closedWith: number | undefined;
  readonly answerPings: boolean;
  constructor(
    readonly ws: WS,
    server: FakeServer,
  ) {
    this.answerPings = server.answerPings;
    ws.on('message', (data) => {
      // ws hands a Buffer unless binaryType is changed, which this server never does.
      const message = clientMessageSchema.parse(JSON.parse((data as Buffer).toString()));
      this.received.push(message);
      if (message.t === 'hello' && server.welcome) this.send({ t: 'welcome', d: { userId: 'u1', protocol: REALTIME_PROTOCOL } });
      if (message.t === 'ping' && this.answerPings) this.send({ t: 'pong' });
    });
    ws.on('close', (code) => (this.closedWith = code));
  }
  send(message: ServerMessage): void {
    this.ws.send(JSON.stringify(message));
  }
  /** Takes the first message of type `t` the client sent. */
  next<T extends ClientMessage['t']>(t: T): Promise<ClientMessageOf<T>> {
    return until(() => {
      const i = this.received.findIndex((m) => m.t === t);
      return i < 0 ? undefined : (this.received.splice(i, 1)[0] as ClientMessageOf<T>);
    }, `client message "${t}"`);
  }
  close(code: number): void {
    this.ws.close(code);
  }
}

class FakeServer {
  readonly connections: FakeConnection[] = [];
  readonly connectedAt: number[] = [];
  welcome = true;
  answerPings = true;
  private taken = 0;
  private constructor(
    readonly wss: WebSocketServer,
    readonly url: string,
  ) {
    wss.on('connection', (ws) => {
      this.connectedAt.push(Date.now());
      this.connections.push(new FakeConnection(ws, this));
    });
  }
  static async start(): Promise<FakeServer> {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    const address = wss.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    return new FakeServer(wss, `ws://127.0.0.1:${address.port}/realtime`);
  }
  /** The next connection not taken yet. */
  async nextConnection(timeoutMs = 3000): Promise<FakeConnection> {
    const connection = await until(() => this.connections[this.taken], 'a connection', timeoutMs);
    this.taken++;
    return connection;
  }
  async stop(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

describe('RealtimeClient', () => {
  let server: FakeServer;
  const clients: RealtimeClient[] = [];

  async function setup(options: Partial<RealtimeClientOptions> = {}) {
    server = await FakeServer.start();
    const tokens: string[] = [];
    const statuses: RealtimeStatus[] = [];
    const events = new EventTarget();
    const client = new RealtimeClient({
      url: server.url,
      createSocket: (url) => new WS(url) as unknown as WebSocket,
      getToken: async () => {
        const token = `token-${tokens.length + 1}`;
        tokens.push(token);
        return token;
      },
      backoff: { minMs: 10, maxMs: 40 },
      events,
      ...options,
    });
    client.onStatus(() => statuses.push(client.getStatus()));
    clients.push(client);
    return { client, tokens, statuses, events };
  }
  const collect = () => {
    const updates: RealtimeUpdate[] = [];
    return { updates, listener: (update: RealtimeUpdate) => void updates.push(update) };
  };

  afterEach(async () => {
    for (const client of clients.splice(0)) client.disconnect();
    await server?.stop();
  });

  it('says hello with the token, then sends one sub per topic however many listeners follow it', async () => {
    const { client, statuses } = await setup();
    const a = collect();
    const b = collect();
    const stopA = client.subscribe('user:u1', a.listener);
    const stopB = client.subscribe('user:u1', b.listener);
    client.subscribe('challenges', collect().listener);
    expect(client.getStatus()).toBe('idle');

    client.connect();
    const connection = await server.nextConnection();
    expect((await connection.next('hello')).d).toEqual({ token: 'token-1', protocol: REALTIME_PROTOCOL });
    const subs = [await connection.next('sub'), await connection.next('sub')].map((m) => m.d);
    expect(subs).toEqual(expect.arrayContaining([{ topic: 'user:u1' }, { topic: 'challenges' }]));
    await until(() => (client.getStatus() === 'connected' ? true : undefined), 'connected');
    expect(statuses).toEqual(['connecting', 'connected']);
    expect(client.currentUserId()).toBe('u1');

    // A third listener on a followed topic sends nothing; a new topic sends its sub.
    const stopC = client.subscribe('user:u1', collect().listener);
    client.subscribe('room:ABC', collect().listener);
    expect((await connection.next('sub')).d).toEqual({ topic: 'room:ABC' });

    // Both listeners hear that the topic is followed from now on (a snapshot taken before may be
    // behind), then get its events.
    connection.send({ t: 'subscribed', d: { topic: 'user:u1', v: 0 } });
    connection.send({ t: 'event', d: { topic: 'user:u1', v: 1, type: 'hi', payload: { n: 1 } } });
    await until(() => (b.updates.length >= 2 ? true : undefined), 'an event');
    expect(a.updates).toEqual([
      { kind: 'subscribed', topic: 'user:u1' },
      { kind: 'event', topic: 'user:u1', v: 1, type: 'hi', payload: { n: 1 } },
    ]);
    expect(b.updates).toEqual(a.updates);

    // The sub stays until the last listener leaves.
    stopA();
    stopB();
    await sleep(20);
    expect(connection.received.filter((m) => m.t === 'unsub')).toEqual([]);
    stopC();
    expect((await connection.next('unsub')).d).toEqual({ topic: 'user:u1' });
  });

  it('does not unsubscribe when a listener leaves and another comes at once (StrictMode remounts)', async () => {
    const { client } = await setup();
    client.connect();
    const connection = await server.nextConnection();
    await until(() => (client.getStatus() === 'connected' ? true : undefined), 'connected');
    const stop = client.subscribe('challenges', collect().listener);
    await connection.next('sub');
    stop();
    client.subscribe('challenges', collect().listener);
    await sleep(30);
    expect(connection.received.filter((m) => m.t === 'unsub' || m.t === 'sub')).toEqual([]);
  });

  it('delivers versions in order, drops repeats, and reports gaps from the server or seen in the stream', async () => {
    const { client } = await setup();
    const { updates, listener } = collect();
    client.subscribe('match:m1', listener);
    client.connect();
    const connection = await server.nextConnection();
    await connection.next('sub');
    connection.send({ t: 'subscribed', d: { topic: 'match:m1', v: 3 } });
    for (const v of [4, 4, 2, 6]) connection.send({ t: 'event', d: { topic: 'match:m1', v, type: 'move', payload: v } });
    connection.send({ t: 'event', d: { topic: 'match:other', v: 1, type: 'move', payload: null } });
    await until(() => (updates.length >= 4 ? true : undefined), 'four updates');
    await sleep(20);
    expect(updates.map((u) => (u.kind === 'event' ? u.v : u.kind))).toEqual(['subscribed', 4, 'gap', 6]);
    expect(client.lastVersion('match:m1')).toBe(6);

    connection.send({ t: 'gap', d: { topic: 'match:m1' } });
    connection.send({ t: 'subscribed', d: { topic: 'match:m1', v: 40 } });
    connection.send({ t: 'event', d: { topic: 'match:m1', v: 41, type: 'move', payload: 41 } });
    await until(() => (updates.length >= 6 ? true : undefined), 'gap then event');
    // After a gap the topic goes on from the server's version (the gap already said: refetch).
    expect(updates.slice(4).map((u) => (u.kind === 'event' ? u.v : u.kind))).toEqual(['gap', 41]);

    connection.send({ t: 'error', d: { code: 'forbidden_topic', message: 'no', topic: 'match:m1' } });
    await until(() => (updates.length >= 7 ? true : undefined), 'error');
    expect(updates[6]).toEqual({ kind: 'error', topic: 'match:m1', code: 'forbidden_topic', message: 'no' });
  });

  it('after the server restarts, reconnects with a fresh token and resumes each topic from its last version', async () => {
    const { client, tokens, statuses } = await setup();
    const user = collect();
    const challenges = collect();
    client.subscribe('user:u1', user.listener);
    client.subscribe('challenges', challenges.listener);
    client.connect();
    const first = await server.nextConnection();
    await first.next('sub');
    await first.next('sub');
    first.send({ t: 'subscribed', d: { topic: 'user:u1', v: 3 } });
    first.send({ t: 'event', d: { topic: 'user:u1', v: 4, type: 'x', payload: null } });
    await until(() => (client.lastVersion('user:u1') === 4 ? true : undefined), 'version 4');

    first.close(1012);
    const second = await server.nextConnection();
    expect((await second.next('hello')).d.token).toBe('token-2');
    const subs = [await second.next('sub'), await second.next('sub')].map((m) => m.d);
    // A topic never confirmed resumes from nothing.
    expect(subs).toEqual(expect.arrayContaining([{ topic: 'user:u1', since: 4 }, { topic: 'challenges' }]));
    expect(tokens).toEqual(['token-1', 'token-2']);
    await until(() => (client.getStatus() === 'connected' ? true : undefined), 'connected again');
    expect(statuses).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    // The topic confirmed before resumes; the one never confirmed is followed from now on, and
    // says so (its snapshot may be behind), even though this is a reconnection.
    second.send({ t: 'subscribed', d: { topic: 'user:u1', v: 4 } });
    second.send({ t: 'subscribed', d: { topic: 'challenges', v: 9 } });
    await until(() => (challenges.updates.length >= 1 && user.updates.length >= 3 ? true : undefined), 'both confirmed');
    expect(user.updates.map((u) => u.kind)).toEqual(['subscribed', 'event', 'resumed']);
    expect(challenges.updates).toEqual([{ kind: 'subscribed', topic: 'challenges' }]);
  });

  it('passes hints on without touching the version, and announces each topic resumed after a reconnect', async () => {
    const { client } = await setup();
    const { updates, listener } = collect();
    client.subscribe('user:u1', listener);
    client.connect();
    const first = await server.nextConnection();
    await first.next('sub');
    first.send({ t: 'subscribed', d: { topic: 'user:u1', v: 2 } });
    first.send({ t: 'hint', d: { topic: 'user:u1', type: 'balance', payload: { available: 5 } } });
    first.send({ t: 'hint', d: { topic: 'user:u9', type: 'balance', payload: null } });
    await until(() => (updates.length >= 2 ? true : undefined), 'hint');
    expect(updates).toEqual([
      { kind: 'subscribed', topic: 'user:u1' },
      { kind: 'hint', topic: 'user:u1', type: 'balance', payload: { available: 5 } },
    ]);
    expect(client.lastVersion('user:u1')).toBe(2);

    first.close(1012);
    const second = await server.nextConnection();
    expect((await second.next('sub')).d).toEqual({ topic: 'user:u1', since: 2 });
    second.send({ t: 'subscribed', d: { topic: 'user:u1', v: 2 } });
    await until(() => (updates.length >= 3 ? true : undefined), 'resumed');
    expect(updates[2]).toEqual({ kind: 'resumed', topic: 'user:u1' });
    // A topic followed for the first time on this connection has nothing to resume: it is
    // announced as subscribed, and only to its own listeners.
    const challenges = collect();
    client.subscribe('challenges', challenges.listener);
    await second.next('sub');
    second.send({ t: 'subscribed', d: { topic: 'challenges', v: 0 } });
    // A second confirmation of a topic already followed announces nothing.
    second.send({ t: 'subscribed', d: { topic: 'user:u1', v: 2 } });
    second.send({ t: 'event', d: { topic: 'user:u1', v: 3, type: 'x', payload: null } });
    await until(() => (updates.length >= 4 ? true : undefined), 'event');
    expect(updates.slice(3)).toEqual([{ kind: 'event', topic: 'user:u1', v: 3, type: 'x', payload: null }]);
    expect(challenges.updates).toEqual([{ kind: 'subscribed', topic: 'challenges' }]);
  });

  it('backs off exponentially while connections keep failing, and resets after a welcome', async () => {
    const { client } = await setup({ backoff: { minMs: 40, maxMs: 160 }, random: () => 1 });
    server.welcome = false;
    client.connect();
    for (let i = 0; i < 5; i++) (await server.nextConnection()).close(4401);
    const gaps = server.connectedAt.slice(1, 5).map((t, i) => t - server.connectedAt[i]!);
    const expected = [40, 80, 160, 160];
    gaps.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(expected[i]! - 5);
      expect(gap).toBeLessThan(expected[i]! + 150);
    });
    expect(client.getStatus()).toBe('reconnecting');

    server.welcome = true;
    const good = await server.nextConnection();
    await good.next('hello');
    await until(() => (client.getStatus() === 'connected' ? true : undefined), 'connected');
    const at = Date.now();
    good.close(1012);
    await server.nextConnection();
    expect(Date.now() - at).toBeLessThan(40 + 150);
  });

  it('comes back slowly after a 4429 (too many sockets or messages), even right after a welcome', async () => {
    const { client } = await setup({ backoff: { minMs: 10, maxMs: 10_000 }, random: () => 1 });
    client.connect();
    const first = await server.nextConnection();
    await first.next('hello');
    await until(() => (client.getStatus() === 'connected' ? true : undefined), 'connected');
    const at = Date.now();
    first.close(REALTIME_CLOSE.tooMany);
    await server.nextConnection(2000);
    // 10 ms doubled 5 times: 320 ms, not the 10 ms a welcome had reset the backoff to.
    expect(Date.now() - at).toBeGreaterThanOrEqual(300);
  });

  it('reconnects at once when the browser comes back online', async () => {
    const { client, events } = await setup({ backoff: { minMs: 60_000, maxMs: 60_000 } });
    client.connect();
    const first = await server.nextConnection();
    await until(() => (client.getStatus() === 'connected' ? true : undefined), 'connected');
    first.close(1012);
    await until(() => (client.getStatus() === 'reconnecting' ? true : undefined), 'reconnecting');
    await sleep(50);
    expect(server.connections.length).toBe(1);
    events.dispatchEvent(new Event('online'));
    await server.nextConnection(1000);
  });

  it('drops a connection that stops answering pings and opens a new one', async () => {
    const { client } = await setup({ pingIntervalMs: 30 });
    server.answerPings = false;
    client.connect();
    const silent = await server.nextConnection();
    server.answerPings = true;
    await server.nextConnection();
    await until(() => silent.closedWith, 'the silent socket closed');
    expect(silent.closedWith).toBe(4408);
  });

  it('stays idle while signed out, and connects once there is a token', async () => {
    let token: string | null = null;
    const { client } = await setup({ getToken: async () => token });
    client.connect();
    await sleep(50);
    expect(client.getStatus()).toBe('idle');
    expect(server.connections).toEqual([]);
    token = 'signed-in';
    client.connect();
    const connection = await server.nextConnection();
    expect((await connection.next('hello')).d.token).toBe('signed-in');
  });

  it('disconnect closes the socket and does not come back', async () => {
    const { client } = await setup();
    client.connect();
    const connection = await server.nextConnection();
    await until(() => (client.getStatus() === 'connected' ? true : undefined), 'connected');
    client.disconnect();
    expect(client.getStatus()).toBe('idle');
    expect(await until(() => connection.closedWith, 'close')).toBe(1000);
    await sleep(80);
    expect(server.connections.length).toBe(1);
  });

  it('plays moves over the socket: each answer goes to its own move by ref', async () => {
    const { client } = await setup();
    await expect(client.sendMove({ matchId: 'm1', move: 4, version: 3 })).rejects.toBeInstanceOf(SocketUnavailable);
    client.connect();
    const connection = await server.nextConnection();
    await until(() => (client.getStatus() === 'connected' ? true : undefined), 'connected');
    const first = client.sendMove({ matchId: 'm1', move: 4, version: 3, lagMs: 12 });
    const second = client.sendMove({ matchId: 'm2', move: 'e2e4', version: 7 });
    const a = (await connection.next('move')).d;
    const b = (await connection.next('move')).d;
    expect(a).toMatchObject({ matchId: 'm1', move: 4, version: 3, lagMs: 12 });
    expect(a.ref).not.toBe(b.ref);
    // Answered out of order, and an answer nobody waits for is ignored.
    connection.send({ t: 'moved', d: { ref: 'nobody', matchId: 'm9', ok: true, version: 1 } });
    connection.send({ t: 'moved', d: { ref: b.ref, matchId: 'm2', ok: false, status: 409, code: 'stale_version', message: 'changed' } });
    connection.send({ t: 'moved', d: { ref: a.ref, matchId: 'm1', ok: true, version: 4 } });
    expect(await second).toMatchObject({ ok: false, status: 409, code: 'stale_version' });
    expect(await first).toMatchObject({ ok: true, version: 4 });
  });

  it('fails a move whose answer is lost with the connection, or never comes', async () => {
    const { client } = await setup();
    client.connect();
    const connection = await server.nextConnection();
    await until(() => (client.getStatus() === 'connected' ? true : undefined), 'connected');
    const late = client.sendMove({ matchId: 'm1', move: 0, version: 1 }, 50);
    await expect(late).rejects.toBeInstanceOf(MoveUnanswered);
    const cut = client.sendMove({ matchId: 'm1', move: 1, version: 1 });
    await connection.next('move');
    await connection.next('move');
    connection.close(1012);
    await expect(cut).rejects.toBeInstanceOf(MoveUnanswered);
  });

  it('keeps delivering to other listeners when one throws', async () => {
    const errors: string[] = [];
    const { client } = await setup({ onError: (error) => void errors.push(error.code) });
    client.subscribe('challenges', () => {
      throw new Error('boom');
    });
    const { updates, listener } = collect();
    client.subscribe('challenges', listener);
    client.connect();
    const connection = await server.nextConnection();
    await connection.next('sub');
    connection.send({ t: 'event', d: { topic: 'challenges', v: 1, type: 'x', payload: null } });
    await until(() => (updates.length ? true : undefined), 'event');
    expect(errors).toEqual(['listener_failed']);
  });
});
