// Accounts and sessions: the rules. Routes parse and call these; SQL lives in the repository.
import crypto from 'node:crypto';
import {
  AUTH,
  DEFAULTS,
  LIMITS,
  SESSION,
  SIGN_IN_LIMITS,
  USERNAME_PATTERN,
  USERNAME_RULE,
  fromSignUpRequest,
  isTimeZone,
  todayIn,
  validateLogin,
  validateRegistration,
  type AccountType,
  type PublicProfile,
  type Role,
  type Session,
  type SignInRequest,
  type SignUpRequest,
  type UpdateProfileRequest,
  type User,
} from '@versus/domain';
import type { AppContext } from '../context.ts';
import type { Database, Queryable } from '../db/database.ts';
import { AppError, badRequest, conflict, forbidden, notFound, unauthorized } from '../http/errors.ts';
import { RetryLaterError, addressKey, enforce } from '../http/rate-limit.ts';
import { ensureAccounts, openAccounts } from '../ledger/ledger.service.ts';
import { publish, topics } from '../realtime/publish.ts';
import * as repo from './auth.repository.ts';
import { hashPassword, isCommonPassword, needsRehash, spendVerifyTime, verifyPassword } from './passwords.ts';
import type { AccessClaims, VerifiedAccessToken } from './claims.ts';
import { hashRefreshToken, newRefreshToken, signAccessToken } from './tokens.ts';

/** A signed-in result: what the client sees, plus the refresh token the route puts in a cookie. */
export interface IssuedSession {
  user: User;
  session: Session;
  refreshToken: string;
}

/** A reuse this soon is two tabs racing: refused, minting nothing, family kept; any later, a stolen copy that ends the family. */
export const REFRESH_REUSE_GRACE_SECONDS = 10;

export class TooManyAttemptsError extends RetryLaterError {
  constructor(retryAfterSeconds: number) {
    super(429, 'too_many_attempts', AUTH.tooManyAttempts(Math.max(1, Math.ceil(retryAfterSeconds / 60))), retryAfterSeconds);
  }
}

export const sessionExpired = () => new AppError(401, 'session_expired', AUTH.refreshFailed);

/** Lost the rotation race moments ago: refused, but the route leaves the cookie, which may already hold the winner's. */
export class RefreshRaceLostError extends AppError {
  constructor() {
    super(401, 'session_expired', AUTH.refreshFailed);
  }
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

// ---------------------------------------------------------------------------------------
// Views

export function toUser(row: repo.UserRow): User {
  const verified = row.verified ?? {};
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    displayName: row.display_name || row.username,
    avatar: row.avatar_url,
    role: row.role,
    level: row.level ?? DEFAULTS.level,
    wins: row.wins ?? 0,
    losses: row.losses ?? 0,
    streak: row.streak ?? 0,
    rank: row.rank ?? row.global_rank ?? DEFAULTS.rank,
    verified: {
      xbox: verified.xbox === true,
      playstation: verified.playstation === true,
      steam: verified.steam === true,
      identity: verified.identity === true,
      all: verified.all === true,
    },
    isFirstTimeSetup: row.is_first_time_setup,
    verificationCompletedAt: iso(row.verification_completed_at),
    createdAt: iso(row.created_at) ?? new Date(0).toISOString(),
    lastLogin: iso(row.last_login),
    accountType: row.account_type,
  };
}

export function toPublicProfile(row: repo.PublicProfileRow): PublicProfile {
  return { ...row };
}

function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

// ---------------------------------------------------------------------------------------
// Registration

export interface CreateAccount {
  email: string;
  password: string;
  username: string;
  displayName: string;
  fullName: string;
  phone: string;
  dateOfBirth: string;
  timezone: string;
  accountType: AccountType;
  role: Role;
}

/** Refuses (400, on the password field) a password among the most common or made of the account's own names. */
export async function refuseCommonPassword(password: string, email: string, username?: string): Promise<void> {
  const names = [email, normalizeEmail(email).split('@')[0] ?? '', ...(username ? [username] : [])];
  if (await isCommonPassword(password, names)) throw badRequest('invalid_input', AUTH.passwordTooCommon, 'password');
}

/** A valid form counts against the throttle before any password check or email lookup: no farming credits, no fast "email taken". */
export async function signUp(ctx: AppContext, request: SignUpRequest, address: string): Promise<IssuedSession> {
  const data = request.options.data;
  const invalid = validateRegistration(fromSignUpRequest(request), todayIn(data.timezone));
  if (invalid) throw badRequest('invalid_input', invalid.message, invalid.field);
  if (ctx.config.signupsDisabled) {
    // The web app recognises "Signups not allowed" and shows the SPEC §8 text, which follows.
    throw new AppError(403, 'signups_disabled', `Signups not allowed. ${AUTH.signupsDisabled}`);
  }
  const username = data.username.trim();
  const displayName = data.display_name?.trim() || username;
  if (displayName.length > 40) throw badRequest('invalid_input', AUTH.displayNameInvalid, 'displayName');
  const { windowSeconds, perAddress, global } = ctx.config.limits.signUp;
  await enforce(ctx.db, 'too_many_signups', [
    { key: `signup:address:${addressKey(address)}`, limit: perAddress, windowSeconds, message: LIMITS.signUpPerAddress },
    { key: 'signup:all', limit: global, windowSeconds, message: LIMITS.signUpGlobal },
  ]);
  // After the throttle: the estimate blocks the event loop.
  await refuseCommonPassword(request.password, request.email, username);

  const userId = await createAccount(ctx.db, {
    email: request.email,
    password: request.password,
    username,
    displayName,
    fullName: data.full_name.trim(),
    phone: data.phone.trim(),
    dateOfBirth: data.date_of_birth,
    timezone: data.timezone && isTimeZone(data.timezone) ? data.timezone : 'UTC',
    // validateRegistration refused a missing one.
    accountType: data.account_type ?? 'real',
    role: 'user',
  });
  return startSession(ctx, userId, { stampLogin: true });
}

/** Identity, profile and ledger accounts in one transaction; callers validate first, the unique indexes catch racing duplicates. */
export async function createAccount(db: Database, account: CreateAccount): Promise<string> {
  const email = normalizeEmail(account.email);
  if (await repo.emailExists(db, email)) throw conflict('email_taken', AUTH.emailTaken, 'email');
  if (await repo.usernameTaken(db, account.username)) throw conflict('username_taken', AUTH.usernameTaken, 'username');
  const passwordHash = await hashPassword(account.password);
  try {
    return await db.transaction(async (tx) => {
      const userId = await repo.insertUser(tx, {
        email,
        passwordHash,
        username: account.username,
        displayName: account.displayName,
        fullName: account.fullName,
        phone: account.phone,
        dateOfBirth: account.dateOfBirth,
        ageVerified: true,
        timezone: account.timezone,
        accountType: account.accountType,
        role: account.role,
      });
      await openAccounts(tx, { userId, accountType: account.accountType, role: account.role });
      return userId;
    });
  } catch (error) {
    throw duplicateError(error) ?? error;
  }
}

function duplicateError(error: unknown): AppError | null {
  const { code, constraint } = (error ?? {}) as { code?: string; constraint?: string };
  if (code !== '23505') return null;
  if (constraint === 'users_email_key') return conflict('email_taken', AUTH.emailTaken, 'email');
  if (constraint === 'profiles_username_key') return conflict('username_taken', AUTH.usernameTaken, 'username');
  return null;
}

// ---------------------------------------------------------------------------------------
// Sign-in

export async function signIn(ctx: AppContext, request: SignInRequest, clientAddress: string): Promise<IssuedSession> {
  const address = addressKey(clientAddress);
  const accountType = request.account_type ?? null;
  const invalid = validateLogin({ accountType, email: request.email, password: request.password });
  if (invalid || !accountType) {
    throw badRequest('invalid_input', invalid?.message ?? AUTH.accountTypeRequired, invalid?.field ?? 'accountType');
  }
  const email = normalizeEmail(request.email);

  // Count this attempt before checking the password, so parallel guesses see each other.
  const attemptId = await repo.insertSignInAttempt(ctx.db, email, address);
  // Housekeeping in small batches, so the tables stay about a day's worth of rows.
  await Promise.all([repo.deleteOldSignInAttempts(ctx.db), repo.deleteExpiredRefreshTokens(ctx.db)]);
  const addressLimit = await limitAttempts(ctx.db, attemptId, email, address);

  const credentials = await repo.findCredentialsByEmail(ctx.db, email);
  let valid = false;
  if (credentials) valid = await verifyPassword(credentials.password_hash, request.password);
  else await spendVerifyTime(request.password);
  if (!credentials || !valid) {
    await repo.setSignInOutcome(ctx.db, attemptId, 'failure');
    // Over the address's limit, a wrong guess is refused as the limit; the account now has a
    // failure from here, so its next attempt from here is refused before any check.
    if (addressLimit) throw new TooManyAttemptsError(addressLimit.retryAfterSeconds);
    throw new AppError(401, 'invalid_credentials', AUTH.invalidCredentials);
  }
  if (needsRehash(credentials.password_hash)) {
    await repo.updatePasswordHash(ctx.db, credentials.id, await hashPassword(request.password));
  }

  await ctx.db.transaction(async (tx) => {
    await repo.setSignInOutcome(tx, attemptId, 'success');
    await repo.clearAccountFailures(tx, email, address);
    const previous = await repo.lockProfile(tx, credentials.id);
    await repo.recordSignIn(tx, credentials.id, accountType);
    if (previous !== null && previous !== accountType) await publishProfile(tx, credentials.id);
  });
  return startSession(ctx, credentials.id, { stampLogin: false });
}

/** Per address, defers to the password for an account with no failure from there: a shared address locks nobody out (security.md). */
async function limitAttempts(
  db: Queryable,
  attemptId: number,
  email: string,
  address: string,
): Promise<{ retryAfterSeconds: number } | null> {
  const { windowMinutes, perAccount, perAddress, perAccountAllAddresses } = SIGN_IN_LIMITS;
  const limits: { limit: number; read: (limit: number) => Promise<repo.AttemptWindow> }[] = [
    { limit: perAccount, read: (limit) => repo.accountAddressAttempts(db, email, address, windowMinutes, limit) },
    { limit: perAccountAllAddresses, read: (limit) => repo.accountAttempts(db, email, windowMinutes, limit) },
    { limit: perAddress, read: (limit) => repo.addressAttempts(db, address, windowMinutes, limit) },
  ];
  const before = await Promise.all(limits.map(({ limit, read }) => read(limit)));
  const [accountHere, accountAll, addressAll] = before as [repo.AttemptWindow, repo.AttemptWindow, repo.AttemptWindow];
  const accountOver = accountHere.count > perAccount || accountAll.count > perAccountAllAddresses;
  if (!accountOver && addressAll.count <= perAddress) return null;
  // Only this attempt counts against the account from here: defer to the password.
  if (!accountOver && accountHere.count === 1) return { retryAfterSeconds: Math.max(1, Math.ceil(addressAll.secondsUntilBelow)) };
  // A refused attempt does not count: the lock lifts a fixed time after the last real guess.
  await repo.setSignInOutcome(db, attemptId, 'refused');
  const after = await Promise.all(limits.map(({ limit, read }) => read(limit)));
  const waits = after.map((counted, i) => (counted.count >= limits[i]!.limit ? counted.secondsUntilBelow : 0));
  throw new TooManyAttemptsError(Math.max(1, Math.ceil(Math.max(...waits))));
}

// ---------------------------------------------------------------------------------------
// Sessions

/** Starts a new session family: a refresh token and an access token. */
async function startSession(ctx: AppContext, userId: string, options: { stampLogin: boolean }): Promise<IssuedSession> {
  const familyId = crypto.randomUUID();
  const refresh = newRefreshToken();
  const user = await ctx.db.transaction(async (tx) => {
    if (options.stampLogin) await repo.stampLogin(tx, userId);
    const row = await repo.findUserById(tx, userId);
    if (!row) throw sessionExpired();
    await repo.insertRefreshToken(tx, {
      userId,
      familyId,
      parentId: null,
      hash: refresh.hash,
      ttlDays: SESSION.refreshTokenTtlDays,
    });
    return row;
  });
  return issued(ctx, user, familyId, refresh.token);
}

async function issued(ctx: AppContext, row: repo.UserRow, familyId: string, refreshToken: string): Promise<IssuedSession> {
  return { user: toUser(row), session: await accessFor(ctx, row, familyId), refreshToken };
}

// Signed after the transaction: reading the signing key inside it would need a second
// connection, which the single-connection embedded database does not have.
function accessFor(ctx: AppContext, row: repo.UserRow, familyId: string): Promise<Session> {
  return signAccessToken(ctx, { userId: row.id, role: row.role, accountType: row.account_type, sessionId: familyId });
}

type Rotation = { kind: 'ok'; row: repo.UserRow; familyId: string; token: string } | { kind: 'expired' } | { kind: 'raced' };

/** Trades a refresh token for a new one in the same family, and a new access token. */
export async function refresh(ctx: AppContext, refreshToken: string | undefined): Promise<IssuedSession> {
  if (!refreshToken) throw sessionExpired();
  const hash = hashRefreshToken(refreshToken);
  const rotation = await ctx.db.transaction(async (tx): Promise<Rotation> => {
    const current = await repo.lockRefreshToken(tx, hash);
    if (!current || current.revoked_at || current.expired) return { kind: 'expired' };
    if (current.used_at) {
      // Spent already: one rotation per token, so never a second live token from it.
      if ((current.used_seconds_ago ?? Infinity) <= REFRESH_REUSE_GRACE_SECONDS) return { kind: 'raced' };
      // Used before, long ago: a copy is being replayed. End every session descended from it.
      await repo.revokeRefreshFamily(tx, current.family_id);
      return { kind: 'expired' };
    }
    await repo.markRefreshTokenUsed(tx, current.id);
    const row = await repo.findUserById(tx, current.user_id);
    if (!row) return { kind: 'expired' };
    const next = newRefreshToken();
    await repo.insertRefreshToken(tx, {
      userId: row.id,
      familyId: current.family_id,
      parentId: current.id,
      hash: next.hash,
      ttlDays: SESSION.refreshTokenTtlDays,
    });
    return { kind: 'ok', row, familyId: current.family_id, token: next.token };
  });
  if (rotation.kind === 'expired') throw sessionExpired();
  if (rotation.kind === 'raced') throw new RefreshRaceLostError();
  return issued(ctx, rotation.row, rotation.familyId, rotation.token);
}

/** Ends the session family of the refresh token and of the access token, whichever are given. */
export async function signOut(ctx: AppContext, refreshToken: string | undefined, access: VerifiedAccessToken | null): Promise<void> {
  const families = new Set<string>();
  if (refreshToken) {
    const family = await repo.findRefreshFamily(ctx.db, hashRefreshToken(refreshToken));
    if (family) families.add(family);
  }
  if (access) families.add(access.sessionId);
  for (const family of families) await repo.revokeRefreshFamily(ctx.db, family);
}

/** The session of a valid access token, as GET /session answers it; null if the user is gone. */
export async function sessionFromAccessToken(
  ctx: AppContext,
  token: string,
  access: VerifiedAccessToken,
  now = new Date(),
): Promise<{ user: User; session: Session } | null> {
  const row = await repo.findUserById(ctx.db, access.userId);
  if (!row) return null;
  const expiresIn = Math.max(0, access.expiresAt - Math.floor(now.getTime() / 1000));
  return {
    user: toUser(row),
    session: { access_token: token, token_type: 'bearer', expires_at: access.expiresAt, expires_in: expiresIn },
  };
}

// ---------------------------------------------------------------------------------------
// The signed-in user and profiles

export async function getUser(ctx: AppContext, claims: AccessClaims): Promise<User> {
  const row = await repo.findUserById(ctx.db, claims.userId);
  if (!row) throw unauthorized(AUTH.signInRequired);
  return toUser(row);
}

/** The changed user, and a new session when the account type changed. */
export interface UpdatedUser {
  user: User;
  session?: Session;
}

/** A switch of account type also returns a new access token, which carries the account type. */
export async function updateUser(ctx: AppContext, access: VerifiedAccessToken, patch: UpdateProfileRequest): Promise<UpdatedUser> {
  const changes: repo.ProfilePatch = { ...patch };
  if (patch.username !== undefined) {
    const username = patch.username.trim();
    if (!username) throw badRequest('invalid_input', AUTH.usernameRequired, 'username');
    if (!USERNAME_PATTERN.test(username)) throw badRequest('invalid_input', USERNAME_RULE, 'username');
    if (await repo.usernameTaken(ctx.db, username, access.userId)) {
      throw conflict('username_taken', AUTH.usernameTaken, 'username');
    }
    changes.username = username;
  }
  if (patch.avatar_url !== undefined && patch.avatar_url !== null) {
    const url = patch.avatar_url.trim();
    if (!isAvatarUrl(url)) throw badRequest('invalid_input', AUTH.avatarUrlInvalid, 'avatar_url');
    changes.avatar_url = url;
  }

  let result: { row: repo.UserRow; previous: AccountType };
  try {
    result = await ctx.db.transaction(async (tx) => {
      const previous = await repo.lockProfile(tx, access.userId);
      if (!previous) throw unauthorized(AUTH.signInRequired);
      const changed = Object.keys(changes).length > 0;
      if (changed) await repo.updateProfile(tx, access.userId, changes);
      const row = (await repo.findUserById(tx, access.userId))!;
      if (changed) {
        // A switch opens the new mode's accounts (and their starting grant) now, as sign-up does.
        if (row.account_type !== previous) await ensureAccounts(tx, { userId: row.id, role: row.role, accountType: row.account_type });
        await publishProfile(tx, access.userId, row);
      }
      return { row, previous };
    });
  } catch (error) {
    throw duplicateError(error) ?? error;
  }
  const { row, previous } = result;
  if (row.account_type === previous) return { user: toUser(row) };
  return { user: toUser(row), session: await accessFor(ctx, row, access.sessionId) };
}

export async function updateProfile(
  ctx: AppContext,
  access: VerifiedAccessToken,
  profileId: string,
  patch: UpdateProfileRequest,
): Promise<UpdatedUser> {
  if (profileId !== access.userId) throw forbidden(AUTH.forbidden);
  return updateUser(ctx, access, patch);
}

export async function getPublicProfile(ctx: AppContext, profileId: string): Promise<PublicProfile> {
  const row = await repo.findPublicProfile(ctx.db, profileId);
  if (!row) throw notFound(AUTH.profileNotFound);
  return toPublicProfile(row);
}

/** An absolute http(s) address, or a path on this server (uploaded avatars). */
function isAvatarUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  if (value.startsWith('/') && !value.startsWith('//')) return true;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch (error) {
    if (error instanceof TypeError) return false;
    throw error;
  }
}

/** Publishes profile.updated with the user's row (`row` if the caller just read it) and returns it; null for no such user. */
export async function publishProfile(tx: Queryable, userId: string, row?: repo.UserRow): Promise<repo.UserRow | null> {
  const user = row ?? (await repo.findUserById(tx, userId));
  if (user) await publish(tx, topics.user(userId), 'profile.updated', { user: toUser(user) });
  return user;
}
