// The database store on PostgreSQL and on PGlite (the embedded default): the FileStore contract,
// the table's own limits, and a file put within a transaction living or dying with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { openMigratedPglite } from '../test/pglite-app.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { binary, fileStoreContract } from './file-store.contract.ts';
import { PostgresFileStore } from './postgres-file-store.ts';

let postgres: TestDatabase;
let pglite: Database;
beforeAll(async () => {
  postgres = await createTestDatabase();
  pglite = await openMigratedPglite();
}, 60_000);
afterAll(async () => {
  await postgres?.drop();
  await pglite?.close();
});

const insert = (db: Database, key: string, data: Buffer, size = data.length, type = 'image/png') =>
  db.query('INSERT INTO stored_files (key, content_type, size, data) VALUES ($1, $2, $3, $4)', [key, type, size, data]);

for (const [name, db] of [
  ['PostgreSQL', () => postgres.db],
  ['PGlite', () => pglite],
] as const) {
  fileStoreContract(`PostgresFileStore on ${name}`, () => new PostgresFileStore(db()));

  describe(`stored_files on ${name}`, () => {
    it("refuses a file over 5 MB, a size that is not the data's, a bad key or type", async () => {
      await expect(insert(db(), 'evidence/x/big.png', binary(5 * 1024 * 1024 + 1))).rejects.toThrow(/check constraint/);
      await expect(insert(db(), 'evidence/x/lies.png', Buffer.from('four'), 3)).rejects.toThrow(/stored_files_size_is_data/);
      await expect(insert(db(), 'evidence/../x.png', Buffer.from('x'))).rejects.toThrow(/check constraint/);
      await expect(insert(db(), 'Evidence/x.png', Buffer.from('x'))).rejects.toThrow(/check constraint/);
      await expect(insert(db(), 'evidence/x/type.png', Buffer.from('x'), 1, 'text/html; charset=utf-8')).rejects.toThrow(
        /check constraint/,
      );
      expect(
        await db().query("SELECT key FROM stored_files WHERE key LIKE 'evidence/x/%' OR key LIKE '%..%' OR key LIKE 'Evidence/%'"),
      ).toEqual([]);
    });

    it('puts a file within a transaction: rolled back with it, or committed with it', async () => {
      const store = new PostgresFileStore(db());
      await expect(
        db().transaction(async (tx) => {
          await store.put('evidence/tx/gone.png', Buffer.from('gone'), 'image/png', tx);
          throw new Error('the row that points at it failed');
        }),
      ).rejects.toThrow('the row that points at it failed');
      expect(await store.get('evidence/tx/gone.png')).toBeNull();
      await db().transaction((tx) => store.put('evidence/tx/kept.png', Buffer.from('kept'), 'image/png', tx));
      expect(await store.get('evidence/tx/kept.png')).toMatchObject({ data: Buffer.from('kept') });
    });
  });
}
