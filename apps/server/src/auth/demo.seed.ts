// Demo accounts for a newcomer's first run (and for the README to quote).
import type { AccountType, Role } from '@versus/domain';
import type { Database, Queryable } from '../db/database.ts';
import type { Seeder } from '../db/seeder.ts';
import * as repo from './auth.repository.ts';
import { createAccount } from './auth.service.ts';
import { verifyPassword } from './passwords.ts';

export interface DemoUser {
  email: string;
  password: string;
  username: string;
  fullName: string;
  role: Role;
  accountType: AccountType;
}

export const DEMO_USERS: readonly DemoUser[] = [
  { email: 'admin@versus.test', password: 'versus-admin', username: 'admin', fullName: 'Ada Admin', role: 'admin', accountType: 'real' },
  { email: 'alice@versus.test', password: 'versus123', username: 'alice', fullName: 'Alice Archer', role: 'user', accountType: 'real' },
  { email: 'bob@versus.test', password: 'versus123', username: 'bob', fullName: 'Bob Baker', role: 'user', accountType: 'real' },
  { email: 'carol@versus.test', password: 'versus123', username: 'carol', fullName: 'Carol Chen', role: 'user', accountType: 'real' },
  { email: 'vic@versus.test', password: 'versus123', username: 'vic', fullName: 'Vic Virtual', role: 'user', accountType: 'virtual' },
];

export const demoUsersSeeder: Seeder = {
  name: 'demo-users',
  async run(db: Database) {
    for (const user of DEMO_USERS) {
      // Someone may have registered the address already; theirs stays.
      if (await repo.emailExists(db, user.email)) continue;
      await createAccount(db, {
        email: user.email,
        password: user.password,
        username: user.username,
        displayName: user.username,
        fullName: user.fullName,
        phone: '+1 555 010 0100',
        dateOfBirth: '1990-01-01',
        timezone: 'UTC',
        accountType: user.accountType,
        role: user.role,
      });
    }
  },
};

/** Demo accounts whose stored hash still matches the published password (a changed one is not listed). */
export async function demoAccountsWithPublishedPassword(db: Queryable): Promise<string[]> {
  const exposed: string[] = [];
  for (const user of DEMO_USERS) {
    const credentials = await repo.findCredentialsByEmail(db, user.email);
    if (credentials && (await verifyPassword(credentials.password_hash, user.password))) exposed.push(user.email);
  }
  return exposed;
}
