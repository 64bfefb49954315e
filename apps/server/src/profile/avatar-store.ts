// The avatars bucket (SPEC §7 Storage) on any FileStore: on disk by default, where an
// S3-compatible store would use the bucket as its bucket and the path as the object key.
import fs from 'node:fs/promises';
import path from 'node:path';
import { AVATAR_BUCKET } from '@versus/domain/profile';
import type { AppContext } from '../context.ts';
import { diskStore, type FileStore, type StoredFile } from '../storage/file-store.ts';

export interface AvatarStore {
  put(avatarPath: string, data: Buffer, contentType: string): Promise<void>;
  get(avatarPath: string): Promise<StoredFile | null>;
  delete(avatarPath: string): Promise<void>;
}

/** The bucket as a prefix of one FileStore's keys. */
export function bucketOf(store: FileStore, bucket = AVATAR_BUCKET): AvatarStore {
  const key = (avatarPath: string) => `${bucket}/${avatarPath}`;
  return {
    put: (avatarPath, data, contentType) => store.put(key(avatarPath), data, contentType),
    get: (avatarPath) => store.get(key(avatarPath)),
    delete: (avatarPath) => store.delete(key(avatarPath)),
  };
}

/**
 * The app's avatar store on disk under DATA_DIR/uploads/avatars, or null when that folder
 * cannot be made or written (a missing bucket: uploads are refused with SPEC's message, the
 * rest of the app runs).
 */
export async function diskAvatarStore(ctx: Pick<AppContext, 'config' | 'log'>): Promise<AvatarStore | null> {
  const folder = path.join(ctx.config.dataDir, 'uploads', AVATAR_BUCKET);
  try {
    await fs.mkdir(folder, { recursive: true });
    await fs.access(folder, fs.constants.W_OK);
  } catch (error) {
    ctx.log.warn({ err: error, folder }, 'avatar uploads disabled: the avatars folder cannot be written');
    return null;
  }
  return bucketOf(diskStore(ctx.config.dataDir));
}
