// FILE_STORE=postgres, the default: rows of stored_files, so any process serves any upload with no store to
// run beside it.
import type { Queryable } from '../db/database.ts';
import { checkKey, type FileStore, type StoredFile } from './file-store.ts';

interface FileRow {
  content_type: string;
  size: number;
  /** node-postgres gives a Buffer, PGlite a Uint8Array. */
  data: Uint8Array;
}

export class PostgresFileStore implements FileStore {
  constructor(private readonly db: Queryable) {}

  async put(key: string, data: Buffer, contentType: string, within?: Queryable): Promise<void> {
    checkKey(key);
    await (within ?? this.db).query(
      `INSERT INTO stored_files (key, content_type, size, data) VALUES ($1, $2, $3, $4)
       ON CONFLICT (key) DO UPDATE
          SET content_type = excluded.content_type, size = excluded.size, data = excluded.data, created_at = now()`,
      [key, contentType, data.length, data],
    );
  }

  async get(key: string): Promise<StoredFile | null> {
    checkKey(key);
    const [row] = await this.db.query<FileRow>('SELECT content_type, size, data FROM stored_files WHERE key = $1', [key]);
    if (!row) return null;
    const data = Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength);
    return { data, contentType: row.content_type, size: row.size };
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    await this.db.query('DELETE FROM stored_files WHERE key = $1', [key]);
  }

  async check(): Promise<void> {
    // The table is the schema's (migrate runs before any feature starts): always there.
  }
}
