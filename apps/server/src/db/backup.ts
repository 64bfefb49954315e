// Backup and restore of the embedded database; the folder's lock makes both wait for the server to stop,
// which keeps the dump consistent.
import fs from 'node:fs';
import path from 'node:path';
import { openPglite } from './database.ts';
import { migrate } from './migrate.ts';

export class BackupRefused extends Error {}

const hasDatabase = (dataDir: string) => fs.existsSync(path.join(dataDir, 'pg', 'PG_VERSION'));

/** Writes the embedded database in `dataDir` to `file` (a gzipped tar of the data folder). */
export async function backupEmbedded(dataDir: string, file: string): Promise<{ bytes: number }> {
  if (!hasDatabase(dataDir)) throw new BackupRefused(`There is no embedded database in ${dataDir}.`);
  if (fs.existsSync(file)) throw new BackupRefused(`${file} already exists; name a new file.`);
  const db = await openPglite(dataDir);
  try {
    const dump = await db.dump!();
    // Written beside, then renamed: an interrupted backup never looks like a whole one.
    const partial = `${file}.partial`;
    fs.writeFileSync(partial, dump);
    fs.renameSync(partial, file);
    return { bytes: dump.length };
  } finally {
    await db.close();
  }
}

/** Replaces only with `replace`, keeping the old one beside it; opened and migrated here, so a bad file shows now. */
export async function restoreEmbedded(
  dataDir: string,
  file: string,
  { replace = false } = {},
): Promise<{ users: number; keptAt: string | null }> {
  if (!fs.existsSync(file)) throw new BackupRefused(`${file} does not exist.`);
  if (hasDatabase(dataDir) && !replace) {
    throw new BackupRefused(`${dataDir} already holds a database. Add --replace to restore over it (it is kept beside, renamed).`);
  }
  let keptAt: string | null = null;
  if (hasDatabase(dataDir)) {
    // Taken and released at once: a running server's lock refuses the restore before anything moves.
    const db = await openPglite(dataDir);
    await db.close();
    keptAt = path.join(dataDir, `pg.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    fs.renameSync(path.join(dataDir, 'pg'), keptAt);
  }
  try {
    const db = await openPglite(dataDir, { template: file });
    try {
      await migrate(db);
      const [row] = await db.query<{ users: number }>('SELECT count(*)::int AS users FROM users');
      return { users: row?.users ?? 0, keptAt };
    } finally {
      await db.close();
    }
  } catch (error) {
    // Not a database: the folder goes back to what it was.
    fs.rmSync(path.join(dataDir, 'pg'), { recursive: true, force: true });
    if (keptAt) fs.renameSync(keptAt, path.join(dataDir, 'pg'));
    throw new BackupRefused(`${file} is not a Versus embedded backup (${(error as Error).message}); nothing was changed.`);
  }
}
