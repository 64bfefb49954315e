// Checks the feature test kits share: the events a topic received, and a clean ledger audit.
import { expect } from 'vitest';
import type { Queryable } from '../db/database.ts';
import { auditLedger } from '../ledger/ledger.audit.ts';

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
