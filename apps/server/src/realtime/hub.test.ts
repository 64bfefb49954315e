// The hub on its own, on real PostgreSQL and real sockets, with the knobs tests need: a
// stand-in token verifier, short timeouts, and a store that can be slowed down or broken.
import Fastify from 'fastify';
import websocket from '@fastify/websocket';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MATCH_PRESENCE, REALTIME_CLOSE, REALTIME_LIMITS, REALTIME_PROTOCOL } from '@versus/domain/realtime';
import type { App } from '../context.ts';
import crypto from 'node:crypto';
import { liveSessions } from '../auth/auth.repository.ts';
import type { AccessClaims } from '../auth/claims.ts';
import { loadConfig } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import type { RealtimeHub } from './hub.ts';
import { publish } from './publish.ts';
import { createHub, realtimeFeature, type RealtimeOptions } from './realtime.routes.ts';
import { TopicRules } from './topic-rules.ts';
import { SecretCache } from '../db/secrets.ts';
import { listen, TestSocket } from './test-socket.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tokens are `user:{id}`; anything else is refused. */
const verify = async (token: string): Promise<AccessClaims | null> =>
  token.startsWith('user:') ? { userId: token.slice(5), role: 'user', accountType: 'real' } : null;

describe('realtime hub internals', () => {
  let database: TestDatabase;
  /** Hooks into the store the hub reads from. */
  const store: { beforeReplayResult?: () => Promise<void>; failReplay?: boolean } = {};
  let storeDb: Database;
  let running: Array<{ app: App; hub: RealtimeHub }> = [];
  const sockets: TestSocket[] = [];

  async function startHub(options: RealtimeOptions = {}): Promise<{ url: string; hub: RealtimeHub }> {
    const app: App = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
    await app.register(websocket);
    const ctx = {
      config: loadConfig({ WEB_DIR: '', RUN_JOBS: 'false' }),
      db: storeDb,
      log: app.log,
      topics: new TopicRules(),
      secrets: new SecretCache(storeDb),
    };
    const hub = createHub(ctx, { verify, ...options });
    await realtimeFeature(app, { ...ctx, hub });
    running.push({ app, hub });
    return { url: await listen(app), hub };
  }
  const connect = async (url: string, userId = 'u1', options?: Parameters<typeof TestSocket.open>[1]) => {
    const socket = await TestSocket.open(url, options);
    sockets.push(socket);
    socket.send({ t: 'hello', d: { token: `user:${userId}`, protocol: REALTIME_PROTOCOL } });
    await socket.next('welcome');
    return socket;
  };
  const publishCommitted = (topic: string, type: string, payload: unknown = {}) =>
    database.db.transaction((tx) => publish(tx, topic, type, payload));
  /** An event committed without its NOTIFY, as when a listening connection was down. */
  const publishSilently = (topic: string, type: string) =>
    database.db.transaction(async (tx: Queryable) => {
      const [row] = await tx.query<{ version: number }>(
        `INSERT INTO realtime_topics (topic, version) VALUES ($1, 1)
         ON CONFLICT (topic) DO UPDATE SET version = realtime_topics.version + 1 RETURNING version`,
        [topic],
      );
      await tx.query(`INSERT INTO realtime_events (topic, version, type, payload) VALUES ($1, $2, $3, '{}')`, [topic, row!.version, type]);
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    const db = database.db;
    storeDb = {
      ...db,
      async query<T>(sql: string, params?: unknown[]) {
        const isReplay = sql.includes('LEFT JOIN LATERAL');
        if (isReplay && store.failReplay) throw new Error('store unavailable (test)');
        const rows = await db.query<T>(sql, params);
        if (isReplay && store.beforeReplayResult) await store.beforeReplayResult();
        return rows;
      },
    };
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    for (const { app } of running) await app.close();
    running = [];
    delete store.beforeReplayResult;
    delete store.failReplay;
  });
  afterAll(() => database.drop());

  it('sends events committed after the replay read but before going live, once and in order', async () => {
    const { url } = await startHub();
    const topic = 'user:u1';
    for (let n = 1; n <= 3; n++) await publishCommitted(topic, 'before');
    const watcher = await connect(url);
    watcher.send({ t: 'sub', d: { topic } });
    expect((await watcher.next('subscribed')).d.v).toBe(3);

    // While the joining socket's replay is in flight, three more events commit and are
    // notified; the hub must hold them until the replay is sent.
    store.beforeReplayResult = async () => {
      delete store.beforeReplayResult;
      for (let n = 4; n <= 6; n++) await publishCommitted(topic, 'during');
      await watcher.events(3); // their NOTIFYs have reached the hub
    };
    const socket = await connect(url);
    socket.send({ t: 'sub', d: { topic, since: 1 } });
    const events = await socket.events(5);
    expect(events.map((e) => [e.v, e.type])).toEqual([
      [2, 'before'],
      [3, 'before'],
      [4, 'during'],
      [5, 'during'],
      [6, 'during'],
    ]);
    await socket.settle();
    expect(socket.received).toEqual([{ t: 'subscribed', d: { topic, v: 3 } }]);
  });

  it('reads back an event whose notification was lost while a socket was joining', async () => {
    const { url } = await startHub();
    const topic = 'user:u2';
    await publishCommitted(topic, 'first');
    store.beforeReplayResult = async () => {
      delete store.beforeReplayResult;
      await publishSilently(topic, 'silent'); // v2, never notified
      await publishCommitted(topic, 'loud'); // v3 arrives live, after a hole
      await sleep(50);
    };
    const socket = await connect(url, 'u2');
    socket.send({ t: 'sub', d: { topic, since: 0 } });
    const events = await socket.events(3);
    expect(events.map((e) => [e.v, e.type])).toEqual([
      [1, 'first'],
      [2, 'silent'],
      [3, 'loud'],
    ]);
  });

  it('writes whole frames of every length, multi-byte text included, that a WebSocket client reads intact', async () => {
    const { url } = await startHub();
    const topic = 'user:u3';
    // Payloads whose frames take each header size (2, 4 and 10 bytes); é and 🎲 are more bytes than characters.
    const texts = ['é', 'x'.repeat(200) + '🎲', 'é'.repeat(40_000)];
    for (const text of texts) await publishCommitted(topic, 'sized', { text });
    const socket = await connect(url, 'u3');
    socket.send({ t: 'sub', d: { topic, since: 0 } });
    const events = await socket.events(3);
    expect(events.map((e) => (e.payload as { text: string }).text)).toEqual(texts);
    expect(socket.invalid).toEqual([]);
  });

  it("sends a socket's replay in one write", async () => {
    const { url, hub } = await startHub();
    // Counts what the hub writes on each socket's TCP connection.
    const writes: Buffer[] = [];
    const accept = hub.accept.bind(hub);
    hub.accept = (socket, address, tcp) => {
      if (tcp) {
        const write = tcp.write.bind(tcp);
        tcp.write = (chunk: Buffer) => {
          writes.push(chunk);
          return write(chunk);
        };
      }
      accept(socket, address, tcp);
    };
    const topic = 'user:u4';
    for (let n = 1; n <= 5; n++) await publishCommitted(topic, 'replayed');
    const socket = await connect(url, 'u4');
    writes.length = 0;
    socket.send({ t: 'sub', d: { topic, since: 0 } });
    expect((await socket.events(5)).map((e) => e.v)).toEqual([1, 2, 3, 4, 5]);
    expect((await socket.next('subscribed')).d.v).toBe(5);
    // Five events and `subscribed`, in a single write.
    expect(writes).toHaveLength(1);
    expect(writes[0]!.toString()).toContain('"t":"subscribed"');
  });

  it('closes with 1011 when the store cannot be read, so the client resumes later', async () => {
    const { url, hub } = await startHub();
    const socket = await connect(url);
    store.failReplay = true;
    socket.send({ t: 'sub', d: { topic: 'user:u1', since: 0 } });
    expect((await socket.waitClosed()).code).toBe(1011);
    await sleep(20);
    expect(hub.stats()).toEqual({ sockets: 0, authenticated: 0, topics: 0 });
  });

  it('answers a move it is playing before closing with 1012, and refuses one that comes while it closes (503)', async () => {
    let release!: () => void;
    const played = new Promise<void>((resolve) => (release = resolve));
    const { url, hub } = await startHub({
      move: async (_user, move) => {
        await played;
        return { matchId: move.matchId, ok: true, version: 7 };
      },
    });
    const socket = await connect(url);
    socket.send({ t: 'move', d: { ref: 'first', matchId: 'm1', move: 0, version: 6 } });
    await sleep(50);
    const closing = hub.close();
    socket.send({ t: 'move', d: { ref: 'second', matchId: 'm1', move: 1, version: 7 } });
    expect((await socket.next('moved')).d).toMatchObject({ ref: 'second', ok: false, status: 503, code: 'unavailable' });
    expect(socket.closed).toBeUndefined();
    release();
    expect((await socket.next('moved')).d).toMatchObject({ ref: 'first', ok: true, version: 7 });
    expect(await socket.waitClosed()).toMatchObject({ code: REALTIME_CLOSE.restart });
    await closing;
  });

  it('closes a socket without hello after the hello timeout', async () => {
    const { url } = await startHub({ helloTimeoutMs: 200 });
    const socket = await TestSocket.open(url);
    sockets.push(socket);
    const closed = await socket.waitClosed(2000);
    expect(closed.code).toBe(REALTIME_CLOSE.unauthenticated);
    expect((await socket.next('error')).d.code).toBe('unauthenticated');
    // A socket that said hello in time stays.
    const ok = await connect(url);
    await sleep(400);
    expect(ok.closed).toBeUndefined();
  });

  it('ticks ten times a second: a beat or a round of heartbeats is spread over many ticks, not written in one burst', async () => {
    const { hub } = await startHub();
    // Defaults: presence beat 10 s, heartbeat 30 s: a hundredth and a three-hundredth of them at each tick.
    expect(hub.tickMs).toBe(100);
    expect((await startHub({ heartbeatMs: 100 })).hub.tickMs).toBe(25);
  });

  it('terminates sockets that stop answering pings, and keeps the ones that answer', async () => {
    const { url, hub } = await startHub({ heartbeatMs: 100 });
    const dead = await connect(url, 'u1', { autoPong: false });
    const alive = await connect(url, 'u2');
    dead.send({ t: 'sub', d: { topic: 'user:u1' } });
    await dead.next('subscribed');
    await dead.waitClosed(2000);
    await sleep(250);
    expect(alive.closed).toBeUndefined();
    expect(hub.stats()).toEqual({ sockets: 1, authenticated: 1, topics: 0 });
  });

  it('closes a socket with 4401 when its token expires, so the client comes back with a fresh one', async () => {
    const expiresAt = Date.now() / 1000 + 0.3;
    const { url } = await startHub({
      heartbeatMs: 100,
      verify: async (token) => ({ userId: token, role: 'user', accountType: 'real', expiresAt }),
    });
    const socket = await TestSocket.open(url);
    sockets.push(socket);
    socket.send({ t: 'hello', d: { token: 'u1', protocol: REALTIME_PROTOCOL } });
    await socket.next('welcome');
    const closed = await socket.waitClosed(2000);
    expect(closed.code).toBe(REALTIME_CLOSE.unauthenticated);
    expect(Date.now() / 1000).toBeGreaterThanOrEqual(expiresAt);
    expect((await socket.next('error')).d.code).toBe('invalid_token');
  });

  it('closes a socket whose session is signed out (or whose user is gone) at the next heartbeat; others stay', async () => {
    const db = database.db;
    const session = async () => {
      const userId = crypto.randomUUID();
      const sessionId = crypto.randomUUID();
      await db.query(`INSERT INTO users (id, email, password_hash) VALUES ($1::uuid, $1::text || '@hub.test', 'x')`, [userId]);
      await db.query(
        `INSERT INTO refresh_tokens (user_id, family_id, token_hash, expires_at)
         VALUES ($1, $2, encode(sha256(random()::text::bytea), 'hex'), now() + interval '1 day')`,
        [userId, sessionId],
      );
      return { userId, sessionId };
    };
    const { url } = await startHub({
      heartbeatMs: 100,
      // Tokens are `{userId}/{sessionId}`; the sessions are checked in the real tables.
      verify: async (token) => {
        const [userId, sessionId] = token.split('/');
        return { userId: userId!, role: 'user', accountType: 'real', sessionId: sessionId! };
      },
      liveSessions: (sessions) => liveSessions(db, sessions),
    });
    const open = async (s: { userId: string; sessionId: string }) => {
      const socket = await TestSocket.open(url);
      sockets.push(socket);
      socket.send({ t: 'hello', d: { token: `${s.userId}/${s.sessionId}`, protocol: REALTIME_PROTOCOL } });
      await socket.next('welcome');
      return socket;
    };
    const [kept, signedOut, removed] = [await session(), await session(), await session()];
    const sockets3 = [await open(kept), await open(signedOut), await open(removed)];
    await sleep(300);
    expect(sockets3.map((x) => x.closed)).toEqual([undefined, undefined, undefined]);

    await db.query('UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1', [signedOut.sessionId]);
    await db.query('DELETE FROM users WHERE id = $1', [removed.userId]);
    for (const socket of sockets3.slice(1)) {
      expect((await socket.waitClosed(2000)).code).toBe(REALTIME_CLOSE.unauthenticated);
      expect((await socket.next('error')).d.code).toBe('invalid_token');
    }
    await sleep(300);
    expect(sockets3[0]!.closed).toBeUndefined();
  });

  it('answers internal when verifying the token fails, without closing', async () => {
    const { url } = await startHub({
      verify: async () => {
        throw new Error('key store down (test)');
      },
    });
    const socket = await TestSocket.open(url);
    sockets.push(socket);
    socket.send({ t: 'hello', d: { token: 'anything', protocol: REALTIME_PROTOCOL } });
    expect((await socket.next('error')).d.code).toBe('internal');
    await socket.settle();
    expect(socket.closed).toBeUndefined();
  });

  it('limits topics per socket and closes a socket that floods', async () => {
    const open = await startHub({ authorize: async () => true });
    const many = await connect(open.url);
    for (let i = 0; i < REALTIME_LIMITS.maxTopicsPerSocket; i++) {
      many.send({ t: 'sub', d: { topic: `match:${i}` } });
      await many.next('subscribed');
    }
    // Subscribing again to a topic it already follows does not count twice.
    many.send({ t: 'sub', d: { topic: 'match:0' } });
    await many.next('subscribed');
    many.send({ t: 'sub', d: { topic: 'match:one-too-many' } });
    expect((await many.next('error')).d).toMatchObject({ code: 'too_many_topics', topic: 'match:one-too-many' });

    const slow = await startHub({ authorize: () => sleep(50).then(() => true) });
    const flood = await connect(slow.url);
    for (let i = 0; i < 150; i++) flood.send({ t: 'sub', d: { topic: `match:${i}` } });
    expect((await flood.waitClosed()).code).toBe(1008);
  });

  it('caps signed-in sockets per account (20): one more is closed with 4429; others and freed places are fine', async () => {
    const { url, hub } = await startHub();
    const mine = [];
    for (let i = 0; i < REALTIME_LIMITS.socketsPerAccount; i++) mine.push(await connect(url, 'greedy'));
    const extra = await TestSocket.open(url);
    sockets.push(extra);
    extra.send({ t: 'hello', d: { token: 'user:greedy', protocol: REALTIME_PROTOCOL } });
    expect(await extra.waitClosed()).toEqual({ code: REALTIME_CLOSE.tooMany, reason: 'too many connections for this account' });
    expect(extra.received.filter((m) => m.t === 'welcome')).toEqual([]);
    await connect(url, 'someone-else');
    mine[0]!.close();
    await mine[0]!.waitClosed();
    await sleep(20);
    await connect(url, 'greedy');
    expect(hub.stats().authenticated).toBe(REALTIME_LIMITS.socketsPerAccount + 1);
  });

  it('caps sockets per address: one more is closed at once with 4429, before any hello', async () => {
    const { url } = await startHub({ limits: { socketsPerAddress: 5 } });
    for (let i = 0; i < 5; i++) sockets.push(await TestSocket.open(url));
    const extra = await TestSocket.open(url);
    sockets.push(extra);
    expect(await extra.waitClosed()).toEqual({ code: REALTIME_CLOSE.tooMany, reason: 'too many connections from this address' });
    expect(REALTIME_LIMITS.socketsPerAddress).toBe(200);
  });

  it("counts pings toward the flood limit over all of an account's sockets together", async () => {
    const { url } = await startHub();
    const five = await Promise.all(Array.from({ length: 5 }, () => connect(url, 'pinger')));
    // 100 pings each: well within the budget for any one socket, over it for the account's five.
    const perSocket = Math.ceil(REALTIME_LIMITS.messageBurst / 5) + 40;
    expect(perSocket).toBeLessThan(REALTIME_LIMITS.messageBurst / 2);
    for (const socket of five) for (let i = 0; i < perSocket; i++) socket.send({ t: 'ping' });
    await Promise.any(five.map((socket) => socket.waitClosed()));
    const closed = five.filter((socket) => socket.closed);
    expect(closed.length).toBeGreaterThan(0);
    for (const socket of closed) expect(socket.closed).toEqual({ code: REALTIME_CLOSE.tooMany, reason: 'too many messages' });
    // Another account is not held back.
    const other = await connect(url, 'quiet');
    await other.settle();
  });

  it('counts unreadable messages toward the flood limit, before hello too', async () => {
    const { url } = await startHub();
    const noisy = await TestSocket.open(url);
    sockets.push(noisy);
    // Beyond the burst by more than the refill could make up while they are read.
    for (let i = 0; i < REALTIME_LIMITS.messageBurst + 200; i++) noisy.send('not json at all');
    expect(await noisy.waitClosed()).toEqual({ code: REALTIME_CLOSE.tooMany, reason: 'too many messages' });
  });

  it('forgets topics and sockets once they are gone', async () => {
    const { url, hub } = await startHub({ authorize: async () => true });
    const a = await connect(url, 'a');
    const b = await connect(url, 'b');
    for (const socket of [a, b]) {
      for (const topic of ['match:1', 'match:2', 'room:X']) {
        socket.send({ t: 'sub', d: { topic } });
        await socket.next('subscribed');
      }
    }
    expect(hub.stats()).toEqual({ sockets: 2, authenticated: 2, topics: 3 });
    a.send({ t: 'unsub', d: { topic: 'room:X' } });
    await a.settle();
    expect(hub.stats().topics).toBe(3);
    b.send({ t: 'unsub', d: { topic: 'room:X' } });
    await b.settle();
    expect(hub.stats().topics).toBe(2);
    a.close();
    b.close();
    await Promise.all([a.waitClosed(), b.waitClosed()]);
    await sleep(20);
    expect(hub.stats()).toEqual({ sockets: 0, authenticated: 0, topics: 0 });
  });

  it("reads a match topic's version once for the sockets that subscribe while it is read, and again after", async () => {
    const reads: string[] = [];
    let version = 7;
    const { url } = await startHub({
      authorize: async () => true,
      ownerVersion: async (topic) => {
        reads.push(topic);
        await sleep(50);
        return version;
      },
    });
    const topic = `match:${crypto.randomUUID()}`;
    const [a, b] = [await connect(url, 'pa'), await connect(url, 'pb')];
    a.send({ t: 'sub', d: { topic } });
    b.send({ t: 'sub', d: { topic } });
    expect((await a.next('subscribed')).d).toEqual({ topic, v: 7 });
    expect((await b.next('subscribed')).d).toEqual({ topic, v: 7 });
    expect(reads).toEqual([topic]);

    version = 8;
    const c = await connect(url, 'pc');
    c.send({ t: 'sub', d: { topic } });
    expect((await c.next('subscribed')).d).toEqual({ topic, v: 8 });
    expect(reads).toEqual([topic, topic]);
  });

  describe('presence on a match topic', () => {
    /** The next presence hint about `userId` this socket hears (other hints are skipped). */
    async function heard(socket: TestSocket, userId: string, timeoutMs = 5000): Promise<{ here: boolean; ask?: boolean }> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hint = await socket.next('hint', Math.max(1, deadline - Date.now()));
        const payload = hint.d.payload as { userId: string; here: boolean; ask?: boolean };
        if (hint.d.type === MATCH_PRESENCE.hintType && payload.userId === userId) return payload;
      }
    }
    const presenceOptions = (beatMs = 60_000): RealtimeOptions => ({
      authorize: async () => true,
      // The players count; a spectator follows the topic without being announced.
      presentOn: async (user, topic) => topic.startsWith('match:') && user.userId !== 'spectator',
      presenceBeatMs: beatMs,
    });

    it('announces a player who opens the match, answers them with who is here, and says when they leave', async () => {
      const { url } = await startHub(presenceOptions());
      const topic = `match:${crypto.randomUUID()}`;
      const a = await connect(url, 'pa');
      a.send({ t: 'sub', d: { topic } });
      await a.next('subscribed');
      expect(await heard(a, 'pa')).toEqual({ userId: 'pa', here: true, ask: true });

      const watcher = await connect(url, 'spectator');
      watcher.send({ t: 'sub', d: { topic } });
      await watcher.next('subscribed');
      const b = await connect(url, 'pb');
      b.send({ t: 'sub', d: { topic } });
      await b.next('subscribed');
      // A hears B arrive; B hears A's answer; the spectator hears both and is announced to no one.
      expect((await heard(a, 'pb')).here).toBe(true);
      expect(await heard(b, 'pa')).toEqual({ userId: 'pa', here: true });
      expect((await heard(watcher, 'pb')).here).toBe(true);

      // B's second tab, then B closes both: Away only when the last one goes.
      const b2 = await connect(url, 'pb');
      b2.send({ t: 'sub', d: { topic } });
      await b2.next('subscribed');
      expect((await heard(a, 'pb')).here).toBe(true);
      b.close();
      await b.waitClosed();
      await a.settle();
      b2.close();
      expect(await heard(a, 'pb')).toEqual({ userId: 'pb', here: false });
      await a.settle();
      await watcher.settle();
      const hints = [] as unknown[];
      for (;;) {
        const next = await a.next('hint', 200).catch(() => null);
        if (!next) break;
        hints.push(next.d.payload);
      }
      expect(hints.filter((h) => (h as { userId: string }).userId === 'spectator')).toEqual([]);
    });

    it('repeats who is here at every beat, and stops once they leave', async () => {
      const { url } = await startHub(presenceOptions(150));
      const topic = `match:${crypto.randomUUID()}`;
      const a = await connect(url, 'pa');
      const b = await connect(url, 'pb');
      for (const socket of [a, b]) {
        socket.send({ t: 'sub', d: { topic } });
        await socket.next('subscribed');
      }
      await heard(a, 'pb');
      // Beats: B is heard again and again, without asking.
      expect(await heard(a, 'pb', 1000)).toEqual({ userId: 'pb', here: true });
      expect(await heard(a, 'pb', 1000)).toEqual({ userId: 'pb', here: true });
      b.send({ t: 'unsub', d: { topic } });
      for (let payload = await heard(a, 'pb'); payload.here; payload = await heard(a, 'pb'));
      await expect(heard(a, 'pb', 600)).rejects.toThrow(/timed out/);
    });
  });
});
