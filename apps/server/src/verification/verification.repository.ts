// The only SQL of verification: linked gamertags, review requests, the profile's verified flags.
import type { DocumentType, Verified, VerificationStatus, VerifyKind, VerifyPlatform } from '@versus/domain/verification';
import type { Queryable } from '../db/database.ts';

export interface GamertagRow {
  user_id: string;
  platform: VerifyPlatform;
  gamertag: string;
  verified: boolean;
  updated_at: Date;
}

export interface RequestRow {
  id: string;
  user_id: string;
  kind: VerifyKind;
  gamertag: string | null;
  full_name: string | null;
  date_of_birth: string | null;
  document_type: DocumentType | null;
  document_last4: string | null;
  status: VerificationStatus;
  reason: string | null;
  reviewed_by: string | null;
  reviewed_at: Date | null;
  created_at: Date;
}

export interface QueueRow extends RequestRow {
  username: string;
  display_name: string;
  profile_full_name: string;
  profile_date_of_birth: string;
}

export interface ProfileFlags {
  verified: Partial<Verified> | null;
  verification_completed_at: Date | null;
}

const REQUEST = `r.id, r.user_id, r.kind, r.gamertag, r.full_name, to_char(r.date_of_birth, 'YYYY-MM-DD') AS date_of_birth,
  r.document_type, r.document_last4, r.status, r.reason, r.reviewed_by, r.reviewed_at, r.created_at`;

export async function gamertagsOf(db: Queryable, userId: string): Promise<GamertagRow[]> {
  return db.query<GamertagRow>('SELECT * FROM gamertags WHERE user_id = $1 ORDER BY platform', [userId]);
}

/** The profile's flags, locked (every change of them goes through here). */
export async function lockFlags(tx: Queryable, userId: string): Promise<ProfileFlags | null> {
  const [row] = await tx.query<ProfileFlags>('SELECT verified, verification_completed_at FROM profiles WHERE id = $1 FOR UPDATE', [userId]);
  return row ?? null;
}

export async function readFlags(db: Queryable, userId: string): Promise<ProfileFlags | null> {
  const [row] = await db.query<ProfileFlags>('SELECT verified, verification_completed_at FROM profiles WHERE id = $1', [userId]);
  return row ?? null;
}

export async function writeFlags(tx: Queryable, userId: string, verified: Verified, completedAt: Date | null): Promise<void> {
  await tx.query('UPDATE profiles SET verified = $2::jsonb, verification_completed_at = $3, updated_at = now() WHERE id = $1', [
    userId,
    JSON.stringify(verified),
    completedAt,
  ]);
}

export async function upsertGamertag(tx: Queryable, userId: string, platform: VerifyPlatform, gamertag: string, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO gamertags (user_id, platform, gamertag, verified, updated_at) VALUES ($1, $2, $3, false, $4)
     ON CONFLICT (user_id, platform) DO UPDATE SET gamertag = EXCLUDED.gamertag, verified = false, updated_at = EXCLUDED.updated_at`,
    [userId, platform, gamertag, now],
  );
}

export async function deleteGamertag(tx: Queryable, userId: string, platform: VerifyPlatform): Promise<boolean> {
  const rows = await tx.query('DELETE FROM gamertags WHERE user_id = $1 AND platform = $2 RETURNING platform', [userId, platform]);
  return rows.length === 1;
}

export async function markGamertagVerified(tx: Queryable, userId: string, platform: VerifyPlatform, gamertag: string): Promise<boolean> {
  const rows = await tx.query(
    'UPDATE gamertags SET verified = true WHERE user_id = $1 AND platform = $2 AND gamertag = $3 RETURNING platform',
    [userId, platform, gamertag],
  );
  return rows.length === 1;
}

/** The latest request of each kind for a player. */
export async function latestRequests(db: Queryable, userId: string): Promise<RequestRow[]> {
  return db.query<RequestRow>(
    `SELECT DISTINCT ON (r.kind) ${REQUEST} FROM verification_requests r WHERE r.user_id = $1 ORDER BY r.kind, r.created_at DESC, r.id`,
    [userId],
  );
}

export async function cancelPending(tx: Queryable, userId: string, kind: VerifyKind, now: Date): Promise<void> {
  await tx.query(
    `UPDATE verification_requests SET status = 'cancelled', reviewed_at = $3 WHERE user_id = $1 AND kind = $2 AND status = 'pending'`,
    [userId, kind, now],
  );
}

export async function pendingOf(tx: Queryable, userId: string, kind: VerifyKind): Promise<RequestRow | null> {
  const [row] = await tx.query<RequestRow>(
    `SELECT ${REQUEST} FROM verification_requests r WHERE r.user_id = $1 AND r.kind = $2 AND r.status = 'pending'`,
    [userId, kind],
  );
  return row ?? null;
}

export async function insertRequest(
  tx: Queryable,
  input: {
    userId: string;
    kind: VerifyKind;
    gamertag?: string;
    fullName?: string;
    dateOfBirth?: string;
    documentType?: DocumentType;
    documentLast4?: string;
    now: Date;
  },
): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    `INSERT INTO verification_requests (user_id, kind, gamertag, full_name, date_of_birth, document_type, document_last4, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      input.userId,
      input.kind,
      input.gamertag ?? null,
      input.fullName ?? null,
      input.dateOfBirth ?? null,
      input.documentType ?? null,
      input.documentLast4 ?? null,
      input.now,
    ],
  );
  return row!.id;
}

const QUEUE = `SELECT ${REQUEST}, p.username, p.display_name, p.full_name AS profile_full_name,
  to_char(p.date_of_birth, 'YYYY-MM-DD') AS profile_date_of_birth
  FROM verification_requests r JOIN profiles p ON p.id = r.user_id`;

export async function queue(db: Queryable, status: VerificationStatus | 'all'): Promise<QueueRow[]> {
  return db.query<QueueRow>(`${QUEUE} WHERE $1 = 'all' OR r.status = $1 ORDER BY r.created_at, r.id LIMIT 200`, [status]);
}

export async function lockRequest(tx: Queryable, id: string): Promise<RequestRow | null> {
  const [row] = await tx.query<RequestRow>(`SELECT ${REQUEST} FROM verification_requests r WHERE r.id = $1 FOR UPDATE`, [id]);
  return row ?? null;
}

export async function queueItem(db: Queryable, id: string): Promise<QueueRow | null> {
  const [row] = await db.query<QueueRow>(`${QUEUE} WHERE r.id = $1`, [id]);
  return row ?? null;
}

export async function review(
  tx: Queryable,
  id: string,
  status: 'approved' | 'rejected',
  adminId: string,
  reason: string | null,
  now: Date,
): Promise<void> {
  await tx.query(`UPDATE verification_requests SET status = $2, reviewed_by = $3, reason = $4, reviewed_at = $5 WHERE id = $1`, [
    id,
    status,
    adminId,
    reason,
    now,
  ]);
}

export async function ownerOf(db: Queryable, requestId: string): Promise<string | null> {
  const [row] = await db.query<{ user_id: string }>('SELECT user_id FROM verification_requests WHERE id = $1', [requestId]);
  return row?.user_id ?? null;
}

export async function timezoneOf(db: Queryable, userId: string): Promise<string | undefined> {
  const [row] = await db.query<{ timezone: string }>('SELECT timezone FROM profiles WHERE id = $1', [userId]);
  return row?.timezone;
}
