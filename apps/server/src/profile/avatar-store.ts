// The avatars bucket (SPEC §7 Storage) as the `avatars/` prefix of the app's FileStore.
import { AVATAR_BUCKET } from '@versus/domain/profile';
import type { AppContext } from '../context.ts';
import type { FileStore, StoredFile } from '../storage/file-store.ts';

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

/** Null when the store cannot take files (SPEC §7's missing bucket: uploads refused, the rest runs). */
export async function avatarStoreOf(ctx: Pick<AppContext, 'files' | 'log'>): Promise<AvatarStore | null> {
  try {
    await ctx.files.check();
  } catch (error) {
    ctx.log.warn({ err: error }, 'avatar uploads disabled: the file store cannot take files');
    return null;
  }
  return bucketOf(ctx.files);
}
