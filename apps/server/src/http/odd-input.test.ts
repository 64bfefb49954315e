// NULs, lone surrogates and unreadable multipart forms are each a 400 (a socket: an error frame) with a
// catalogue message, never a 500, and change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC } from '@versus/domain/messages';
import { REALTIME_PROTOCOL } from '@versus/domain/realtime';
import { listen, TestSocket } from '../realtime/test-socket.ts';
import { createResultsKit, multipartBody, pngOf, type ResultsKit, type TestPlayer } from '../results/results.test-kit.ts';

let kit: ResultsKit;
beforeAll(async () => {
  kit = await createResultsKit();
});
afterAll(async () => kit?.close());

const NUL = '\u0000';
const refusedForCharacters = { code: 'invalid_input', message: GENERIC.invalidCharacters };
const count = async (sql: string, params: unknown[] = []) => Number((await kit.t.database.db.query<{ n: number }>(sql, params))[0]!.n);
const displayName = async (id: string) =>
  (await kit.t.database.db.query<{ display_name: string }>('SELECT display_name FROM profiles WHERE id = $1', [id]))[0]!.display_name;

/** How many files the app's store holds (FILE_STORE=postgres, the default: rows of stored_files). */
const storedFiles = () => count('SELECT count(*)::int AS n FROM stored_files');

describe('a NUL character', () => {
  it('in display_name is refused on both profile edits; the name stays', async () => {
    const p = await kit.signUp();
    const before = await displayName(p.id);
    for (const [method, url] of [
      ['PATCH', '/api/auth/user'],
      ['PATCH', `/api/profiles/${p.id}`],
    ] as const) {
      const res = await kit.t.app.inject({ method, url, headers: p.headers, payload: { display_name: `Ace${NUL}Player` } });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json().error, url).toMatchObject({ ...refusedForCharacters, field: 'display_name' });
    }
    expect(await displayName(p.id)).toBe(before);
  });

  it('nested anywhere in a body (a challenge rule, a chat message, a signup field) is refused; nothing is created', async () => {
    const { matchId, p1 } = await kit.externalMatch();
    const challenges = () => count('SELECT count(*)::int AS n FROM challenges WHERE creator_id = $1', [p1.id]);
    const chats = () => count('SELECT count(*)::int AS n FROM match_chat WHERE match_id = $1', [matchId]);
    const users = () => count('SELECT count(*)::int AS n FROM users');
    const [challengesBefore, chatsBefore, usersBefore] = [await challenges(), await chats(), await users()];

    const challenge = {
      game: 'fifa-24',
      platform: 'pc',
      gamertag: 'Creator',
      stake: 5,
      duration: 30,
      rules: ['No pausing', `Best of 3${NUL}`],
    };
    const created = await kit.api('POST', '/api/challenges', { as: p1, body: challenge });
    expect(created.status, JSON.stringify(created.body)).toBe(400);
    expect(created.body.error).toMatchObject({ ...refusedForCharacters, field: 'rules.1' });

    const chat = await kit.api('POST', `/api/matches/${matchId}/chat`, { as: p1, body: { body: `gg${NUL}` } });
    expect(chat.status, JSON.stringify(chat.body)).toBe(400);
    expect(chat.body.error).toMatchObject(refusedForCharacters);

    const signup = await kit.api('POST', '/api/auth/signup', {
      body: {
        email: 'nul@odd.test',
        password: 'secret123',
        options: {
          data: {
            account_type: 'real',
            username: `nul${NUL}name`,
            full_name: 'N',
            phone: '+44 20 7946 0000',
            date_of_birth: '1995-06-15',
            age_verified: true,
          },
        },
      },
    });
    expect(signup.status, JSON.stringify(signup.body)).toBe(400);
    expect(signup.body.error).toMatchObject(refusedForCharacters);

    // In a key too (jsonb cannot hold it either).
    const keyed = await kit.api('POST', '/api/challenges', { as: p1, body: { ...challenge, rules: [], [`x${NUL}`]: 1 } });
    expect(keyed.status, JSON.stringify(keyed.body)).toBe(400);
    expect(keyed.body.error).toMatchObject(refusedForCharacters);

    expect([await challenges(), await chats(), await users()]).toEqual([challengesBefore, chatsBefore, usersBefore]);
  });

  it("in a query string is refused (an admin's dispute filter reached SQL, answering 500); the player search cleans its own", async () => {
    const admin = await kit.admin();
    const listed = await kit.api('GET', '/api/admin/disputes?game=%00', { as: admin });
    expect(listed.status, JSON.stringify(listed.body)).toBe(400);
    expect((listed.body as { error: unknown }).error).toMatchObject({ ...refusedForCharacters, field: 'game' });
    expect((await kit.api('GET', '/api/admin/disputes?game=fifa-24', { as: admin })).status).toBe(200);
    expect((await kit.api('GET', '/api/social/search?q=ab%00', { as: admin })).status).toBe(200);
  });

  it('in a multipart field is refused; nothing is stored', async () => {
    const p = await kit.signUp();
    const feedback = () => count('SELECT count(*)::int AS n FROM beta_feedback WHERE user_id = $1', [p.id]);
    const files = await storedFiles();
    const form = multipartBody({ message: `Looks off${NUL}`, pageUrl: '/wallet', appVersion: '0.1.0' });
    const res = await kit.api('POST', '/api/feedback', { as: p, payload: form.payload, headers: form.headers });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toMatchObject({ ...refusedForCharacters, field: 'message' });
    expect(await feedback()).toBe(0);
    expect(await storedFiles()).toBe(files);
  });
});

describe('an unpaired UTF-16 surrogate', () => {
  it('in a chat message, a challenge rule, a display name or a sign-up field is refused; nothing changes', async () => {
    const { matchId, p1 } = await kit.externalMatch();
    const challenges = () => count('SELECT count(*)::int AS n FROM challenges WHERE creator_id = $1', [p1.id]);
    const chats = () => count('SELECT count(*)::int AS n FROM match_chat WHERE match_id = $1', [matchId]);
    const users = () => count('SELECT count(*)::int AS n FROM users');
    const [challengesBefore, chatsBefore, usersBefore, nameBefore] = [
      await challenges(),
      await chats(),
      await users(),
      await displayName(p1.id),
    ];

    const chat = await kit.api('POST', `/api/matches/${matchId}/chat`, { as: p1, body: { body: 'hi \ud800' } });
    expect(chat.status, JSON.stringify(chat.body)).toBe(400);
    expect(chat.body.error).toMatchObject({ ...refusedForCharacters, field: 'body' });

    const challenge = { game: 'fifa-24', platform: 'pc', gamertag: 'Creator', stake: 5, duration: 30, rules: ['x\udc00'] };
    const created = await kit.api('POST', '/api/challenges', { as: p1, body: challenge });
    expect(created.status, JSON.stringify(created.body)).toBe(400);
    expect(created.body.error).toMatchObject({ ...refusedForCharacters, field: 'rules.0' });
    // Reversed pair: a low surrogate before a high one pairs with neither.
    const reversed = await kit.api('POST', '/api/challenges', { as: p1, body: { ...challenge, rules: ['\udc00\ud800'] } });
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(400);

    const renamed = await kit.t.app.inject({
      method: 'PATCH',
      url: '/api/auth/user',
      headers: p1.headers,
      payload: { display_name: 'Ace\ud83d' },
    });
    expect(renamed.statusCode, renamed.body).toBe(400);
    expect(renamed.json().error).toMatchObject({ ...refusedForCharacters, field: 'display_name' });

    const signup = await kit.api('POST', '/api/auth/signup', {
      body: {
        email: 'lone@odd.test',
        password: 'secret123',
        options: {
          data: {
            account_type: 'real',
            username: 'lone',
            full_name: 'Lone \udfff',
            phone: '+44 20 7946 0000',
            date_of_birth: '1995-06-15',
            age_verified: true,
          },
        },
      },
    });
    expect(signup.status, JSON.stringify(signup.body)).toBe(400);
    expect(signup.body.error).toMatchObject(refusedForCharacters);

    expect([await challenges(), await chats(), await users(), await displayName(p1.id)]).toEqual([
      challengesBefore,
      chatsBefore,
      usersBefore,
      nameBefore,
    ]);
  });

  it('paired (an emoji) is text like any other', async () => {
    const { matchId, p1 } = await kit.externalMatch();
    const chat = await kit.api('POST', `/api/matches/${matchId}/chat`, { as: p1, body: { body: 'gg \ud83c\udfc6' } });
    expect(chat.status, JSON.stringify(chat.body)).toBe(200);
    expect(chat.body.body).toBe('gg \ud83c\udfc6');
  });

  it('in a query string cannot arrive: its UTF-8 bytes decode to no surrogate, never a 500', async () => {
    const admin = await kit.admin();
    for (const query of ['game=%ED%A0%80', 'game=%F0%9F', 'game=%C0%80']) {
      const listed = await kit.api('GET', `/api/admin/disputes?${query}`, { as: admin });
      expect(listed.status, `${query}: ${JSON.stringify(listed.body)}`).toBeLessThan(500);
    }
    expect((await kit.api('GET', '/api/social/search?q=%ED%A0%80ab', { as: admin })).status).toBeLessThan(500);
  });

  it('or a NUL in a realtime message is answered with an error frame; the socket stays usable', async () => {
    const p = await kit.signUp();
    const url = await listen(kit.t.app);
    const socket = await TestSocket.open(url);
    try {
      for (const frame of [
        '{"t":"hello","d":{"token":"x\\ud800","protocol":' + REALTIME_PROTOCOL + '}}',
        '{"t":"sub","d":{"topic":"match:\\u0000"}}',
        '{"t":"move","d":{"matchId":"m","move":{"cell":"a1\\udc00"},"version":1}}',
      ]) {
        socket.send(frame);
        const { d } = await socket.next('error');
        expect(d.code, frame).toBe('bad_message');
        expect(d.message, frame).toContain(GENERIC.invalidCharacters);
      }
      socket.send({ t: 'hello', d: { token: p.headers.authorization.replace(/^Bearer /, ''), protocol: REALTIME_PROTOCOL } });
      expect((await socket.next('welcome')).d.userId).toBe(p.id);
    } finally {
      socket.close();
    }
  });
});

/** Forms the parser cannot read: cut short, unclosed, not a form inside, no boundary, one file too many. */
function brokenForms(fields: Record<string, string>, fileField: string): [string, Buffer, string][] {
  const whole = multipartBody(fields, { type: 'image/png', data: pngOf(400) });
  const contentType = whole.headers['content-type'];
  const boundary = contentType.split('boundary=')[1]!;
  const payload = Buffer.from(whole.payload.toString('latin1').replace('name="evidence"', `name="${fileField}"`), 'latin1');
  const filePart = `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="x"\r\nContent-Type: image/png\r\n\r\n`;
  return [
    ['cut short', payload.subarray(0, 200), contentType],
    ['no closing boundary', payload.subarray(0, payload.length - `--${boundary}--\r\n`.length), contentType],
    ['not a form at all', Buffer.from('hello there'), contentType],
    ['no boundary', payload, 'multipart/form-data'],
    ['two files', Buffer.concat([Buffer.from(filePart), pngOf(), Buffer.from('\r\n'), payload]), contentType],
  ];
}

async function expectUnreadable(as: TestPlayer, url: string, cases: [string, Buffer, string][], field: string) {
  for (const [label, payload, contentType] of cases) {
    const res = await kit.api('POST', url, { as, payload, headers: { 'content-type': contentType } });
    expect(res.status, `${label}: ${res.raw.body}`).toBe(400);
    expect(res.body.error, label).toEqual({ code: 'invalid_file', message: GENERIC.uploadUnreadable, field });
  }
}

describe('a broken multipart form', () => {
  it('on feedback is a 400 with our message; nothing is stored', async () => {
    const p = await kit.signUp();
    const files = await storedFiles();
    await expectUnreadable(
      p,
      '/api/feedback',
      brokenForms({ message: 'Looks off', pageUrl: '/wallet', appVersion: '0.1.0' }, 'screenshot'),
      'screenshot',
    );
    expect(await count('SELECT count(*)::int AS n FROM beta_feedback WHERE user_id = $1', [p.id])).toBe(0);
    expect(await storedFiles()).toBe(files);
  });

  it('on a result report with evidence is a 400 with our message; nothing is reported or stored', async () => {
    const { matchId, p1 } = await kit.externalMatch();
    const [files, status] = [await storedFiles(), await kit.matchStatus(matchId)];
    await expectUnreadable(p1, `/api/matches/${matchId}/report`, brokenForms({ outcome: 'win' }, 'evidence'), 'evidence');
    expect(await count('SELECT count(*)::int AS n FROM match_reports WHERE match_id = $1', [matchId])).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM match_evidence WHERE match_id = $1', [matchId])).toBe(0);
    expect(await kit.matchStatus(matchId)).toBe(status);
    expect(await storedFiles()).toBe(files);
  });
});
