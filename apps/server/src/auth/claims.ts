import type { AccountType, Role } from '@versus/domain';

/** Who a verified access token says is asking. */
export interface AccessClaims {
  userId: string;
  role: Role;
  accountType: AccountType;
}

/** The claims plus what the session endpoint and sign-out need. */
export interface VerifiedAccessToken extends AccessClaims {
  /** The refresh-token family this access token was issued from. */
  sessionId: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}
