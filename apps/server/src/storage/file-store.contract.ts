// What every FileStore does, run against each one (disk, PostgreSQL, PGlite, S3).
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newKey, type FileStore } from './file-store.ts';

/** Every byte value, then random bytes: no encoding along the way may change a byte. */
export function binary(size: number): Buffer {
  const data = crypto.randomBytes(size);
  for (let i = 0; i < Math.min(256, size); i++) data[i] = i;
  return data;
}

export function fileStoreContract(name: string, store: () => FileStore): void {
  describe(`${name}: the FileStore contract`, () => {
    it('gives a file back byte for byte with its content type and size', async () => {
      const s = store();
      const key = newKey('evidence/contract', 'image/png');
      const data = binary(70_000);
      await s.put(key, data, 'image/png');
      const got = await s.get(key);
      expect(got?.contentType).toBe('image/png');
      expect(got?.size).toBe(data.length);
      expect(Buffer.compare(got!.data, data)).toBe(0);
    });

    it('holds a file of the full 5 MB upload limit, and an empty one', async () => {
      const s = store();
      const [big, empty] = [newKey('feedback/contract', 'image/jpeg'), newKey('feedback/contract', 'image/gif')];
      const data = binary(5 * 1024 * 1024);
      await s.put(big, data, 'image/jpeg');
      await s.put(empty, Buffer.alloc(0), 'image/gif');
      expect(Buffer.compare((await s.get(big))!.data, data)).toBe(0);
      expect(await s.get(empty)).toEqual({ data: Buffer.alloc(0), contentType: 'image/gif', size: 0 });
    });

    it('replaces a file put again under the same key', async () => {
      const s = store();
      const key = 'avatars/contract/same-name.png';
      await s.put(key, Buffer.from('first'), 'image/png');
      await s.put(key, Buffer.from('second, longer'), 'image/webp');
      expect(await s.get(key)).toEqual({ data: Buffer.from('second, longer'), contentType: 'image/webp', size: 14 });
    });

    it('answers null for a missing file; a delete removes it and may be repeated', async () => {
      const s = store();
      const key = newKey('avatars/contract', 'image/avif');
      expect(await s.get(key)).toBeNull();
      await s.put(key, Buffer.from('bytes'), 'image/avif');
      await s.delete(key);
      expect(await s.get(key)).toBeNull();
      await s.delete(key);
    });

    it('keeps files under neighbouring keys apart', async () => {
      const s = store();
      const prefix = `evidence/${crypto.randomUUID()}`;
      await s.put(`${prefix}/a.png`, Buffer.from('a'), 'image/png');
      await s.put(`${prefix}/a.png.b`, Buffer.from('b'), 'image/png');
      await s.delete(`${prefix}/a.png`);
      expect(await s.get(`${prefix}/a.png.b`)).toMatchObject({ data: Buffer.from('b') });
    });

    it('refuses keys that could leave their place, storing nothing', async () => {
      const s = store();
      for (const key of ['../etc/passwd', '/abs', 'a/../../b', 'Upper/x', '', 'a b', `x/${'y'.repeat(201)}`]) {
        await expect(s.put(key, Buffer.from('x'), 'image/png'), key).rejects.toThrow(/invalid key/);
        await expect(s.get(key), key).rejects.toThrow(/invalid key/);
        await expect(s.delete(key), key).rejects.toThrow(/invalid key/);
      }
    });

    it('can take files', async () => {
      await expect(store().check()).resolves.toBeUndefined();
    });
  });
}
