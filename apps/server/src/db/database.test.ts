import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';

describe('PostgreSQL LISTEN connection', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  it('listens again after its connection is killed', async () => {
    const seen: string[] = [];
    await t.db.listen('versus_test_channel', (payload) => seen.push(payload));
    await t.db.query(`SELECT pg_notify('versus_test_channel', 'before')`);
    await expect.poll(() => seen).toEqual(['before']);

    await t.db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
    );
    await expect
      .poll(
        async () => {
          await t.db.query(`SELECT pg_notify('versus_test_channel', 'after')`);
          return seen.includes('after');
        },
        { timeout: 10_000, interval: 300 },
      )
      .toBe(true);
  });
});
