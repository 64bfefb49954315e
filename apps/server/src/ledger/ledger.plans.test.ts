// A plan a connection made while the ledger's tables were small must still find rows by key once they are large,
// or every close reads every hold ever made (db/functions/ledger_close_holds.sql).
import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Queryable } from '../db/database.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { createPlayer } from './ledger.fixtures.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

/** Rows this transaction has read by sequential scan, per table. */
async function seqRead(tx: Queryable): Promise<Record<string, number>> {
  const rows = await tx.query<{ relname: string; n: number }>(
    `SELECT relname, coalesce(seq_tup_read, 0)::int AS n
       FROM pg_stat_xact_user_tables WHERE relname IN ('escrow_holds', 'ledger_accounts')`,
  );
  return Object.fromEntries(rows.map((r) => [r.relname, r.n]));
}

it('settles by index on a connection whose plan was made while escrow_holds was empty', async () => {
  const [a, b] = [await createPlayer(t.db), await createPlayer(t.db)];
  await t.db.transaction(async (tx) => {
    await tx.query('ANALYZE escrow_holds, ledger_accounts');
    const close = (key: string, match: string) =>
      tx.query<{ result: { ok: boolean; holds?: number } }>(
        `SELECT ledger_close_holds('settle', $1, NULL, $2, NULL, NULL, NULL, $3, NULL) AS result`,
        [key, match, a.id],
      );
    // The first close makes this connection's plan, with no hold in the table.
    expect((await close('plans:first', crypto.randomUUID()))[0]!.result.ok).toBe(false);

    // Then the table grows: 3,000 stakes of other matches.
    await tx.query(
      `SELECT count(ledger_lock_escrow('plans:many:' || g, $1, NULL, 1, NULL, gen_random_uuid(), NULL, NULL, NULL))
         FROM generate_series(1, 3000) g`,
      [a.id],
    );
    const match = crypto.randomUUID();
    for (const player of [a, b]) {
      await tx.query(`SELECT ledger_lock_escrow($1, $2, NULL, 100, NULL, $3, NULL, NULL, NULL)`, [
        `plans:lock:${player.id}`,
        player.id,
        match,
      ]);
    }

    const before = await seqRead(tx);
    const [settled] = await close('plans:settle', match);
    const after = await seqRead(tx);
    expect(settled!.result).toMatchObject({ ok: true, holds: 2 });
    expect(after.escrow_holds! - before.escrow_holds!).toBeLessThan(100);
    expect(after.ledger_accounts! - before.ledger_accounts!).toBeLessThan(100);
  });
});
