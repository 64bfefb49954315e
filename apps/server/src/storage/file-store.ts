// Where uploads live, by FILE_STORE: the database by default, so every process serves every file; disk;
// or an S3-compatible bucket.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Queryable } from '../db/database.ts';

export interface StoredFile {
  data: Buffer;
  contentType: string;
  size: number;
}

/** A file received from a user, not yet stored. */
export type UploadedFile = Pick<StoredFile, 'data' | 'contentType'>;

export interface FileStore {
  /** Keys are server-made `a-z0-9/-.` paths; `within`: the transaction recording the file, which the database store writes in. */
  put(key: string, data: Buffer, contentType: string, within?: Queryable): Promise<void>;
  /** The file, or null when there is none. */
  get(key: string): Promise<StoredFile | null>;
  /** Removes the file; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Throws when nothing can be stored (SPEC §7's missing bucket: an unwritable folder, no such bucket). */
  check(): Promise<void>;
  /** Lets go of connections (the S3 client's sockets). */
  close?(): void;
}

const KEY = /^[a-z0-9][a-z0-9/._-]{0,200}$/;

export function checkKey(key: string): void {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`FileStore: invalid key "${key}"`);
}

/** A key for a new file: `${prefix}/${uuid}.${ext}`. */
export function newKey(prefix: string, contentType: string): string {
  const ext = contentType.split('/')[1]?.replace('jpeg', 'jpg') ?? 'bin';
  return `${prefix}/${crypto.randomUUID()}.${ext}`;
}

export class DiskFileStore implements FileStore {
  constructor(private readonly root: string) {}

  private where(key: string): string {
    checkKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    const file = this.where(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Written beside, then renamed: a reader never sees half a file.
    const temp = `${file}.${process.pid}.tmp`;
    await fs.writeFile(temp, data);
    await fs.writeFile(`${file}.type`, contentType);
    await fs.rename(temp, file);
  }

  async get(key: string): Promise<StoredFile | null> {
    const file = this.where(key);
    try {
      const [data, contentType] = await Promise.all([fs.readFile(file), fs.readFile(`${file}.type`, 'utf8')]);
      return { data, contentType, size: data.length };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.where(key);
    await fs.rm(file, { force: true });
    await fs.rm(`${file}.type`, { force: true });
  }

  async check(): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
    await fs.access(this.root, fs.constants.W_OK);
  }
}

/** FILE_STORE=disk: on disk under the data directory. */
export function diskStore(dataDir: string): FileStore {
  return new DiskFileStore(path.join(dataDir, 'uploads'));
}
