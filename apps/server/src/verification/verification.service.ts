// Verification without a provider: gamertags and the identity check are requests in the admin queue. Every
// change locks the player's profile first, so the flags come from a consistent picture.
import { ADMIN_TOPIC } from '../results/results.service.ts';
import {
  VERIFY_PLATFORMS,
  VERIFY_TEXT,
  checkGamertag,
  checkIdentity,
  withAll,
  type IdentityRequest,
  type LinkedGamertag,
  type QueueItem,
  type Verified,
  type VerificationRequest,
  type VerificationState,
  type VerificationStatus,
  type VerifyPlatform,
} from '@versus/domain/verification';
import { todayIn } from '@versus/domain';
import type { AccessClaims } from '../auth/claims.ts';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import { publish, topics } from '../realtime/publish.ts';
import { tell } from '../social/tell.ts';
import * as repo from './verification.repository.ts';
import { UUID } from '../http/validation.ts';

export type ServiceContext = Pick<AppContext, 'db'>;

const iso = (d: Date | string) => new Date(d).toISOString();

const flagsOf = (row: repo.ProfileFlags | null): Omit<Verified, 'all'> => ({
  xbox: row?.verified?.xbox === true,
  playstation: row?.verified?.playstation === true,
  steam: row?.verified?.steam === true,
  identity: row?.verified?.identity === true,
});

function toRequest(row: repo.RequestRow): VerificationRequest {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    gamertag: row.gamertag,
    reason: row.reason,
    createdAt: iso(row.created_at),
    reviewedAt: row.reviewed_at ? iso(row.reviewed_at) : null,
  };
}

function toQueueItem(row: repo.QueueRow): QueueItem {
  return {
    ...toRequest(row),
    user: {
      id: row.user_id,
      username: row.username,
      displayName: row.display_name,
      fullName: row.profile_full_name,
      dateOfBirth: row.profile_date_of_birth,
    },
    fullName: row.full_name,
    dateOfBirth: row.date_of_birth,
    documentType: row.document_type,
    documentLast4: row.document_last4,
    reviewedBy: row.reviewed_by,
  };
}

const toGamertag = (row: repo.GamertagRow): LinkedGamertag => ({
  platform: row.platform,
  gamertag: row.gamertag,
  verified: row.verified,
  updatedAt: iso(row.updated_at),
});

/** A platform counts only while its gamertag is linked and verified; verificationCompletedAt is kept once set. */
async function recompute(
  tx: Queryable,
  userId: string,
  identity: boolean,
  now: Date,
  previous: repo.ProfileFlags,
): Promise<{ verified: Verified; completedAt: Date | null }> {
  const tags = await repo.gamertagsOf(tx, userId);
  const flag = (p: VerifyPlatform) => tags.some((t) => t.platform === p && t.verified);
  const verified = withAll(
    { xbox: flag('xbox'), playstation: flag('playstation'), steam: flag('steam'), identity },
    tags.map((t) => t.platform),
  );
  const completedAt = previous.verification_completed_at ?? (verified.all ? now : null);
  await repo.writeFlags(tx, userId, verified, completedAt);
  await publish(tx, topics.user(userId), 'verification.updated', {
    verified,
    verificationCompletedAt: completedAt ? iso(completedAt) : null,
  });
  return { verified, completedAt };
}

export async function state(ctx: ServiceContext, user: AccessClaims): Promise<VerificationState> {
  const [flags, tags, requests] = await Promise.all([
    repo.readFlags(ctx.db, user.userId),
    repo.gamertagsOf(ctx.db, user.userId),
    repo.latestRequests(ctx.db, user.userId),
  ]);
  if (!flags) throw notFound(VERIFY_TEXT.requestNotFound);
  return {
    provider: 'manual',
    verified: { ...flagsOf(flags), all: flags.verified?.all === true },
    verificationCompletedAt: flags.verification_completed_at ? iso(flags.verification_completed_at) : null,
    gamertags: tags.map(toGamertag),
    requests: requests.map(toRequest),
  };
}

export function parsePlatform(raw: string): VerifyPlatform {
  if (!(VERIFY_PLATFORMS as readonly string[]).includes(raw)) throw notFound(VERIFY_TEXT.invalidPlatform);
  return raw as VerifyPlatform;
}

/** Links (or changes) a gamertag and asks for its review. The same verified gamertag again is a 409. */
export async function linkGamertag(
  ctx: ServiceContext,
  user: AccessClaims,
  platform: VerifyPlatform,
  raw: unknown,
  now = new Date(),
): Promise<VerificationState> {
  const checked = checkGamertag(raw);
  if (!checked.ok) throw badRequest('invalid_gamertag', checked.message, 'gamertag');
  await ctx.db.transaction(async (tx) => {
    const flags = await repo.lockFlags(tx, user.userId);
    if (!flags) throw notFound(VERIFY_TEXT.requestNotFound);
    const current = (await repo.gamertagsOf(tx, user.userId)).find((t) => t.platform === platform);
    const pending = await repo.pendingOf(tx, user.userId, platform);
    if (current?.gamertag === checked.gamertag) {
      if (current.verified) throw conflict('already_verified', VERIFY_TEXT.alreadyVerified, 'gamertag');
      if (pending) throw conflict('already_pending', VERIFY_TEXT.alreadyPending, 'gamertag');
    }
    await repo.cancelPending(tx, user.userId, platform, now);
    await repo.upsertGamertag(tx, user.userId, platform, checked.gamertag, now);
    await repo.insertRequest(tx, { userId: user.userId, kind: platform, gamertag: checked.gamertag, now });
    await recompute(tx, user.userId, flagsOf(flags).identity, now, flags);
    await publish(tx, ADMIN_TOPIC, 'verification.requested', { kind: platform });
  });
  return state(ctx, user);
}

export async function unlinkGamertag(
  ctx: ServiceContext,
  user: AccessClaims,
  platform: VerifyPlatform,
  now = new Date(),
): Promise<VerificationState> {
  await ctx.db.transaction(async (tx) => {
    const flags = await repo.lockFlags(tx, user.userId);
    if (!flags) throw notFound(VERIFY_TEXT.requestNotFound);
    if (!(await repo.deleteGamertag(tx, user.userId, platform))) throw notFound(VERIFY_TEXT.notLinked);
    await repo.cancelPending(tx, user.userId, platform, now);
    await recompute(tx, user.userId, flagsOf(flags).identity, now, flags);
  });
  return state(ctx, user);
}

export async function requestIdentity(
  ctx: ServiceContext,
  user: AccessClaims,
  input: IdentityRequest,
  now = new Date(),
): Promise<VerificationState> {
  // The age on today's date where the player lives, as at registration.
  const checked = checkIdentity(input, todayIn(await repo.timezoneOf(ctx.db, user.userId), now));
  if (!checked.ok) throw badRequest('invalid_input', checked.message, checked.field);
  await ctx.db.transaction(async (tx) => {
    const flags = await repo.lockFlags(tx, user.userId);
    if (!flags) throw notFound(VERIFY_TEXT.requestNotFound);
    if (flagsOf(flags).identity) throw conflict('already_verified', VERIFY_TEXT.alreadyVerified);
    if (await repo.pendingOf(tx, user.userId, 'identity')) throw conflict('already_pending', VERIFY_TEXT.alreadyPending);
    await repo.insertRequest(tx, { userId: user.userId, kind: 'identity', ...checked.value, now });
    await publish(tx, ADMIN_TOPIC, 'verification.requested', { kind: 'identity' });
  });
  return state(ctx, user);
}

// ---------------------------------------------------------------------------------------
// Admin review

export async function listQueue(ctx: ServiceContext, status: VerificationStatus | 'all'): Promise<QueueItem[]> {
  return (await repo.queue(ctx.db, status)).map(toQueueItem);
}

export async function reviewRequest(
  ctx: ServiceContext,
  admin: AccessClaims,
  id: string,
  decision: 'approve' | 'reject',
  reasonRaw: string | undefined,
  now = new Date(),
): Promise<{ request: QueueItem; verified: Verified; verificationCompletedAt: string | null }> {
  if (!UUID.test(id)) throw notFound(VERIFY_TEXT.requestNotFound);
  const reason = reasonRaw?.trim() ?? '';
  if (decision === 'reject' && (reason.length < 1 || reason.length > 500))
    throw badRequest('invalid_input', VERIFY_TEXT.reasonRequired, 'reason');
  if (reason.length > 500) throw badRequest('invalid_input', VERIFY_TEXT.reasonRequired, 'reason');
  const ownerId = await repo.ownerOf(ctx.db, id);
  if (!ownerId) throw notFound(VERIFY_TEXT.requestNotFound);
  // Nobody verifies themselves: an admin's own request waits for another admin.
  if (ownerId === admin.userId) throw forbidden(VERIFY_TEXT.ownRequest);
  const result = await ctx.db.transaction(async (tx) => {
    // The player's profile first, as every other verification change does.
    const flags = await repo.lockFlags(tx, ownerId);
    const request = await repo.lockRequest(tx, id);
    if (!flags || !request || request.user_id !== ownerId) throw notFound(VERIFY_TEXT.requestNotFound);
    if (request.status !== 'pending') throw conflict('not_pending', VERIFY_TEXT.notPending);
    let identity = flagsOf(flags).identity;
    if (decision === 'approve') {
      if (request.kind === 'identity') identity = true;
      else if (!(await repo.markGamertagVerified(tx, request.user_id, request.kind, request.gamertag ?? '')))
        throw conflict('not_pending', VERIFY_TEXT.notPending);
    }
    await repo.review(tx, id, decision === 'approve' ? 'approved' : 'rejected', admin.userId, reason || null, now);
    const { verified, completedAt } = await recompute(tx, request.user_id, identity, now, flags);
    const label = VERIFY_TEXT.kindLabels[request.kind];
    await tell(tx, {
      userId: request.user_id,
      type: 'account_update',
      metadata: {
        message: decision === 'approve' ? `Your ${label} is verified.` : `Your ${label} was not verified: ${reason}`,
        requestId: id,
      },
      now,
    });
    await publish(tx, ADMIN_TOPIC, 'verification.reviewed', { id, status: decision === 'approve' ? 'approved' : 'rejected' });
    return { verified, verificationCompletedAt: completedAt ? iso(completedAt) : null };
  });
  const row = await repo.queueItem(ctx.db, id);
  return { request: toQueueItem(row!), ...result };
}
