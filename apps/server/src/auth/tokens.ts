// Interim: the auth feature replaces this file with signed access tokens.
import type { AppContext } from '../context.ts';
import type { Role, AccountType } from '@versus/domain';

export interface AccessClaims {
  userId: string;
  role: Role;
  accountType: AccountType;
}

/** Verifies a bearer access token; null when it is missing, forged or expired. */
export async function verifyAccessToken(_ctx: AppContext, _token: string): Promise<AccessClaims | null> {
  return null;
}
