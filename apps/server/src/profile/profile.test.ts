// The profile API on real PostgreSQL: avatar rules (SPEC §5), stats, and the profile screen's edits.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, USERNAME_RULE } from '@versus/domain';
import type { User } from '@versus/domain/auth';
import type { ApiErrorBody } from '@versus/domain/errors';
import { PROFILE } from '@versus/domain/messages';
import { createTestApp, type TestApp } from '../test/app.ts';
import { signUp } from '../realtime/test-socket.ts';
import { buildApp } from '../app.ts';

interface Player {
  id: string;
  headers: { authorization: string };
}

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

async function player(label = 'prof'): Promise<Player> {
  const { userId, token } = await signUp(t.app, label);
  return { id: userId, headers: { authorization: `Bearer ${token}` } };
}

function form(file: { type: string; data: Buffer; name?: string; field?: string } | null) {
  const boundary = `----versus${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n`)];
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\n` +
          `Content-Disposition: form-data; name="${file.field ?? 'avatar'}"; filename="${file.name ?? 'me'}"\r\n` +
          `Content-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const MB = 1024 * 1024;
const png = (size = 300) => {
  const data = Buffer.alloc(size, 7);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(data);
  return data;
};
const ascii = (text: string, size = 64) => {
  const data = Buffer.alloc(Math.max(size, text.length), 1);
  Buffer.from(text, 'latin1').copy(data);
  return data;
};
const SAMPLES = {
  'image/jpeg': Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 2)]),
  'image/png': png(),
  'image/gif': ascii('GIF89a'),
  'image/webp': ascii('RIFF\0\0\0\0WEBPVP8 '),
  'image/avif': ascii('\0\0\0\x1cftypavif'),
} as const;

async function upload(as: Player | null, profileId: string, file: Parameters<typeof form>[0], app = t.app) {
  const body = form(file);
  const res = await app.inject({
    method: 'PUT',
    url: `/api/profiles/${profileId}/avatar`,
    headers: { ...body.headers, ...(as?.headers ?? {}) },
    payload: body.payload,
  });
  return { status: res.statusCode, json: res.json<{ user: User } & ApiErrorBody>() };
}

const avatarOf = async (id: string) =>
  (await t.database.db.query<{ avatar_url: string | null }>('SELECT avatar_url FROM profiles WHERE id = $1', [id]))[0]!.avatar_url;
/** The avatar files stored for a player (FILE_STORE=postgres, the default: rows of stored_files). */
const uploadsOf = async (id: string) =>
  (await t.database.db.query<{ key: string }>('SELECT key FROM stored_files WHERE key LIKE $1 ORDER BY key', [`avatars/${id}/%`])).map(
    (r) => r.key.split('/').pop(),
  );
const storedBytes = async (key: string) =>
  (await t.database.db.query<{ data: Buffer }>('SELECT data FROM stored_files WHERE key = $1', [key]))[0]?.data;

describe('avatar upload', () => {
  it('stores each allowed type at {userId}/{userId}-{timestamp}.{ext}, serves it cached, and keeps only the latest', async () => {
    const me = await player();
    const ext = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp', 'image/avif': 'avif' } as const;
    let previous: string | null = null;
    for (const [type, data] of Object.entries(SAMPLES) as [keyof typeof SAMPLES, Buffer][]) {
      const before = Date.now();
      const r = await upload(me, me.id, { type, data });
      expect(r.status).toBe(200);
      const url = r.json.user.avatar as string;
      const match = new RegExp(`^/api/avatars/${me.id}/${me.id}-(\\d+)\\.${ext[type]}$`).exec(url);
      expect(match, url).not.toBeNull();
      expect(Number(match![1])).toBeGreaterThanOrEqual(before);
      expect(Number(match![1])).toBeLessThanOrEqual(Date.now());
      expect(await avatarOf(me.id)).toBe(url);
      expect(await storedBytes(`avatars/${me.id}/${url.split('/').pop()}`)).toEqual(data);
      // The previous upload is gone: one file per player.
      expect(await uploadsOf(me.id)).toEqual([url.split('/').pop()]);

      // Served to anyone (an <img> sends no token), with its type and SPEC's cache 3600.
      const served = await t.app.inject({ method: 'GET', url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(type);
      expect(served.headers['cache-control']).toBe('public, max-age=3600, immutable');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.rawPayload).toEqual(data);
      const etag = served.headers.etag as string;
      expect(etag).toMatch(/^".+"$/);
      const again = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      if (previous) expect((await t.app.inject({ method: 'GET', url: previous })).statusCode).toBe(404);
      previous = url;
    }
    // The signed-in user shows it (the header's avatar reads user.avatar).
    const user = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: me.headers });
    expect(user.json().user.avatar).toBe(previous);
  });

  it("refuses with SPEC's three messages, sniffs the bytes, and changes nothing", async () => {
    const me = await player();
    const ok = await upload(me, me.id, { type: 'image/png', data: png() });
    const kept = ok.json.user.avatar as string;
    const cases: [Parameters<typeof form>[0], string][] = [
      [{ type: 'text/plain', data: ascii('hello') }, 'File must be an image'],
      [{ type: 'application/pdf', data: ascii('%PDF-1.4') }, 'File must be an image'],
      [{ type: 'image/bmp', data: ascii('BM......') }, 'Unsupported image format: bmp'],
      [{ type: 'image/svg+xml', data: ascii('<svg xmlns="http://www.w3.org/2000/svg"></svg>') }, 'Unsupported image format: svg+xml'],
      [{ type: 'image/tiff', data: ascii('II*\0') }, 'Unsupported image format: tiff'],
      // Named an image, but the bytes are not one of ours.
      [{ type: 'image/png', data: ascii('not really a png at all') }, 'File must be an image'],
      [{ type: 'image/jpeg', data: ascii('<script>alert(1)</script>') }, 'File must be an image'],
      [{ type: 'image/gif', data: ascii('BM......') }, 'File must be an image'],
      [{ type: 'image/png', data: png(5 * MB + 1) }, 'File size must be less than 5MB'],
      [{ type: 'image/png', data: png(9 * MB) }, 'File size must be less than 5MB'],
      [null, PROFILE.avatarMissing],
    ];
    for (const [file, message] of cases) {
      const r = await upload(me, me.id, file);
      expect(r.status, message).toBe(400);
      expect(r.json.error).toEqual({ code: 'invalid_file', message, field: 'avatar' });
    }
    expect(await avatarOf(me.id)).toBe(kept);
    expect(await uploadsOf(me.id)).toEqual([kept.split('/').pop()]);
    // A JSON body is no upload either.
    const json = await t.app.inject({ method: 'PUT', url: `/api/profiles/${me.id}/avatar`, headers: me.headers, payload: { avatar: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(json.json().error.message).toBe(PROFILE.avatarMissing);
  });

  it('a broken or overfull form is a 400 with our message, never a 500, and changes nothing', async () => {
    const me = await player();
    const kept = (await upload(me, me.id, { type: 'image/png', data: png() })).json.user.avatar as string;
    const whole = form({ type: 'image/png', data: png() });
    const boundary = whole.headers['content-type'].split('boundary=')[1]!;
    const filePart = `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="x"\r\nContent-Type: image/png\r\n\r\n`;
    const cases: [string, Buffer, string][] = [
      ['cut short', whole.payload.subarray(0, 200), whole.headers['content-type']],
      [
        'no closing boundary',
        whole.payload.subarray(0, whole.payload.length - `--${boundary}--\r\n`.length),
        whole.headers['content-type'],
      ],
      ['not a form at all', Buffer.from('hello there'), whole.headers['content-type']],
      ['no boundary', whole.payload, 'multipart/form-data'],
      ['two files', Buffer.concat([Buffer.from(filePart), png(), Buffer.from('\r\n'), whole.payload]), whole.headers['content-type']],
    ];
    for (const [label, payload, contentType] of cases) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/profiles/${me.id}/avatar`,
        headers: { ...me.headers, 'content-type': contentType },
        payload,
      });
      expect(res.statusCode, `${label}: ${res.body}`).toBe(400);
      expect(res.json().error, label).toEqual({ code: 'invalid_file', message: PROFILE.uploadUnreadable, field: 'avatar' });
    }
    expect(await avatarOf(me.id)).toBe(kept);
    expect(await uploadsOf(me.id)).toEqual([kept.split('/').pop()]);
  });

  it('accepts exactly 5 MB, and stores a PNG sent as a JPEG as the PNG it is', async () => {
    const me = await player();
    const big = await upload(me, me.id, { type: 'image/png', data: png(5 * MB) });
    expect(big.status).toBe(200);
    const renamed = await upload(me, me.id, { type: 'image/jpeg', data: png(), name: 'me.jpg' });
    expect(renamed.status).toBe(200);
    expect(renamed.json.user.avatar).toMatch(/\.png$/);
    expect((await t.app.inject({ method: 'GET', url: renamed.json.user.avatar as string })).headers['content-type']).toBe('image/png');
  });

  it("never writes another player's avatar; anonymous is 401; removal clears it", async () => {
    const a = await player('owner');
    const b = await player('other');
    const mine = (await upload(a, a.id, { type: 'image/png', data: png() })).json.user.avatar as string;

    const foreign = await upload(b, a.id, { type: 'image/gif', data: SAMPLES['image/gif'] });
    expect(foreign.status).toBe(403);
    expect(foreign.json.error).toEqual({ code: 'forbidden', message: AUTH.forbidden });
    const anonymous = await upload(null, a.id, { type: 'image/gif', data: SAMPLES['image/gif'] });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error.message).toBe(AUTH.signInRequired);
    const removeForeign = await t.app.inject({ method: 'DELETE', url: `/api/profiles/${a.id}/avatar`, headers: b.headers });
    expect(removeForeign.statusCode).toBe(403);
    expect(await avatarOf(a.id)).toBe(mine);
    expect(await uploadsOf(a.id)).toEqual([mine.split('/').pop()]);
    expect(await uploadsOf(b.id)).toEqual([]);

    // B's own upload lands under B's id, never A's.
    const theirs = (await upload(b, b.id, { type: 'image/gif', data: SAMPLES['image/gif'] })).json.user.avatar as string;
    expect(theirs.startsWith(`/api/avatars/${b.id}/${b.id}-`)).toBe(true);
    expect(await avatarOf(a.id)).toBe(mine);

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/profiles/${a.id}/avatar`, headers: a.headers });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().user.avatar).toBeNull();
    expect(await uploadsOf(a.id)).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: mine })).statusCode).toBe(404);
  });

  it("a profile pointed at another player's uploaded avatar never removes that player's file", async () => {
    const a = await player('victim');
    const b = await player('pointer');
    const mine = (await upload(a, a.id, { type: 'image/png', data: png() })).json.user.avatar as string;
    // B's profile may name any uploaded image path (PATCH /api/auth/user takes avatar_url) ...
    const pointed = await t.app.inject({ method: 'PATCH', url: '/api/auth/user', headers: b.headers, payload: { avatar_url: mine } });
    expect(pointed.statusCode, pointed.body).toBe(200);
    expect(await avatarOf(b.id)).toBe(mine);
    // ... but replacing or removing B's avatar only ever removes B's own uploads.
    expect((await upload(b, b.id, { type: 'image/gif', data: SAMPLES['image/gif'] })).status).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/profiles/${b.id}/avatar`, headers: b.headers })).statusCode).toBe(200);
    await t.database.db.query('UPDATE profiles SET avatar_url = $2 WHERE id = $1', [b.id, mine]);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/profiles/${b.id}/avatar`, headers: b.headers })).statusCode).toBe(200);
    expect(await uploadsOf(a.id)).toEqual([mine.split('/').pop()]);
    expect(await uploadsOf(b.id)).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: mine })).statusCode).toBe(200);
    expect(await avatarOf(a.id)).toBe(mine);
  });

  it('serves only names of the bucket format', async () => {
    const me = await player();
    for (const url of [
      `/api/avatars/${me.id}/..%2F..%2Fsecret`,
      `/api/avatars/${me.id}/${me.id}-1.svg`,
      `/api/avatars/${me.id}/${crypto.randomUUID()}-1.png`,
      `/api/avatars/x/y`,
    ]) {
      const r = await t.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(404);
    }
  });

  it("without the avatars bucket: uploads are refused with SPEC's message and the screen is told", async () => {
    // Another server process on the same database storing on disk where no folder can be made.
    const missing = await buildApp({
      config: { ...t.config, files: { kind: 'disk' }, dataDir: '/dev/null/nowhere' },
      db: t.database.db,
      logger: false,
    });
    await missing.ready();
    try {
      const me = await player();
      const profile = await missing.inject({ method: 'GET', url: '/api/profile', headers: me.headers });
      expect(profile.statusCode).toBe(200);
      expect(profile.json().avatarUploads).toEqual({
        enabled: false,
        message: "Storage bucket 'avatars' not found. Uploads are temporarily disabled.",
      });
      const r = await upload(me, me.id, { type: 'image/png', data: png() }, missing);
      expect(r.status).toBe(503);
      expect(r.json.error).toEqual({ code: 'storage_unavailable', message: PROFILE.bucketMissing });
      expect(await avatarOf(me.id)).toBeNull();
      const working = await t.app.inject({ method: 'GET', url: '/api/profile', headers: me.headers });
      expect(working.json().avatarUploads).toEqual({ enabled: true, message: null });
    } finally {
      await missing.close();
    }
  });
});

describe('profile edits the screen makes (PATCH /api/auth/user)', () => {
  it('changes the display name and username with their rules; a taken username is refused', async () => {
    const me = await player('editor');
    const other = await player('taken');
    const otherName = (await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: other.headers })).json().user.username as string;
    const patch = (body: unknown) => t.app.inject({ method: 'PATCH', url: '/api/auth/user', headers: me.headers, payload: body as object });

    const ok = await patch({ display_name: '  Neo  ', username: 'neo_the_one' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ displayName: 'Neo', username: 'neo_the_one' });

    const refused: [unknown, number, string, string][] = [
      [{ username: 'ab' }, 400, 'username', USERNAME_RULE],
      [{ username: 'has space' }, 400, 'username', USERNAME_RULE],
      [{ username: '   ' }, 400, 'username', AUTH.usernameRequired],
      [{ username: otherName.toUpperCase() }, 409, 'username', AUTH.usernameTaken],
      [{ display_name: '' }, 400, 'display_name', AUTH.displayNameInvalid],
      [{ display_name: 'x'.repeat(41) }, 400, 'display_name', AUTH.displayNameInvalid],
    ];
    for (const [body, status, field, message] of refused) {
      const r = await patch(body);
      expect(r.statusCode, JSON.stringify(body)).toBe(status);
      expect(r.json().error.field).toBe(field);
      expect(r.json().error.message).toContain(message);
    }
    const now = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: me.headers });
    expect(now.json().user).toMatchObject({ displayName: 'Neo', username: 'neo_the_one' });
  });

  it('switching to virtual opens the VTokens accounts at once: a private VTokens challenge can be staked right away', async () => {
    const me = await player('switch');
    const r = await t.app.inject({ method: 'PATCH', url: '/api/auth/user', headers: me.headers, payload: { account_type: 'virtual' } });
    expect(r.statusCode).toBe(200);
    expect(r.json().user.accountType).toBe('virtual');
    const token = r.json().session.access_token as string;
    // No balance read in between: the switch itself opened the accounts.
    const [opened] = await t.database.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger_operations WHERE idempotency_key = $1`,
      [`open:${me.id}:vtokens`],
    );
    expect(opened!.n).toBe(1);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/challenges',
      headers: { authorization: `Bearer ${token}` },
      payload: { game: 'tic-tac-toe', stake: 50, duration: 5, isPrivate: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().challenge.currency).toBe('vtokens');
  });
});

describe('stats', () => {
  it('are mine via /api/profile and anyone signed in may read a player’s; anonymous is 401', async () => {
    const me = await player();
    const mine = await t.app.inject({ method: 'GET', url: '/api/profile', headers: me.headers });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().stats).toEqual({
      userId: me.id,
      level: 1,
      wins: 0,
      losses: 0,
      streak: 0,
      rank: null,
      globalRating: null,
      ratings: [],
    });
    const other = await player();
    expect((await t.app.inject({ method: 'GET', url: `/api/profiles/${me.id}/stats`, headers: other.headers })).json().userId).toBe(me.id);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/profiles/${crypto.randomUUID()}/stats`, headers: other.headers })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/profiles/${me.id}/stats` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/profile' })).statusCode).toBe(401);
  });
});
