// Test helpers: players inserted straight into the database (no password hashing, so hundreds are cheap), and stand-in owner
// tables so the audit's ownership check runs without the challenges, matches or rooms schemas.
import crypto from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import type { AccountType, Role } from '@versus/domain';
import type { Database, Queryable } from '../db/database.ts';
import { createTestDatabase } from '../test/database.ts';
import type { AuditOptions } from './ledger.audit.ts';
import { LedgerError, ledgerOf, openAccounts, type Ledger } from './ledger.service.ts';

export interface TestPlayer {
  id: string;
  role: Role;
  accountType: AccountType;
}

/** A user and profile; with `open` (the default) their accounts are opened and funded as at registration. */
export async function createPlayer(
  db: Database,
  options: { role?: Role; accountType?: AccountType; open?: boolean } = {},
): Promise<TestPlayer> {
  const id = crypto.randomUUID();
  const role = options.role ?? 'user';
  const accountType = options.accountType ?? 'real';
  const username = `p_${id.replaceAll('-', '').slice(0, 20)}`;
  await db.transaction(async (tx) => {
    await tx.query('INSERT INTO users (id, email, password_hash) VALUES ($1, $2, $3)', [id, `${username}@versus.test`, 'not-a-hash']);
    await tx.query(
      `INSERT INTO profiles (id, username, display_name, full_name, phone, date_of_birth, age_verified, role, account_type)
       VALUES ($1, $2, $2, 'Test Player', '+1 555 010 0100', '1990-01-01', true, $3, $4)`,
      [id, username, role, accountType],
    );
    if (options.open ?? true) await openAccounts(tx, { userId: id, role, accountType });
  });
  return { id, role, accountType };
}

export const OWNER_SCHEMA = 'ledger_test_owners';

type OwnerKind = 'challenges' | 'matches' | 'private_rooms' | 'tournaments';

/** Minimal challenges / matches / private_rooms / tournaments tables (id, status) in their own schema. */
export async function createOwnerTables(db: Queryable): Promise<AuditOptions> {
  await db.exec(`
    CREATE SCHEMA IF NOT EXISTS ${OWNER_SCHEMA};
    CREATE TABLE IF NOT EXISTS ${OWNER_SCHEMA}.challenges (id uuid PRIMARY KEY, status text NOT NULL DEFAULT 'open');
    CREATE TABLE IF NOT EXISTS ${OWNER_SCHEMA}.matches (id uuid PRIMARY KEY, status text NOT NULL DEFAULT 'pending');
    CREATE TABLE IF NOT EXISTS ${OWNER_SCHEMA}.private_rooms (id uuid PRIMARY KEY, status text NOT NULL DEFAULT 'waiting_for_player');
    CREATE TABLE IF NOT EXISTS ${OWNER_SCHEMA}.tournaments (id uuid PRIMARY KEY, status text NOT NULL DEFAULT 'scheduled');
  `);
  return {
    ownerTables: {
      challenges: `${OWNER_SCHEMA}.challenges`,
      matches: `${OWNER_SCHEMA}.matches`,
      private_rooms: `${OWNER_SCHEMA}.private_rooms`,
      tournaments: `${OWNER_SCHEMA}.tournaments`,
    },
  };
}

export async function createOwner(db: Queryable, kind: OwnerKind, id = crypto.randomUUID()): Promise<string> {
  await db.query(`INSERT INTO ${OWNER_SCHEMA}.${kind} (id) VALUES ($1) ON CONFLICT DO NOTHING`, [id]);
  return id;
}

export async function finishOwner(db: Queryable, kind: OwnerKind, id: string, status = 'completed'): Promise<void> {
  await db.query(`UPDATE ${OWNER_SCHEMA}.${kind} SET status = $2 WHERE id = $1`, [id, status]);
}

/** Everything that a refused operation must leave as it was. */
export async function ledgerSnapshot(db: Queryable): Promise<string> {
  const [accounts, operations, transfers, holds] = await Promise.all([
    db.query('SELECT id, balance FROM ledger_accounts ORDER BY id'),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_operations'),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_transfers'),
    db.query('SELECT id, status, challenge_id, match_id, room_id, tournament_id FROM escrow_holds ORDER BY id'),
  ]);
  return JSON.stringify({ accounts, operations, transfers, holds });
}

/** Runs `work`, expects a LedgerError, and checks the ledger did not change at all. */
export async function refusedUnchanged(db: Queryable, work: () => Promise<unknown>): Promise<LedgerError> {
  const before = await ledgerSnapshot(db);
  const error = await work().then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LedgerError);
  expect(await ledgerSnapshot(db)).toBe(before);
  return error as LedgerError;
}

export interface LedgerSuite {
  db: Database;
  ledger: Ledger;
  /** The stand-in owner tables, for auditLedger. */
  owners: AuditOptions;
}

/** A fresh database for the calling test file, with the stand-in owner tables; filled in beforeAll, dropped afterAll. */
export function ledgerSuite(): LedgerSuite {
  const suite = {} as LedgerSuite;
  let drop = async () => {};
  beforeAll(async () => {
    const t = await createTestDatabase();
    drop = t.drop;
    suite.db = t.db;
    suite.ledger = ledgerOf(t.db);
    suite.owners = await createOwnerTables(t.db);
  });
  afterAll(() => drop());
  return suite;
}

/** A fresh idempotency key. */
export const key = () => crypto.randomUUID();
