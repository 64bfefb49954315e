// The only place with the auth feature's SQL.
import type { AccountType, Role } from '@versus/domain';
import type { Queryable } from '../db/database.ts';

/** A user joined with their profile: what the client view (toUser) is built from. */
export interface UserRow {
  id: string;
  email: string;
  created_at: Date;
  username: string;
  display_name: string;
  avatar_url: string | null;
  role: Role;
  account_type: AccountType;
  level: number;
  wins: number;
  losses: number;
  streak: number;
  rank: number;
  global_rank: number;
  verified: Partial<Record<'xbox' | 'playstation' | 'steam' | 'identity' | 'all', boolean>> | null;
  is_first_time_setup: boolean;
  verification_completed_at: Date | null;
  last_login: Date | null;
}

const USER_COLUMNS = `u.id, u.email, u.created_at, p.username, p.display_name, p.avatar_url, p.role, p.account_type,
  p.level, p.wins, p.losses, p.streak, p.rank, p.global_rank, p.verified, p.is_first_time_setup,
  p.verification_completed_at, p.last_login`;

export async function findUserById(db: Queryable, id: string): Promise<UserRow | null> {
  const [row] = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users u JOIN profiles p ON p.id = u.id WHERE u.id = $1`, [id]);
  return row ?? null;
}

export async function findCredentialsByEmail(db: Queryable, email: string): Promise<{ id: string; password_hash: string } | null> {
  const [row] = await db.query<{ id: string; password_hash: string }>('SELECT id, password_hash FROM users WHERE email = $1', [email]);
  return row ?? null;
}

export async function emailExists(db: Queryable, email: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM users WHERE email = $1', [email]);
  return rows.length > 0;
}

export async function usernameTaken(db: Queryable, username: string, exceptUserId: string | null = null): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM profiles WHERE lower(username) = lower($1) AND id IS DISTINCT FROM $2', [
    username,
    exceptUserId,
  ]);
  return rows.length > 0;
}

export interface NewUser {
  email: string;
  passwordHash: string;
  username: string;
  displayName: string;
  fullName: string;
  phone: string;
  dateOfBirth: string;
  ageVerified: boolean;
  timezone: string;
  accountType: AccountType;
  role: Role;
}

/** Inserts the sign-in identity and its profile (SPEC defaults come from the table). */
export async function insertUser(tx: Queryable, user: NewUser): Promise<string> {
  const [row] = await tx.query<{ id: string }>('INSERT INTO users (email, password_hash) VALUES ($1, $2) RETURNING id', [
    user.email,
    user.passwordHash,
  ]);
  const id = row!.id;
  await tx.query(
    `INSERT INTO profiles (id, username, display_name, full_name, phone, date_of_birth, age_verified, timezone, account_type, role)
     VALUES ($1, $2, $3, $4, $5, $6::date, $7, $8, $9, $10)`,
    [
      id,
      user.username,
      user.displayName,
      user.fullName,
      user.phone,
      user.dateOfBirth,
      user.ageVerified,
      user.timezone,
      user.accountType,
      user.role,
    ],
  );
  return id;
}

export async function updatePasswordHash(db: Queryable, userId: string, passwordHash: string): Promise<void> {
  await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
}

/** Locks the profile row until the transaction ends; returns its account type, null if none. */
export async function lockProfile(tx: Queryable, userId: string): Promise<AccountType | null> {
  const [row] = await tx.query<{ account_type: AccountType }>('SELECT account_type FROM profiles WHERE id = $1 FOR UPDATE', [userId]);
  return row?.account_type ?? null;
}

/** Stamps the sign-in and stores the account type the player signed in with. */
export async function recordSignIn(tx: Queryable, userId: string, accountType: AccountType): Promise<void> {
  await tx.query(
    `UPDATE profiles SET last_login = now(), account_type = $2,
       updated_at = CASE WHEN account_type = $2 THEN updated_at ELSE now() END
     WHERE id = $1`,
    [userId, accountType],
  );
}

export async function stampLogin(tx: Queryable, userId: string): Promise<void> {
  await tx.query('UPDATE profiles SET last_login = now() WHERE id = $1', [userId]);
}

export interface ProfilePatch {
  account_type?: AccountType;
  username?: string;
  display_name?: string;
  avatar_url?: string | null;
  virtual_theme?: string;
  virtual_overlay_enabled?: boolean;
}

const PATCHABLE = ['account_type', 'username', 'display_name', 'avatar_url', 'virtual_theme', 'virtual_overlay_enabled'] as const;

/** Sets the given fields; absent ones stay as they are. */
export async function updateProfile(tx: Queryable, userId: string, patch: ProfilePatch): Promise<void> {
  const sets = ['updated_at = now()'];
  const params: unknown[] = [userId];
  for (const column of PATCHABLE) {
    if (patch[column] === undefined) continue;
    params.push(patch[column]);
    sets.push(`${column} = $${params.length}`);
  }
  await tx.query(`UPDATE profiles SET ${sets.join(', ')} WHERE id = $1`, params);
}

export interface PublicProfileRow {
  id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  role: Role;
  level: number;
  wins: number;
  losses: number;
  streak: number;
  rank: number;
  global_rank: number;
}

export async function findPublicProfile(db: Queryable, id: string): Promise<PublicProfileRow | null> {
  const [row] = await db.query<PublicProfileRow>(
    `SELECT id, username, display_name, avatar_url, role, level, wins, losses, streak, rank, global_rank
     FROM profiles WHERE id = $1`,
    [id],
  );
  return row ?? null;
}

// ---------------------------------------------------------------------------------------
// Refresh tokens

export interface RefreshTokenRow {
  id: string;
  user_id: string;
  family_id: string;
  parent_id: string | null;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
  /** Seconds since used_at, by the database clock (null while unused). */
  used_seconds_ago: number | null;
  expired: boolean;
}

export async function insertRefreshToken(
  tx: Queryable,
  token: { userId: string; familyId: string; parentId: string | null; hash: string; ttlDays: number },
): Promise<void> {
  await tx.query(
    `INSERT INTO refresh_tokens (user_id, family_id, parent_id, token_hash, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(days => $5))`,
    [token.userId, token.familyId, token.parentId, token.hash, token.ttlDays],
  );
}

/** The token with this hash, locked until the transaction ends (so one rotation at a time). */
export async function lockRefreshToken(tx: Queryable, hash: string): Promise<RefreshTokenRow | null> {
  const [row] = await tx.query<RefreshTokenRow>(
    `SELECT id, user_id, family_id, parent_id, expires_at, used_at, revoked_at,
       extract(epoch FROM now() - used_at)::float8 AS used_seconds_ago,
       expires_at <= now() AS expired
     FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE`,
    [hash],
  );
  return row ?? null;
}

export async function findRefreshFamily(db: Queryable, hash: string): Promise<string | null> {
  const [row] = await db.query<{ family_id: string }>('SELECT family_id FROM refresh_tokens WHERE token_hash = $1', [hash]);
  return row?.family_id ?? null;
}

/** Role and account type now, or null when the user is gone or the family revoked (always whole, so one token says it all). */
export async function liveSessionOwner(
  db: Queryable,
  userId: string,
  familyId: string,
): Promise<{ role: Role; account_type: AccountType } | null> {
  const [row] = await db.query<{ role: Role; account_type: AccountType }>(
    `SELECT p.role, p.account_type FROM users u JOIN profiles p ON p.id = u.id
     WHERE u.id = $1
       AND NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.family_id = $2 AND r.revoked_at IS NOT NULL)`,
    [userId, familyId],
    'auth_session_live',
  );
  return row ?? null;
}

/** Of these sessions (refresh-token families), the ids still signed in: the user exists and no token of the family was revoked. */
export async function liveSessions(db: Queryable, sessions: { userId: string; sessionId: string }[]): Promise<Set<string>> {
  const rows = await db.query<{ session_id: string }>(
    `SELECT s.session_id FROM unnest($1::uuid[], $2::uuid[]) AS s (user_id, session_id)
      WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = s.user_id)
        AND NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.family_id = s.session_id AND r.revoked_at IS NOT NULL)`,
    [sessions.map((s) => s.userId), sessions.map((s) => s.sessionId)],
  );
  return new Set(rows.map((r) => r.session_id));
}

export async function markRefreshTokenUsed(tx: Queryable, id: string): Promise<void> {
  await tx.query('UPDATE refresh_tokens SET used_at = now() WHERE id = $1 AND used_at IS NULL', [id]);
}

/** Ends every session of the user (their password changed). */
export async function revokeUserSessions(db: Queryable, userId: string): Promise<void> {
  await db.query('UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [userId]);
}

export async function revokeRefreshFamily(db: Queryable, familyId: string): Promise<void> {
  await db.query('UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL', [familyId]);
}

/** Drops tokens expired a day ago or more, a bounded batch at a time. */
export async function deleteExpiredRefreshTokens(db: Queryable, batch = 200): Promise<void> {
  await db.query(
    `DELETE FROM refresh_tokens WHERE id IN (
       SELECT id FROM refresh_tokens WHERE expires_at < now() - interval '1 day' LIMIT $1)`,
    [batch],
  );
}

// ---------------------------------------------------------------------------------------
// Sign-in attempts

export async function insertSignInAttempt(db: Queryable, email: string, address: string): Promise<number> {
  const [row] = await db.query<{ id: number }>('INSERT INTO sign_in_attempts (email, address) VALUES ($1, $2) RETURNING id', [
    email,
    address,
  ]);
  return row!.id;
}

export async function setSignInOutcome(db: Queryable, id: number, outcome: 'failure' | 'success' | 'refused'): Promise<void> {
  await db.query('UPDATE sign_in_attempts SET outcome = $2 WHERE id = $1', [id, outcome]);
}

/** From its own address only: the owner signing in elsewhere gives a guesser at another address no fresh tries. */
export async function clearAccountFailures(db: Queryable, email: string, address: string): Promise<void> {
  await db.query('UPDATE sign_in_attempts SET account_cleared = true WHERE email = $1 AND address = $2 AND NOT account_cleared', [
    email,
    address,
  ]);
}

export interface AttemptWindow {
  /** Attempts counted in the window, newest first (seconds until each leaves the window). */
  count: number;
  /** Seconds until the count drops below `limit`, or 0 if it already is. */
  secondsUntilBelow: number;
}

// Pending (password being checked) and failed attempts count; successes and refusals do not.
const COUNTED = `outcome IN ('pending', 'failure') AND attempted_at > now() - make_interval(mins => $1)`;

/** `where` names its keys from $3 on ($1 is the window in minutes, $2 the limit). */
async function window(db: Queryable, where: string, keys: string[], windowMinutes: number, limit: number): Promise<AttemptWindow> {
  const [row] = await db.query<{ count: number; seconds: number | null }>(
    `SELECT count(*)::int AS count,
       (SELECT extract(epoch FROM a.attempted_at + make_interval(mins => $1) - now())::float8
          FROM sign_in_attempts a WHERE ${where} AND ${COUNTED}
          ORDER BY a.attempted_at DESC OFFSET $2 - 1 LIMIT 1) AS seconds
     FROM sign_in_attempts a WHERE ${where} AND ${COUNTED}`,
    [windowMinutes, limit, ...keys],
  );
  return { count: row?.count ?? 0, secondsUntilBelow: Math.max(0, row?.seconds ?? 0) };
}

/** Attempts at this account from every address; a success clears them. */
export function accountAttempts(db: Queryable, email: string, windowMinutes: number, limit: number): Promise<AttemptWindow> {
  return window(db, 'a.email = $3 AND NOT a.account_cleared', [email], windowMinutes, limit);
}

/** Attempts at this account from this address (served by the email index); a success clears them, as above. */
export function accountAddressAttempts(
  db: Queryable,
  email: string,
  address: string,
  windowMinutes: number,
  limit: number,
): Promise<AttemptWindow> {
  return window(db, 'a.email = $3 AND a.address = $4 AND NOT a.account_cleared', [email, address], windowMinutes, limit);
}

/** Attempts from this address at every account; a success does not clear them. */
export function addressAttempts(db: Queryable, address: string, windowMinutes: number, limit: number): Promise<AttemptWindow> {
  return window(db, 'a.address = $3', [address], windowMinutes, limit);
}

/** Drops attempts older than a day, a bounded batch at a time. */
export async function deleteOldSignInAttempts(db: Queryable, batch = 200): Promise<void> {
  await db.query(
    `DELETE FROM sign_in_attempts WHERE id IN (
       SELECT id FROM sign_in_attempts WHERE attempted_at < now() - interval '1 day' LIMIT $1)`,
    [batch],
  );
}

/** Locks the profile for an avatar change and answers its current avatar; null when there is no profile. */
export async function lockAvatar(db: Queryable, userId: string): Promise<{ avatar_url: string | null } | null> {
  const [row] = await db.query<{ avatar_url: string | null }>('SELECT avatar_url FROM profiles WHERE id = $1 FOR UPDATE', [userId]);
  return row ?? null;
}
