import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemo } from '../db/seed.ts';
import { auditLedger } from '../ledger/ledger.audit.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

it('seeds open challenges from alice, bob and carol with their stakes in escrow, once', async () => {
  await seedDemo(database.db);
  const rows = await database.db.query<{ username: string; n: number; staked: number }>(
    `SELECT p.username, count(*)::int AS n, sum(c.stake)::int AS staked
       FROM challenges c JOIN profiles p ON p.id = c.creator_id
      WHERE c.status = 'open' AND c.code IS NULL GROUP BY p.username ORDER BY p.username`,
  );
  expect(rows.map((r) => r.username)).toEqual(['alice', 'bob', 'carol']);
  const escrow = await database.db.query<{ username: string; balance: number }>(
    `SELECT p.username, a.balance FROM ledger_accounts a JOIN profiles p ON p.id = a.user_id
      WHERE a.kind = 'escrow' AND a.currency = 'credits' AND p.username IN ('alice', 'bob', 'carol') ORDER BY p.username`,
  );
  expect(escrow.map((e) => e.balance)).toEqual(rows.map((r) => r.staked * 100));
  const games = await database.db.query<{ n: number }>('SELECT count(DISTINCT game)::int AS n FROM challenges');
  expect(games[0]!.n).toBeGreaterThanOrEqual(5);

  const before = await database.db.query('SELECT count(*)::int AS n FROM challenges');
  await database.db.query(`DELETE FROM demo_seeds WHERE name = 'demo-challenges'`);
  await seedDemo(database.db);
  expect(await database.db.query('SELECT count(*)::int AS n FROM challenges')).toEqual(before);

  const audit = await auditLedger(database.db);
  expect(audit.problems).toEqual([]);
});
