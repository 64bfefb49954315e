import { describe, expect, it } from 'vitest';
import {
  REALTIME_ERROR_CODES,
  REALTIME_ERROR_MESSAGES,
  REALTIME_PROTOCOL,
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
