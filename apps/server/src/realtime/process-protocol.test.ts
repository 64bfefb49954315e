import fc from 'fast-check';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChallengeListCache } from '../challenges/challenges.cache.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { RealtimeHub } from './hub.ts';
import {
  INLINE_LIMIT,
  NOTIFICATION_COMMITTED_CHANNEL,
  PROCESS_PROTOCOL,
  ProcessInbox,
  REALTIME_CHANNEL,
  channelOf,
  decode,
  encode,
  encodeBatches,
  encodeEvent,
  type EventNote,
  type ProcessMessage,
} from './process-protocol.ts';

// Any text, quotes, backslashes and non-ASCII included: the encoder escapes what it splices in.
const text = fc.string({ unit: 'binary', maxLength: 40 });
// Payloads as they are once they have been JSON (no -0, no undefined).
const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const version = fc.nat();
const origin = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 12, maxLength: 12 });
const ref = fc.record({ topic: text, version });
const event: fc.Arbitrary<EventNote> = fc.record({ topic: text, version, type: text, payloadJson: json.map((v) => JSON.stringify(v)) });
const gap = ref.map((r) => ({ ...r, gap: true as const }));

const message: fc.Arbitrary<ProcessMessage> = fc.oneof(
  event.map((d) => ({ t: 'event' as const, d })),
  ref.map((d) => ({ t: 'ref' as const, d })),
  ref.map((d) => ({ t: 'gap' as const, d })),
  fc.record({ t: fc.constant('refs' as const), o: origin, d: fc.array(ref) }),
  fc.record({ t: fc.constant('events' as const), o: origin, d: fc.array(fc.oneof(event, gap)) }),
  fc.record({ t: fc.constant('hint' as const), d: fc.record({ topic: text, type: text, payload: json }) }),
  fc.record({ t: fc.constant('notification' as const), d: fc.record({ id: fc.uuid() }) }),
);

function decoded(payload: string): ProcessMessage {
  const result = decode(payload);
  if (!result.ok) throw new Error(`${result.problem}: ${result.error} in ${payload}`);
  return result.message;
}

const quiet = () => {
  const warned: { obj: object; msg: string }[] = [];
  return { warned, log: { warn: (obj: object, msg: string) => warned.push({ obj, msg }) } };
};

describe('the protocol between server processes', () => {
  it('round-trips every message through encode and decode, carrying its version', () => {
    fc.assert(
      fc.property(message, (m) => {
        const payload = encode(m);
        expect(JSON.parse(payload)).toMatchObject({ p: PROCESS_PROTOCOL, t: m.t });
        expect(decoded(payload)).toEqual(m);
      }),
      { numRuns: 500 },
    );
  });

  it('sends an event too large for NOTIFY as a reference or a gap marker, and packs batches under the limit', () => {
    const tooLarge = JSON.stringify('é'.repeat(INLINE_LIMIT / 2));
    const big = (n: number): EventNote => ({ topic: 'match:m', version: n, type: 'move', payloadJson: tooLarge });
    const bigs = fc.nat(2).map(big);
    expect(decoded(encodeEvent(big(3), 'ref'))).toEqual({ t: 'ref', d: { topic: 'match:m', version: 3 } });
    expect(decoded(encodeEvent(big(3), 'gap'))).toEqual({ t: 'gap', d: { topic: 'match:m', version: 3 } });
    fc.assert(
      fc.property(origin, fc.array(ref, { maxLength: 400 }), fc.array(fc.oneof(event, bigs), { maxLength: 60 }), (o, stored, unstored) => {
        const payloads = encodeBatches(o, stored, unstored);
        for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThan(8000);
        const messages = payloads.map(decoded);
        expect(messages.flatMap((m) => (m.t === 'refs' ? m.d : []))).toEqual(stored);
        const fit = (e: EventNote) => Buffer.byteLength(encode({ t: 'event', d: e })) < INLINE_LIMIT;
        expect(messages.flatMap((m) => (m.t === 'events' ? m.d : []))).toEqual(
          unstored.map((e) => (fit(e) ? e : { topic: e.topic, version: e.version, gap: true })),
        );
        for (const m of messages) expect(m).toMatchObject({ o });
      }),
      { numRuns: 100 },
    );
  });

  it('logs and counts a payload of an unknown version or shape, without throwing', () => {
    const { warned, log } = quiet();
    let unread = 0;
    const inbox = new ProcessInbox(REALTIME_CHANNEL, log, { onUnread: () => unread++ });
    const newer = encode({ t: 'event', d: { topic: 'user:u', version: 1, type: 'x', payloadJson: '{}' } }).replace(
      `"p":${PROCESS_PROTOCOL}`,
      `"p":${PROCESS_PROTOCOL + 1}`,
    );
    expect(inbox.read(newer)).toBeNull();
    // Today's unversioned payloads, as a process of the previous release sends them.
    expect(inbox.read('{"topic":"user:u","version":2,"type":"x","payload":{}}')).toBeNull();
    expect(inbox.unread).toEqual({ version: 2, shape: 0 });
    expect(warned).toHaveLength(2); // the 1st and the 2nd of a kind
    expect(warned[0]!.obj).toMatchObject({ channel: REALTIME_CHANNEL, problem: 'version', count: 1 });
    expect(warned[0]!.msg).toMatch(/not understood/);

    expect(inbox.read('not json')).toBeNull();
    expect(inbox.read(`{"p":${PROCESS_PROTOCOL},"t":"telepathy","d":{}}`)).toBeNull();
    expect(inbox.read(`{"p":${PROCESS_PROTOCOL},"t":"event","d":{"topic":"user:u"}}`)).toBeNull();
    // A message of another channel is not this one's.
    expect(inbox.read(encode({ t: 'notification', d: { id: crypto.randomUUID() } }))).toBeNull();
    expect(inbox.unread).toEqual({ version: 2, shape: 4 });
    expect(unread).toBe(6);
    // Logged at the 1st, 2nd and 4th of each kind: a flood stays quiet, and nothing goes unsaid.
    expect(warned.map((w) => w.obj)).toMatchObject([{ count: 1 }, { count: 2 }, { count: 1 }, { count: 2 }, { count: 4 }]);
  });

  it('skips its own origin unread and uncounted, and reads the others', () => {
    const { log } = quiet();
    const inbox = new ProcessInbox(REALTIME_CHANNEL, log, { ownOrigin: 'aaaaaaaaaaaa' });
    const [own] = encodeBatches('aaaaaaaaaaaa', [{ topic: 'user:u', version: 1 }], []);
    const [theirs] = encodeBatches('bbbbbbbbbbbb', [{ topic: 'user:u', version: 1 }], []);
    expect(inbox.read(own!)).toBeNull();
    expect(inbox.read(theirs!)).toEqual({ t: 'refs', o: 'bbbbbbbbbbbb', d: [{ topic: 'user:u', version: 1 }] });
    expect(inbox.unread).toEqual({ version: 0, shape: 0 });
  });

  it('puts every message on its channel', () => {
    expect(channelOf({ t: 'notification', d: { id: crypto.randomUUID() } })).toBe(NOTIFICATION_COMMITTED_CHANNEL);
    expect(channelOf({ t: 'hint', d: { topic: 'user:u', type: 'balance', payload: null } })).toBe(REALTIME_CHANNEL);
  });
});

describe('a process hearing a protocol it does not speak (a rolling deploy)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  // As a process of the previous release sends an event today: no version.
  const old = '{"topic":"challenges","version":7,"type":"challenge.created","payload":{}}';
  const event = (topic: string, version: number) => encode({ t: 'event', d: { topic, version, type: 'x', payloadJson: '{}' } });
  const newer = `{"p":${PROCESS_PROTOCOL + 1},"t":"event","d":{"topic":"challenges","v":8}}`;

  it('the hub logs and counts it, and goes on reading what it understands', async () => {
    const warned: unknown[][] = [];
    const log = Object.assign(Object.create(Fastify({ logger: false }).log) as FastifyBaseLogger, {
      warn: (...args: unknown[]) => warned.push(args),
    });
    const hub = new RealtimeHub({ db: database.db, log, verify: async () => null, authorize: async () => false });
    await hub.start();
    try {
      database.db.notifyAfterCommit(REALTIME_CHANNEL, old);
      database.db.notifyAfterCommit(REALTIME_CHANNEL, newer);
      database.db.notifyAfterCommit(REALTIME_CHANNEL, encode({ t: 'hint', d: { topic: 'user:u', type: 'balance', payload: null } }));
      await vi.waitFor(() => expect(hub.inbox.unread).toEqual({ version: 2, shape: 0 }));
      expect(warned).toHaveLength(2);
      expect(warned[1]).toEqual([
        expect.objectContaining({ problem: 'version', count: 2, text: newer }),
        expect.stringMatching(/not understood/),
      ]);
    } finally {
      await hub.close();
    }
  });

  it('the challenges cache clears itself, since the payload may have been a change to the list', async () => {
    const cache = new ChallengeListCache();
    const unlisten = await cache.listen(database.db, { warn: () => undefined });
    try {
      const before = cache.generation;
      database.db.notifyAfterCommit(REALTIME_CHANNEL, old);
      await vi.waitFor(() => expect(cache.generation).toBe(before + 1));
      database.db.notifyAfterCommit(REALTIME_CHANNEL, event('challenges', 9));
      await vi.waitFor(() => expect(cache.generation).toBe(before + 2));
      database.db.notifyAfterCommit(REALTIME_CHANNEL, event('user:u', 1));
      database.db.notifyAfterCommit(REALTIME_CHANNEL, encodeBatches('cccccccccccc', [{ topic: 'challenges', version: 10 }], [])[0]!);
      await vi.waitFor(() => expect(cache.generation).toBe(before + 3));
    } finally {
      await unlisten();
    }
  });
});
