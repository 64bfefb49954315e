import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { diskStore, type FileStore } from './file-store.ts';
import { PostgresFileStore } from './postgres-file-store.ts';

/** The app's one store, as FILE_STORE says. The S3 client is loaded only when it is chosen. */
export async function openFileStore(config: Pick<Config, 'files' | 'dataDir'>, db: Database): Promise<FileStore> {
  const files = config.files;
  switch (files.kind) {
    case 'postgres':
      return new PostgresFileStore(db);
    case 'disk':
      return diskStore(config.dataDir);
    case 's3':
      return (await import('./s3-file-store.ts')).S3FileStore.open(files);
  }
}
