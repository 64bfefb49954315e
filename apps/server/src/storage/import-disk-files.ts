// Files uploaded before FILE_STORE existed live under DATA_DIR/uploads (the disk store); this
// copies them into the store now configured, under the same keys, so their URLs keep working.
import fs from 'node:fs/promises';
import path from 'node:path';
import { DiskFileStore, type FileStore } from './file-store.ts';

/** Copies every file of the disk store at `${dataDir}/uploads` into `to`; answers how many. */
export async function importDiskFiles(dataDir: string, to: FileStore): Promise<number> {
  const root = path.join(dataDir, 'uploads');
  const disk = new DiskFileStore(root);
  let entries: string[];
  try {
    entries = await fs.readdir(root, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let copied = 0;
  // Each file's type sits beside it as `<file>.type`; a `.tmp` is a write that never finished.
  const files = entries.filter((entry) => !entry.endsWith('.type') && !entry.endsWith('.tmp'));
  for (const entry of files.sort()) {
    if (!(await fs.stat(path.join(root, entry))).isFile()) continue;
    const key = entry.split(path.sep).join('/');
    const file = await disk.get(key);
    if (!file) continue;
    await to.put(key, file.data, file.contentType);
    copied += 1;
  }
  return copied;
}
