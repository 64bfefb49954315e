// Fails a money operation's 1st, 2nd, 3rd… statement in turn: each failure must leave the database as it
// was and the audit clean, and a retry must go through.
import { expect } from 'vitest';
import type { Database, Queryable } from '../db/database.ts';

/** A promise's outcome as a value, so concurrent outcomes can be compared after Promise.all. */
export const settled = <T>(work: Promise<T>) =>
  work.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error: error as { status?: number; code?: string } }),
  );

/** `db` whose `n`th statement inside a transaction fails; `fired()` tells whether it did. */
export function faultAt(db: Database, n: number): { db: Database; fired: () => boolean } {
  let calls = 0;
  const faulty: Database = {
    ...db,
    transaction: (work) =>
      db.transaction((tx) =>
        work({
          ...tx,
          query: <R>(sql: string, params?: unknown[]) =>
            ++calls === n ? Promise.reject(new Error(`injected fault at statement ${n}`)) : tx.query<R>(sql, params),
        } satisfies Queryable),
      ),
  };
  return { db: faulty, fired: () => calls >= n };
}

export interface FaultScenario {
  name: string;
  /** Makes a fresh case and returns the operation to run against the given database. */
  setup(): Promise<(db: Database) => Promise<unknown>>;
}

export async function sweepFaults(
  scenarios: FaultScenario[],
  kit: { database: { db: Database }; snapshot(): Promise<string>; expectAuditClean(): Promise<void> },
): Promise<void> {
  for (const scenario of scenarios) {
    for (let n = 1; ; n++) {
      const run = await scenario.setup();
      const before = await kit.snapshot();
      const fault = faultAt(kit.database.db, n);
      const outcome = await settled(run(fault.db));
      if (!fault.fired()) {
        expect(outcome.ok, `${scenario.name} without a fault`).toBe(true);
        break;
      }
      if (!outcome.ok) expect(await kit.snapshot(), `${scenario.name}, fault at statement ${n}`).toBe(before);
      await kit.expectAuditClean();
      expect((await settled(run(kit.database.db))).ok, `${scenario.name}: retry after a fault at statement ${n}`).toBe(true);
    }
  }
}
