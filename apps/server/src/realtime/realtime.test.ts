import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALTIME_CLOSE, REALTIME_LIMITS, REALTIME_PROTOCOL } from '@versus/domain/realtime';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createTestApp, type TestApp } from '../test/app.ts';
import { createTestDatabase } from '../test/database.ts';
import { hint, publish, publishMany, topics } from './publish.ts';
import { pruneEvents } from './realtime.repository.ts';
import { listen, signUp, TestSocket } from './test-socket.ts';

describe('realtime hub on one server', () => {
  let t: TestApp;
  let url: string;
  let alice: { userId: string; token: string };
  let bob: { userId: string; token: string };
  const sockets: TestSocket[] = [];

  const connect = async (token = alice.token) => {
    const socket = await TestSocket.signedIn(url, token);
    sockets.push(socket);
    return socket;
  };
  const raw = async () => {
    const socket = await TestSocket.open(url);
    sockets.push(socket);
    return socket;
  };
  const versionOf = async (topic: string) => {
    const [row] = await t.database.db.query<{ version: number }>('SELECT version FROM realtime_topics WHERE topic = $1', [topic]);
    return row?.version ?? 0;
  };
  const publishCommitted = (topic: string, type: string, payload: unknown) =>
    t.database.db.transaction((tx) => publish(tx, topic, type, payload));

  beforeAll(async () => {
    t = await createTestApp();
    url = await listen(t.app);
    alice = await signUp(t.app, 'alice');
    bob = await signUp(t.app, 'bob');
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await t.close();
  });

  it('welcomes a socket whose hello carries a valid access token', async () => {
    const socket = await raw();
    socket.send({ t: 'hello', d: { token: alice.token, protocol: REALTIME_PROTOCOL } });
    expect(await socket.next('welcome')).toEqual({ t: 'welcome', d: { userId: alice.userId, protocol: REALTIME_PROTOCOL } });
  });

  it('answers GET /realtime without an upgrade with 426', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/realtime' });
    expect(res.statusCode).toBe(426);
    expect(res.json().error.code).toBe('upgrade_required');
  });

  it('delivers an event published in a committed transaction, never one rolled back', async () => {
    const topic = topics.user(alice.userId);
    const socket = await connect();
    socket.send({ t: 'sub', d: { topic } });
    const { d: subscribed } = await socket.next('subscribed');
    expect(subscribed.topic).toBe(topic);
    const start = subscribed.v;

    await expect(
      t.database.db.transaction(async (tx) => {
        await publish(tx, topic, 'test.rolled-back', { n: 0 });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await publishCommitted(topic, 'test.committed', { n: 1 });

    const [event] = await socket.events(1);
    expect(event).toEqual({ topic, v: start + 1, type: 'test.committed', payload: { n: 1 } });
    await socket.settle();
    expect(socket.received).toEqual([]);
  });

  it('publishes many events in one statement, numbered in order per topic, delivered after commit', async () => {
    const mine = topics.user(alice.userId);
    const theirs = topics.user(bob.userId);
    const socket = await connect();
    socket.send({ t: 'sub', d: { topic: mine } });
    const start = (await socket.next('subscribed')).d.v;
    const before = await versionOf(theirs);
    await t.database.db.transaction((tx) =>
      publishMany(tx, [
        { topic: mine, type: 'test.many', payload: { n: 1 } },
        { topic: theirs, type: 'test.many', payload: { n: 2 } },
        { topic: mine, type: 'test.many', payload: { n: 3 } },
      ]),
    );
    expect(await socket.events(2)).toEqual([
      { topic: mine, v: start + 1, type: 'test.many', payload: { n: 1 } },
      { topic: mine, v: start + 2, type: 'test.many', payload: { n: 3 } },
    ]);
    expect(await versionOf(theirs)).toBe(before + 1);
    await expect(t.database.db.transaction((tx) => publishMany(tx, [{ topic: 'match:x', type: 't', payload: null }]))).rejects.toThrow(
      'not a stored topic',
    );
  });

  it('delivers a hint after commit without a version or a stored event, never one rolled back', async () => {
    const topic = topics.user(alice.userId);
    const socket = await connect();
    socket.send({ t: 'sub', d: { topic } });
    const start = (await socket.next('subscribed')).d.v;
    await expect(
      t.database.db.transaction(async (tx) => {
        hint(tx, topic, 'test.rolled-back', { n: 0 });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await t.database.db.transaction(async (tx) => hint(tx, topic, 'test.hint', { n: 1 }));
    expect(await socket.next('hint')).toEqual({ t: 'hint', d: { topic, type: 'test.hint', payload: { n: 1 } } });
    expect(await versionOf(topic)).toBe(start);
    expect(await t.database.db.query(`SELECT 1 FROM realtime_events WHERE topic = $1 AND type LIKE 'test.%hint'`, [topic])).toEqual([]);
    // The next event takes the next version: the hint used none.
    await publishCommitted(topic, 'test.after-hint', {});
    expect((await socket.events(1))[0]).toMatchObject({ v: start + 1, type: 'test.after-hint' });
    await socket.settle();
    expect(socket.received).toEqual([]);
  });

  it('delivers events too big for NOTIFY, in order with the small ones', async () => {
    const topic = topics.user(alice.userId);
    const socket = await connect();
    socket.send({ t: 'sub', d: { topic } });
    const { v } = (await socket.next('subscribed')).d;
    const big = { text: 'ü'.repeat(6000) }; // 12 kB in UTF-8
    await publishCommitted(topic, 'big', big);
    await publishCommitted(topic, 'small', { n: 2 });
    await publishCommitted(topic, 'big', big);
    const events = await socket.events(3);
    expect(events.map((e) => [e.v, e.type])).toEqual([
      [v + 1, 'big'],
      [v + 2, 'small'],
      [v + 3, 'big'],
    ]);
    expect(events[0]!.payload).toEqual(big);
  });

  it('fans out to every socket following the topic, and stops after unsub', async () => {
    const topic = topics.challenges();
    const one = await connect();
    const two = await connect(bob.token);
    for (const socket of [one, two]) {
      socket.send({ t: 'sub', d: { topic } });
      await socket.next('subscribed');
    }
    await publishCommitted(topic, 'challenge.created', { id: 1 });
    expect((await one.events(1))[0]!.type).toBe('challenge.created');
    expect((await two.events(1))[0]!.type).toBe('challenge.created');

    two.send({ t: 'unsub', d: { topic } });
    await two.settle();
    await publishCommitted(topic, 'challenge.created', { id: 2 });
    expect((await one.events(1))[0]!.payload).toEqual({ id: 2 });
    await two.settle();
    expect(two.received).toEqual([]);
  });

  it("refuses another user's topic and unknown prefixes, and keeps the socket", async () => {
    const socket = await connect();
    socket.send({ t: 'sub', d: { topic: topics.user(bob.userId) } });
    expect((await socket.next('error')).d).toMatchObject({ code: 'forbidden_topic', topic: topics.user(bob.userId) });
    socket.send({ t: 'sub', d: { topic: 'secret:1' } });
    expect((await socket.next('error')).d).toMatchObject({ code: 'forbidden_topic', topic: 'secret:1' });
    socket.send({ t: 'sub', d: { topic: 'challenges:1' } });
    expect((await socket.next('error')).d.code).toBe('forbidden_topic');

    await publishCommitted(topics.user(bob.userId), 'private', { secret: true });
    await socket.settle();
    expect(socket.received).toEqual([]);
    expect(socket.closed).toBeUndefined();
  });

  it('answers malformed messages with an error and keeps the socket', async () => {
    const socket = await connect();
    const bad = [
      'not json',
      '{"t":"sub"}',
      JSON.stringify({ t: 'sub', d: { topic: 5 } }),
      JSON.stringify({ t: 'sub', d: { topic: 'user:x', since: -1 } }),
      JSON.stringify({ t: 'sub', d: { topic: 'has spaces in it' } }),
      JSON.stringify({ t: 'explode', d: {} }),
      JSON.stringify([1, 2, 3]),
      'null',
    ];
    for (const message of bad) {
      socket.send(message);
      const error = await socket.next('error');
      expect(error.d.code).toBe('bad_message');
      expect(error.d.message).toMatch(/^Unreadable message: /);
    }
    socket.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect((await socket.next('error')).d.code).toBe('bad_message');
    socket.send({ t: 'hello', d: { token: alice.token, protocol: REALTIME_PROTOCOL } });
    expect((await socket.next('error')).d.code).toBe('already_authenticated');

    // Still alive and working.
    const topic = topics.user(alice.userId);
    socket.send({ t: 'sub', d: { topic } });
    const { v } = (await socket.next('subscribed')).d;
    await publishCommitted(topic, 'still-here', null);
    expect((await socket.events(1))[0]).toMatchObject({ v: v + 1, type: 'still-here', payload: null });
    expect(socket.invalid).toEqual([]);
  });

  it('ends a socket whose frame breaks the protocol (over 64 KB) and serves the others on', async () => {
    const other = await connect();
    const socket = await connect();
    socket.send('x'.repeat(64 * 1024 + 1));
    // ws closes it with 1009; the socket's error listener (releaseUpgrade) ends it; the process goes on.
    expect([1006, 1009]).toContain((await socket.waitClosed()).code);
    await other.settle();
    const fresh = await connect();
    await fresh.settle();
  });

  it('requires hello before sub, and closes on a bad token or protocol', async () => {
    const early = await raw();
    early.send({ t: 'sub', d: { topic: 'challenges' } });
    expect((await early.next('error')).d).toMatchObject({ code: 'unauthenticated', topic: 'challenges' });
    early.send({ t: 'ping' });
    await early.next('pong');

    const forged = await raw();
    forged.send({ t: 'hello', d: { token: `${alice.token.slice(0, -4)}AAAA`, protocol: REALTIME_PROTOCOL } });
    expect((await forged.next('error')).d.code).toBe('invalid_token');
    expect((await forged.waitClosed()).code).toBe(REALTIME_CLOSE.unauthenticated);

    const old = await raw();
    old.send({ t: 'hello', d: { token: alice.token, protocol: REALTIME_PROTOCOL + 1 } });
    expect((await old.next('error')).d.code).toBe('unsupported_protocol');
    expect((await old.waitClosed()).code).toBe(REALTIME_CLOSE.protocol);
  });

  it('resumes after a reconnect with exactly the missed events, in order', async () => {
    const topic = topics.user(alice.userId);
    const first = await connect();
    first.send({ t: 'sub', d: { topic } });
    const seen = (await first.next('subscribed')).d.v;
    first.close();
    await first.waitClosed();

    for (let n = 1; n <= 5; n++) await publishCommitted(topic, 'missed', { n });

    const second = await connect();
    second.send({ t: 'sub', d: { topic, since: seen } });
    const events = await second.events(5);
    expect(events.map((e) => e.v)).toEqual([1, 2, 3, 4, 5].map((n) => seen + n));
    expect(events.map((e) => e.payload)).toEqual([1, 2, 3, 4, 5].map((n) => ({ n })));
    expect((await second.next('subscribed')).d).toEqual({ topic, v: seen + 5 });

    // Live again from there, with nothing replayed twice.
    await publishCommitted(topic, 'live', { n: 6 });
    expect((await second.events(1))[0]!.v).toBe(seen + 6);
    await second.settle();
    expect(second.received).toEqual([]);

    // Resuming from the latest version replays nothing.
    const third = await connect();
    third.send({ t: 'sub', d: { topic, since: seen + 6 } });
    expect((await third.next('subscribed')).d.v).toBe(seen + 6);
    await third.settle();
    expect(third.received).toEqual([]);
  });

  it('switches from replay to live without losing, repeating or reordering events', async () => {
    const topic = topics.user(bob.userId);
    const seen = await versionOf(topic);
    for (let n = 0; n < 20; n++) await publishCommitted(topic, 'before', { n });
    // Four publishers keep going, concurrently, while sockets join at different moments,
    // each resuming from a different version: live events arrive while they replay.
    let publishers = 4;
    const publishing = Promise.all(
      [0, 1, 2, 3].map(async (p) => {
        for (let n = 0; n < 25; n++) await publishCommitted(topic, 'during', { p, n });
        publishers--;
      }),
    );
    const joined: Array<{ socket: TestSocket; since: number }> = [];
    for (let i = 0; publishers > 0 && i < 12; i++) {
      const socket = await connect(bob.token);
      // Never ahead of what is committed (a version from the future is a gap, tested below).
      const since = Math.min(seen + i * 3, await versionOf(topic));
      socket.send({ t: 'sub', d: { topic, since } });
      joined.push({ socket, since });
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await publishing;
    const last = seen + 120;
    expect(await versionOf(topic)).toBe(last);
    expect(joined.length).toBeGreaterThan(3);
    for (const { socket, since } of joined) {
      const events = await socket.events(last - since);
      expect(events.map((e) => e.v)).toEqual(Array.from({ length: last - since }, (_, i) => since + i + 1));
      await socket.settle();
      expect(socket.received.filter((m) => m.t === 'event' || m.t === 'gap')).toEqual([]);
    }
  });

  it('sends gap when what was missed is no longer kept', async () => {
    const topic = 'challenges';
    await publishCommitted(topic, 'old', { n: 1 });
    await publishCommitted(topic, 'old', { n: 2 });
    // Age every event kept so far beyond the retention, then prune.
    await t.database.db.query(`UPDATE realtime_events SET created_at = now() - interval '25 hours' WHERE topic = $1`, [topic]);
    expect(await pruneEvents(t.database.db, REALTIME_LIMITS.retentionMs)).toBeGreaterThanOrEqual(2);
    await publishCommitted(topic, 'new', { n: 3 });
    const current = await versionOf(topic);

    const socket = await connect();
    socket.send({ t: 'sub', d: { topic, since: 0 } });
    expect((await socket.next('gap')).d).toEqual({ topic });
    expect((await socket.next('subscribed')).d).toEqual({ topic, v: current });
    await socket.settle();
    expect(socket.received.filter((m) => m.t === 'event')).toEqual([]);

    // A version from the future (say, the database was restored) is a gap too.
    const future = await connect();
    future.send({ t: 'sub', d: { topic, since: current + 100 } });
    expect((await future.next('gap')).d).toEqual({ topic });
    expect((await future.next('subscribed')).d.v).toBe(current);

    // Still live after the gap.
    await publishCommitted(topic, 'after-gap', {});
    expect((await socket.events(1))[0]!.v).toBe(current + 1);
  });

  it('repairs a live stream that skipped a version (a lost notification) from the store', async () => {
    const topic = topics.user(alice.userId);
    const socket = await connect();
    socket.send({ t: 'sub', d: { topic } });
    const { v } = (await socket.next('subscribed')).d;
    // An event committed without its NOTIFY, as when the listening connection was down.
    await t.database.db.transaction(async (tx) => {
      await tx.query('UPDATE realtime_topics SET version = version + 1 WHERE topic = $1', [topic]);
      await tx.query(`INSERT INTO realtime_events (topic, version, type, payload) VALUES ($1, $2, 'silent', '{"lost":true}')`, [
        topic,
        v + 1,
      ]);
    });
    await publishCommitted(topic, 'loud', { lost: false });
    const events = await socket.events(2);
    expect(events).toEqual([
      { topic, v: v + 1, type: 'silent', payload: { lost: true } },
      { topic, v: v + 2, type: 'loud', payload: { lost: false } },
    ]);
  });

  it('closes a socket that never says hello with 4401 after 10 s', async () => {
    const socket = await raw();
    const opened = Date.now();
    const closed = await socket.waitClosed(REALTIME_LIMITS.helloTimeoutMs + 3000);
    expect(closed.code).toBe(REALTIME_CLOSE.unauthenticated);
    expect(Date.now() - opened).toBeGreaterThanOrEqual(REALTIME_LIMITS.helloTimeoutMs - 50);
    expect(socket.received.map((m) => m.t)).toEqual(['error']);
  }, 20_000);
});

describe('pruning old events', () => {
  it('runs as a scheduled job: events older than 24 h go, recent ones stay', async () => {
    const database = await createTestDatabase();
    try {
      const db = database.db;
      for (let n = 0; n < 3; n++) await db.transaction((tx) => publish(tx, 'challenges', 'e', { n }));
      await db.query(`UPDATE realtime_events SET created_at = now() - interval '25 hours' WHERE version <= 2`);
      const config = loadConfig({ WEB_DIR: '', SEED_DEMO: 'false', RUN_JOBS: 'true' });
      const app = await buildApp({ config, db, logger: false });
      try {
        const deadline = Date.now() + 10_000;
        let left: Array<{ version: number }> = [];
        do {
          await new Promise((resolve) => setTimeout(resolve, 50));
          left = await db.query<{ version: number }>('SELECT version FROM realtime_events ORDER BY version');
        } while (left.length > 1 && Date.now() < deadline);
        expect(left).toEqual([{ version: 3 }]);
        // The topic keeps its version: a resume from before the pruned events is a gap.
        expect(await db.query('SELECT version FROM realtime_topics')).toEqual([{ version: 3 }]);
      } finally {
        await app.close();
      }
    } finally {
      await database.drop();
    }
  });
});
