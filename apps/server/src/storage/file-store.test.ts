import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileStoreContract } from './file-store.contract.ts';
import { DiskFileStore, diskStore, newKey } from './file-store.ts';

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await fs.rm(root, { recursive: true, force: true });
});

async function store() {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'versus-store-'));
  roots.push(root);
  return { root, store: new DiskFileStore(root) };
}

describe('DiskFileStore', () => {
  it('puts, gets and deletes a file with its content type', async () => {
    const { root, store: s } = await store();
    const key = newKey('evidence/m1', 'image/jpeg');
    expect(key).toMatch(/^evidence\/m1\/[0-9a-f-]{36}\.jpg$/);
    await s.put(key, Buffer.from('bytes'), 'image/jpeg');
    expect(await fs.readFile(path.join(root, key), 'utf8')).toBe('bytes');
    expect(await s.get(key)).toEqual({ data: Buffer.from('bytes'), contentType: 'image/jpeg', size: 5 });
    await s.delete(key);
    expect(await s.get(key)).toBeNull();
    await s.delete(key);
  });

  it('refuses keys that could leave its directory', async () => {
    const { store: s } = await store();
    for (const key of ['../etc/passwd', '/abs', 'a/../../b', 'Upper/x', '']) {
      await expect(s.put(key, Buffer.from('x'), 'image/png')).rejects.toThrow(/invalid key/);
    }
  });

  it('the app store lives under the data directory', () => {
    expect(diskStore('/var/versus')).toEqual(new DiskFileStore(path.join('/var/versus', 'uploads')));
  });

  it('cannot take files where its folder cannot be made', async () => {
    await expect(diskStore('/dev/null/nowhere').check()).rejects.toThrow();
  });
});

let disk: DiskFileStore;
beforeAll(async () => {
  disk = (await store()).store;
});
fileStoreContract('DiskFileStore', () => disk);
