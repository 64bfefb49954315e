import { describe, expect, it } from 'vitest';
import {
  REALTIME_ERROR_CODES,
  REALTIME_ERROR_MESSAGES,
  REALTIME_PROTOCOL,
  clientMessageSchema,
  parseClientMessage,
  parseServerMessage,
  splitTopic,
  topicSchema,
  type ServerMessage,
} from './realtime.ts';

const json = (value: unknown) => JSON.stringify(value);

describe('client messages', () => {
  it('reads each message of the client union', () => {
    const messages = [
      { t: 'hello', d: { token: 'abc', protocol: REALTIME_PROTOCOL } },
      { t: 'sub', d: { topic: 'user:6f1c2d3e-0000-4000-8000-000000000000' } },
      { t: 'sub', d: { topic: 'match:m1', since: 0 } },
      { t: 'sub', d: { topic: 'challenges', since: 41 } },
      { t: 'unsub', d: { topic: 'room:AB12' } },
      { t: 'ping' },
    ];
    for (const message of messages) expect(parseClientMessage(json(message))).toEqual({ ok: true, message });
  });

  it('says what is wrong with a bad message, and never throws', () => {
    const cases: Array<[string, RegExp]> = [
      ['{', /^not JSON/],
      [json({ t: 'sub' }), /^d: /],
      [json({ t: 'sub', d: { topic: 'user:1', since: -1 } }), /^d\.since: /],
      [json({ t: 'sub', d: { topic: 'user:1', since: 1.5 } }), /^d\.since: /],
      [json({ t: 'sub', d: { topic: 'Bad Topic' } }), /^d\.topic: topic must look like/],
      [json({ t: 'hello', d: { token: '', protocol: 1 } }), /^d\.token: /],
      [json({ t: 'nope', d: {} }), /^t: /],
      [json(null), /./],
      [json('ping'), /./],
    ];
    for (const [raw, error] of cases) {
      const result = parseClientMessage(raw);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatch(error);
    }
  });

  it('refuses a NUL or an unpaired surrogate anywhere, escaped or not, and reads other escapes', () => {
    const move = (m: string) => `{"t":"move","d":{"matchId":"m1","move":${m},"version":3}}`;
    const refused: Array<[string, string]> = [
      [move('"a\\u0000b"'), 'd.move'],
      [move('{"path":["\\ud800"]}'), 'd.move.path.0'],
      [move('"x\ud800"'), 'd.move'], // unescaped, as a string handed over whole
      ['{"t":"sub","d":{"topic":"user:1","\\u0000":1}}', 'd'],
    ];
    for (const [raw, at] of refused) {
      const result = parseClientMessage(raw);
      expect(result.ok, raw).toBe(false);
      if (!result.ok) expect(result.error.startsWith(`${at}: `), result.error).toBe(true);
    }
    expect(parseClientMessage(move('"\\u00e9 \\ud83c\\udfb2 \\n"'))).toEqual({
      ok: true,
      message: { t: 'move', d: { matchId: 'm1', move: 'é 🎲 \n', version: 3 } },
    });
  });
});

describe('move messages (a hand check before the schema)', () => {
  const move = (d: Record<string, unknown>) => json({ t: 'move', d });
  const bySchema = (raw: string) => {
    const result = clientMessageSchema.safeParse(JSON.parse(raw));
    if (result.success) return { ok: true, message: result.data };
    const [issue] = result.error.issues;
    return { ok: false, error: `${issue!.path.join('.')}: ${issue!.message}` };
  };

  it('reads a move exactly as the schema does', () => {
    const good = [
      move({ matchId: 'm1', move: { from: 9, to: 13 }, version: 0 }),
      move({ ref: 'r1', matchId: 'm1', move: 'e2e4', version: 7, lagMs: 0, premove: false, ack: 'errors' }),
      move({ matchId: 'x'.repeat(64), move: 0, version: 3, lagMs: 60_000, premove: true, ack: 'always', ref: '' }),
      move({ matchId: 'm1', move: null, version: 2 ** 40 }),
      move({ matchId: 'm1', move: [1, 2], version: 1, extra: 'dropped by the schema' }),
      '{"t":"move","d":{"matchId":"m1","move":1,"version":1},"x":1}',
      '{"t":"move","d":{"matchId":"m1","move":1,"version":1,"__proto__":{"polluted":true}}}',
    ];
    for (const raw of good) expect(parseClientMessage(raw), raw).toEqual(bySchema(raw));
    expect(parseClientMessage(good[1]!)).toEqual({
      ok: true,
      message: { t: 'move', d: { ref: 'r1', matchId: 'm1', move: 'e2e4', version: 7, lagMs: 0, premove: false, ack: 'errors' } },
    });
  });

  it('refuses a bad move with the same error as before', () => {
    const bad: Array<[string, string]> = [
      [move({ matchId: 'm1', move: 1, version: -1 }), 'd.version: Too small: expected number to be >=0'],
      [move({ matchId: 'm1', move: 1, version: 1.5 }), 'd.version: Invalid input: expected int, received number'],
      [move({ matchId: 'm1', move: 1, version: 2 ** 60 }), 'd.version: Too big: expected int to be <=9007199254740991'],
      [move({ matchId: 'm1', version: 1 }), 'd.move: Invalid input: expected nonoptional, received undefined'],
      [move({ matchId: 'm1', move: 1 }), 'd.version: Invalid input: expected number, received undefined'],
      [move({ matchId: 5, move: 1, version: 1 }), 'd.matchId: Invalid input: expected string, received number'],
      [move({ matchId: 'x'.repeat(65), move: 1, version: 1 }), 'd.matchId: Too big: expected string to have <=64 characters'],
      [move({ matchId: 'm1', move: 1, version: 1, lagMs: 60_001 }), 'd.lagMs: Too big: expected number to be <=60000'],
      [move({ matchId: 'm1', move: 1, version: 1, lagMs: -1 }), 'd.lagMs: Too small: expected number to be >=0'],
      [move({ matchId: 'm1', move: 1, version: 1, premove: 'yes' }), 'd.premove: Invalid input: expected boolean, received string'],
      [move({ matchId: 'm1', move: 1, version: 1, ack: 'never' }), 'd.ack: Invalid option: expected one of "always"|"errors"'],
      [move({ ref: 7, matchId: 'm1', move: 1, version: 1 }), 'd.ref: Invalid input: expected string, received number'],
      [move({ ref: 'r'.repeat(65), matchId: 'm1', move: 1, version: 1 }), 'd.ref: Too big: expected string to have <=64 characters'],
      ['{"t":"move","d":[]}', 'd: Invalid input: expected object, received array'],
      ['{"t":"move"}', 'd: Invalid input: expected object, received undefined'],
    ];
    for (const [raw, error] of bad) {
      expect(parseClientMessage(raw), raw).toEqual({ ok: false, error });
      expect(bySchema(raw), raw).toEqual({ ok: false, error });
    }
  });
});

describe('server messages', () => {
  it('reads each message of the server union', () => {
    const messages: ServerMessage[] = [
      { t: 'welcome', d: { userId: 'u1', protocol: REALTIME_PROTOCOL } },
      { t: 'event', d: { topic: 'user:u1', v: 3, type: 'balance.changed', payload: { available: 100 } } },
      { t: 'subscribed', d: { topic: 'user:u1', v: 3 } },
      { t: 'gap', d: { topic: 'user:u1' } },
      { t: 'error', d: { code: 'forbidden_topic', message: 'no', topic: 'user:u2' } },
      { t: 'pong' },
    ];
    for (const message of messages) expect(parseServerMessage(json(message))).toEqual({ ok: true, message });
  });

  it('has a closed set of error codes, each with a message', () => {
    expect(parseServerMessage(json({ t: 'error', d: { code: 'teapot', message: 'x' } })).ok).toBe(false);
    for (const code of REALTIME_ERROR_CODES) expect(REALTIME_ERROR_MESSAGES[code]).toMatch(/\w/);
  });
});

describe('topics', () => {
  it('are a prefix with an optional id', () => {
    for (const topic of ['challenges', 'user:0b7e', 'arena-join:42', 'room:ABC-12', 'match:a_b.c']) {
      expect(topicSchema.safeParse(topic).success).toBe(true);
    }
    for (const topic of ['', 'User:1', 'user:', ':1', 'user:a b', 'user:a:b', `user:${'x'.repeat(121)}`, '9lives']) {
      expect(topicSchema.safeParse(topic).success).toBe(false);
    }
  });

  it('split into prefix and id', () => {
    expect(splitTopic('match:m1')).toEqual({ prefix: 'match', id: 'm1' });
    expect(splitTopic('challenges')).toEqual({ prefix: 'challenges', id: undefined });
  });
});
