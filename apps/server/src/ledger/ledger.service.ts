// Interim: the ledger feature replaces this file with the double-entry ledger.
import type { Queryable } from '../db/database.ts';
import type { AccountType, Role } from '@versus/domain';

export interface NewAccount {
  userId: string;
  accountType: AccountType;
  role: Role;
}

/** Opens a new player's balances and grants the starting credits, in the caller's transaction. */
export async function openAccounts(_tx: Queryable, _account: NewAccount): Promise<void> {}
