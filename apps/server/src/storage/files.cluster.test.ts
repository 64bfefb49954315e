// Two processes, one database, separate data folders: an upload through one is served by the other, from
// the database or S3; on disk (the control) it is not.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../realtime/test-socket.ts';
import { startChildServer, type ChildServer } from '../test/child-server.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { startS3Server, type TestS3Server } from '../test/s3-server.ts';
import { binary } from './file-store.contract.ts';

let database: TestDatabase;
let s3: TestS3Server;
const servers: ChildServer[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  [database, s3] = await Promise.all([createTestDatabase(), startS3Server()]);
}, 60_000);
afterAll(async () => {
  for (const server of servers) server.kill();
  await database?.drop();
  await s3?.close();
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

/** Two server processes with these settings, each with a data directory of its own. */
async function pair(env: Record<string, string>): Promise<[ChildServer, ChildServer]> {
  const started = await Promise.all(
    [0, 1].map(async () => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'versus-files-'));
      dirs.push(dir);
      const server = await startChildServer(database.url, { DATA_DIR: dir, ...env });
      servers.push(server);
      return server;
    }),
  );
  return [started[0]!, started[1]!];
}

/** A PNG's signature, then `size` bytes in all (the avatar rules sniff the signature). */
function png(size: number): Buffer {
  const data = binary(size);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(data);
  return data;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function fetched(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, type: res.headers.get('content-type'), data: Buffer.from(await res.arrayBuffer()) };
}

/** Uploads an avatar and a feedback screenshot through `a`; answers their URLs and bytes. */
async function uploadThrough(a: ChildServer, user: { userId: string; token: string }) {
  const [avatar, screenshot] = [png(200_000), png(150_000)];
  const avatarForm = new FormData();
  avatarForm.append('avatar', new Blob([avatar], { type: 'image/png' }), 'me.png');
  const put = await fetch(`${a.http}/api/profiles/${user.userId}/avatar`, { method: 'PUT', headers: bearer(user.token), body: avatarForm });
  expect(put.status, await put.clone().text()).toBe(200);
  const avatarUrl = ((await put.json()) as { user: { avatar: string } }).user.avatar;

  const feedbackForm = new FormData();
  for (const [name, value] of Object.entries({ message: 'The wallet total looks off', pageUrl: '/wallet', appVersion: '0.1.0' }))
    feedbackForm.append(name, value);
  feedbackForm.append('screenshot', new Blob([screenshot], { type: 'image/png' }), 'shot.png');
  const sent = await fetch(`${a.http}/api/feedback`, { method: 'POST', headers: bearer(user.token), body: feedbackForm });
  expect(sent.status, await sent.clone().text()).toBe(201);
  const screenshotUrl = ((await sent.json()) as { feedback: { screenshotUrl: string } }).feedback.screenshotUrl;
  return { avatar, avatarUrl, screenshot, screenshotUrl };
}

describe('an upload through one server process', () => {
  for (const [store, env] of [
    ['the database (FILE_STORE default)', () => ({})],
    ['an S3-compatible bucket (FILE_STORE=s3)', () => s3.env],
  ] as const) {
    it(`is served by another, byte for byte with its type, from ${store}`, async () => {
      const [a, b] = await pair(env());
      const user = await signUp(a.http, 'files');
      const up = await uploadThrough(a, user);
      expect(await fetched(`${b.http}${up.avatarUrl}`)).toEqual({ status: 200, type: 'image/png', data: up.avatar });
      expect(await fetched(`${b.http}${up.screenshotUrl}`, bearer(user.token))).toEqual({
        status: 200,
        type: 'image/png',
        data: up.screenshot,
      });
    }, 60_000);
  }

  it('is not, on disk (FILE_STORE=disk): the control', async () => {
    const [a, b] = await pair({ FILE_STORE: 'disk' });
    const user = await signUp(a.http, 'files');
    const up = await uploadThrough(a, user);
    expect((await fetched(`${a.http}${up.avatarUrl}`)).status).toBe(200);
    expect((await fetched(`${b.http}${up.avatarUrl}`)).status).toBe(404);
    expect((await fetched(`${b.http}${up.screenshotUrl}`, bearer(user.token))).status).toBe(404);
  }, 60_000);
});
