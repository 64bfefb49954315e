// The ledger's invariants, checked on the database as it is (admin endpoint, tests): each currency sums to zero, no user account
// negative, balances equal their transfers, escrow equals held holds, every hold's owner live, every link between ledger rows intact.
import { CURRENCIES, type Currency } from '@versus/domain';
import type { LedgerAudit } from '@versus/domain/wallet';
import type { Queryable } from '../db/database.ts';

/** Statuses that hold no escrow: an accepted challenge or a made room handed its stakes to the match in the same transaction. */
const FINAL_STATUSES: Record<OwnerKind, string[]> = {
  challenges: ['accepted', 'completed', 'expired', 'cancelled', 'canceled', 'deleted'],
  matches: ['completed', 'cancelled', 'canceled', 'forfeited', 'abandoned'],
  private_rooms: ['match_created', 'cancelled', 'canceled', 'expired', 'completed', 'closed'],
  // A tournament holds its entries' stakes (and a sponsor's prize) until it pays or refunds them.
  tournaments: ['finished', 'cancelled'],
};
type OwnerKind = 'challenges' | 'matches' | 'private_rooms' | 'tournaments';
const OWNER_COLUMN: Record<OwnerKind, string> = {
  challenges: 'challenge_id',
  matches: 'match_id',
  private_rooms: 'room_id',
  tournaments: 'tournament_id',
};

export interface AuditOptions {
  /** Where each kind of owner lives ([schema.]table); tests point these at stand-in tables. */
  ownerTables?: Partial<Record<OwnerKind, string>>;
}

const LIMIT = 20;

/** Owners are checked in the tables that exist (`ownersChecked`); links here, not by foreign keys (decisions.md, "Cheaper constraints"). */
export async function auditLedger(db: Queryable, options: AuditOptions = {}): Promise<LedgerAudit> {
  const problems: LedgerAudit['problems'] = [];
  const add = (check: string, detail: string) => problems.push({ check, detail });

  const totals = await db.query<{ currency: Currency; total: number; house: number; available: number; escrow: number }>(
    `SELECT currency,
            coalesce(sum(balance), 0) AS total,
            coalesce(sum(balance) FILTER (WHERE kind = 'house'), 0) AS house,
            coalesce(sum(balance) FILTER (WHERE kind = 'available'), 0) AS available,
            coalesce(sum(balance) FILTER (WHERE kind = 'escrow'), 0) AS escrow
       FROM ledger_accounts GROUP BY currency`,
  );
  const held = await db.query<{ currency: Currency; amount: number }>(
    `SELECT currency, coalesce(sum(amount), 0) AS amount FROM escrow_holds WHERE status = 'held' GROUP BY currency`,
  );
  for (const row of totals) {
    if (row.total !== 0) add('sum_zero', `${row.currency}: the accounts sum to ${row.total}, not 0`);
  }

  const negative = await db.query<{ id: number; user_id: string; currency: string; kind: string; balance: number }>(
    `SELECT id, user_id, currency, kind, balance FROM ledger_accounts WHERE kind <> 'house' AND balance < 0 ORDER BY id LIMIT ${LIMIT}`,
  );
  for (const row of negative) add('not_negative', `account ${row.id} (${row.kind} ${row.currency} of ${row.user_id}) is ${row.balance}`);

  const drifted = await db.query<{ id: number; balance: number; computed: number }>(
    `WITH moves AS (
       SELECT to_account AS id, amount FROM ledger_transfers
       UNION ALL
       SELECT from_account, -amount FROM ledger_transfers
     )
     SELECT a.id, a.balance, coalesce(m.computed, 0) AS computed
       FROM ledger_accounts a
       LEFT JOIN (SELECT id, sum(amount) AS computed FROM moves GROUP BY id) m ON m.id = a.id
      WHERE a.balance <> coalesce(m.computed, 0)
      ORDER BY a.id LIMIT ${LIMIT}`,
  );
  for (const row of drifted)
    add('balance_matches_transfers', `account ${row.id} holds ${row.balance} but its transfers sum to ${row.computed}`);

  const escrowMismatch = await db.query<{ user_id: string; currency: string; balance: number; held: number }>(
    `SELECT coalesce(a.user_id, h.user_id) AS user_id, coalesce(a.currency, h.currency) AS currency,
            coalesce(a.balance, 0) AS balance, coalesce(h.held, 0) AS held
       FROM (SELECT user_id, currency, balance FROM ledger_accounts WHERE kind = 'escrow') a
       FULL JOIN (SELECT user_id, currency, sum(amount) AS held FROM escrow_holds WHERE status = 'held' GROUP BY user_id, currency) h
         ON h.user_id = a.user_id AND h.currency = a.currency
      WHERE coalesce(a.balance, 0) <> coalesce(h.held, 0)
      LIMIT ${LIMIT}`,
  );
  for (const row of escrowMismatch) {
    add('escrow_matches_holds', `${row.currency} escrow of ${row.user_id} is ${row.balance} but its held stakes sum to ${row.held}`);
  }

  const broken = await db.query<{ what: string; id: number; target: number; missing: string }>(
    `SELECT 'transfer' AS what, t.id, t.operation_id AS target, 'operation' AS missing
       FROM ledger_transfers t WHERE NOT EXISTS (SELECT 1 FROM ledger_operations o WHERE o.id = t.operation_id)
     UNION ALL
     SELECT 'transfer', t.id, t.hold_id, 'hold'
       FROM ledger_transfers t WHERE t.hold_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM escrow_holds h WHERE h.id = t.hold_id)
     UNION ALL
     SELECT 'hold', h.id, h.lock_operation_id, 'lock operation'
       FROM escrow_holds h WHERE NOT EXISTS (SELECT 1 FROM ledger_operations o WHERE o.id = h.lock_operation_id)
     UNION ALL
     SELECT 'hold', h.id, h.close_operation_id, 'close operation'
       FROM escrow_holds h
      WHERE h.close_operation_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ledger_operations o WHERE o.id = h.close_operation_id)
     LIMIT ${LIMIT}`,
  );
  for (const row of broken) {
    add('links', `${row.what} ${row.id} names ${row.missing} ${row.target}, which does not exist`);
  }

  const ownersChecked = { challenges: false, matches: false, private_rooms: false, tournaments: false };
  for (const kind of Object.keys(OWNER_COLUMN) as OwnerKind[]) {
    const table = options.ownerTables?.[kind] ?? kind;
    if (!/^([a-z_][a-z0-9_]*\.)?[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`audit: ${table} is not a table name`);
    const [schema, name] = table.includes('.') ? table.split('.') : [null, table];
    const [exists] = await db.query<{ present: boolean; has_status: boolean }>(
      `SELECT to_regclass($1) IS NOT NULL AS present,
              EXISTS (SELECT 1 FROM information_schema.columns
                       WHERE table_schema = coalesce($2, current_schema()) AND table_name = $3 AND column_name = 'status') AS has_status`,
      [table, schema, name],
    );
    if (!exists?.present) continue;
    ownersChecked[kind] = true;
    const column = OWNER_COLUMN[kind];
    // Table and column names are checked names, never raw input.
    const orphans = await db.query<{ id: number; owner: string; status: string | null }>(
      `SELECT h.id, h.${column} AS owner, ${exists.has_status ? 'o.status' : 'NULL'} AS status
         FROM escrow_holds h LEFT JOIN ${table} o ON o.id = h.${column}
        WHERE h.status = 'held' AND h.${column} IS NOT NULL
          AND (o.id IS NULL ${exists.has_status ? 'OR o.status = ANY ($1::text[])' : ''})
        ORDER BY h.id LIMIT ${LIMIT}`,
      exists.has_status ? [FINAL_STATUSES[kind]] : [],
    );
    for (const row of orphans) {
      add(
        'escrow_owner_live',
        row.status === null
          ? `hold ${row.id} belongs to ${kind} ${row.owner}, which does not exist`
          : `hold ${row.id} belongs to ${kind} ${row.owner}, which is ${row.status}`,
      );
    }
  }

  const heldOf = (currency: Currency) => held.find((h) => h.currency === currency)?.amount ?? 0;
  return {
    ok: problems.length === 0,
    checkedAt: new Date().toISOString(),
    problems,
    currencies: CURRENCIES.map((currency) => {
      const row = totals.find((t) => t.currency === currency);
      return {
        currency,
        total: row?.total ?? 0,
        house: row?.house ?? 0,
        available: row?.available ?? 0,
        escrow: row?.escrow ?? 0,
        heldInEscrow: heldOf(currency),
      };
    }),
    ownersChecked,
  };
}
