// Checks the feature test kits share: the events a topic received, balances, and a clean ledger audit.
import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { Currency } from '@versus/domain';
import type { Database, Queryable } from '../db/database.ts';
import { auditLedger } from '../ledger/ledger.audit.ts';
import { grant, spend } from '../ledger/ledger.service.ts';

/** Every event published on `topic`, in order. */
export function readEvents(db: Queryable, topic: string) {
  return db.query<{ type: string; payload: Record<string, unknown> }>(
    'SELECT type, payload FROM realtime_events WHERE topic = $1 ORDER BY version',
    [topic],
  );
}

/** The ledger audit finds nothing, and it did check the escrow owners of these tables. */
export async function expectAuditClean(
  db: Queryable,
  ownerTables: ('challenges' | 'matches' | 'private_rooms' | 'tournaments')[],
): Promise<void> {
  const audit = await auditLedger(db);
  expect(audit.problems).toEqual([]);
  expect(audit.ok).toBe(true);
  for (const table of ownerTables) expect(audit.ownersChecked[table]).toBe(true);
}

/** A player's available and escrow balances in one currency, in minor units. */
export async function balances(db: Queryable, userId: string, currency: Currency = 'credits') {
  const rows = await db.query<{ kind: string; balance: number }>(
    'SELECT kind, balance FROM ledger_accounts WHERE user_id = $1 AND currency = $2',
    [userId, currency],
  );
  return {
    available: rows.find((r) => r.kind === 'available')?.balance ?? 0,
    escrow: rows.find((r) => r.kind === 'escrow')?.balance ?? 0,
  };
}

/** Sets a player's available balance through the ledger (grant or spend), in minor units. */
export async function setAvailable(db: Database, userId: string, minor: number, currency: Currency = 'credits'): Promise<void> {
  const { available } = await balances(db, userId, currency);
  const idempotencyKey = `test:${crypto.randomUUID()}`;
  await db.transaction(async (tx) => {
    if (available > minor) await spend(tx, { idempotencyKey, userId, amount: available - minor, currency });
    if (available < minor) await grant(tx, { idempotencyKey, userId, amount: minor - available, currency });
  });
}
