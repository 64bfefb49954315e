// The ledger's PL/pgSQL operations and the job scheduler on the embedded database (PGlite).
import crypto from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { openMigratedPglite } from '../test/pglite-app.ts';
import { startJob } from '../jobs/scheduler.ts';
import { auditLedger } from './ledger.audit.ts';
import { createOwner, createOwnerTables, createPlayer } from './ledger.fixtures.ts';
import { LedgerError, getBalanceView, ledgerOf, runWeeklyResets } from './ledger.service.ts';

let db: Database;
beforeAll(async () => {
  db = await openMigratedPglite();
}, 60_000);
afterAll(() => db.close());

it('moves money, refuses, replays and audits on PGlite as on PostgreSQL', async () => {
  const owners = await createOwnerTables(db);
  const ledger = ledgerOf(db);
  const [a, b] = [await createPlayer(db), await createPlayer(db)];
  const virtual = await createPlayer(db, { accountType: 'virtual' });
  const match = await createOwner(db, 'matches');
  const key = crypto.randomUUID();
  await ledger.lockEscrow({ userId: a.id, amount: 2_000, owner: { matchId: match }, idempotencyKey: key });
  expect(await ledger.lockEscrow({ userId: a.id, amount: 2_000, owner: { matchId: match }, idempotencyKey: key })).toMatchObject({
    replayed: true,
  });
  await ledger.lockEscrow({ userId: b.id, amount: 2_000, owner: { matchId: match }, idempotencyKey: crypto.randomUUID() });
  await ledger.settleEscrow({ owner: { matchId: match }, winnerId: b.id, idempotencyKey: crypto.randomUUID() });
  await expect(ledger.spend({ userId: a.id, amount: 1_000_000, idempotencyKey: crypto.randomUUID() })).rejects.toBeInstanceOf(LedgerError);
  await expect(
    ledger.spend({ userId: virtual.id, currency: 'credits', amount: 1, idempotencyKey: crypto.randomUUID() }),
  ).rejects.toMatchObject({ status: 403 });
  expect(await db.transaction((tx) => getBalanceView(tx, b.id))).toMatchObject({ available_balance: 1020, escrow_balance: 0 });
  await db.query(`UPDATE profiles SET weekly_virtual_credits_last_reset = now() - interval '8 days' WHERE id = $1`, [virtual.id]);
  await ledger.spend({ userId: virtual.id, amount: 10_000, idempotencyKey: crypto.randomUUID() });
  expect(await runWeeklyResets(db)).toBe(1);
  expect(await db.transaction((tx) => getBalanceView(tx, virtual.id))).toMatchObject({ virtual_credits_available: 500 });
  expect(await auditLedger(db, owners)).toMatchObject({ ok: true, problems: [] });
});

it('claims a due job once', async () => {
  let runs = 0;
  const handles = [0, 1].map(() =>
    startJob(
      { db, log: pino({ level: 'silent' }) },
      { name: 'pglite-job', everyMs: 60_000, pollMs: 60_000, run: async () => void (runs += 1) },
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  await db.query(`UPDATE scheduled_jobs SET next_run_at = now() - interval '1 second' WHERE name = 'pglite-job'`);
  const ran = await Promise.all(handles.map((h) => h.tick()));
  await Promise.all(handles.map((h) => h.stop()));
  expect(ran.filter(Boolean)).toHaveLength(1);
  expect(runs).toBe(1);
});
