// Compression: a built asset goes out as the brotli or gzip copy the web build made beside it,
// to a browser that takes that encoding; JSON over 1 KB is compressed on the fly.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.ts';

let t: TestApp;
let webDir: string;
const script = Buffer.from(`export const words = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => `word${i}`))};\n`);
// Marked copies, so the test sees which file was sent rather than a fresh compression.
const brCopy = zlib.brotliCompressSync(Buffer.concat([script, Buffer.from('// br copy\n')]));
const gzCopy = zlib.gzipSync(Buffer.concat([script, Buffer.from('// gz copy\n')]));

beforeAll(async () => {
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'versus-compress-'));
  fs.mkdirSync(path.join(webDir, 'assets'));
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(webDir, 'assets', 'main-abc123.js'), script);
  fs.writeFileSync(path.join(webDir, 'assets', 'main-abc123.js.br'), brCopy);
  fs.writeFileSync(path.join(webDir, 'assets', 'main-abc123.js.gz'), gzCopy);
  t = await createTestApp({ webDir });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  t.app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('a built asset', () => {
  it('is sent as its brotli copy to a browser that takes br', async () => {
    const res = await get('/assets/main-abc123.js', 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.rawPayload.equals(brCopy)).toBe(true);
  });

  it('is sent as its gzip copy to a browser that takes only gzip, and as it is to one that takes neither', async () => {
    const gz = await get('/assets/main-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.equals(gzCopy)).toBe(true);
    const plain = await get('/assets/main-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(script)).toBe(true);
  });
});

describe('a JSON answer', () => {
  it('over 1 KB is gzipped for a client that takes gzip', async () => {
    const res = await get('/api/openapi.json', 'gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    const json = JSON.parse(zlib.gunzipSync(res.rawPayload).toString());
    expect(json.openapi).toMatch(/^3\./);
    expect(res.rawPayload.length).toBeLessThan(JSON.stringify(json).length / 3);
  });

  it('under 1 KB goes out as it is', async () => {
    const res = await get('/api/health', 'gzip, br');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json().status).toBe('ok');
  });
});

describe('a compressed request body', () => {
  it('is held to the body limit once inflated (a small gzip of 10 MB is refused)', async () => {
    const bomb = zlib.gzipSync(Buffer.from(`{"email":"${'a'.repeat(10 * 1024 * 1024)}"}`));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: bomb,
    });
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(res.statusCode, res.body).toBe(413);
  });
});
