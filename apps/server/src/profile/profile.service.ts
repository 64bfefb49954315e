// The player's avatar (SPEC §5, §7 Storage) and stats; names and account type are PATCH /api/auth/user's,
// one set of rules for every screen.
import crypto from 'node:crypto';
import { AUTH, type User } from '@versus/domain';
import { GAMES } from '@versus/domain/catalogue';
import { PROFILE } from '@versus/domain/messages';
import { avatarPath, avatarPathOf, avatarUrl, type AvatarType, type MyProfile, type ProfileStats } from '@versus/domain/profile';
import { displayRating } from '@versus/domain/rating';
import type { AppContext } from '../context.ts';
import * as authRepo from '../auth/auth.repository.ts';
import { publishProfile, toUser } from '../auth/auth.service.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, forbidden, notFound, unauthorized } from '../http/errors.ts';
import * as boards from '../leaderboards/leaderboards.repository.ts';
import type { AvatarStore } from './avatar-store.ts';
import type { StoredFile } from '../storage/file-store.ts';

export const storageMissing = () => new AppError(503, 'storage_unavailable', PROFILE.bucketMissing);

export interface AvatarUpload {
  data: Buffer;
  /** The type the bytes are (checked before this is called). */
  type: AvatarType;
}

const PUT_ATTEMPTS = 3;

/** SPEC §7: uploads retry (a network store's blip); the last failure is thrown. */
async function putWithRetry(store: AvatarStore, path: string, upload: AvatarUpload): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await store.put(path, upload.data, upload.type);
      return;
    } catch (error) {
      if (attempt >= PUT_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
    }
  }
}

/** Stores a new avatar at {userId}/{userId}-{timestamp}.{ext} and removes the previous upload; the owner's only (403). */
export async function uploadAvatar(
  ctx: AppContext,
  store: AvatarStore | null,
  userId: string,
  profileId: string,
  upload: AvatarUpload,
  now = Date.now(),
): Promise<User> {
  if (profileId !== userId) throw forbidden(AUTH.forbidden);
  if (!store) throw storageMissing();
  const current = await authRepo.findUserById(ctx.db, userId);
  if (!current) throw unauthorized(AUTH.signInRequired);
  // A name is never reused for other bytes: the served file is cached as immutable.
  let timestamp = now;
  const previousPath = avatarPathOf(current.avatar_url);
  while (previousPath === avatarPath(userId, timestamp, upload.type)) timestamp += 1;
  const path = avatarPath(userId, timestamp, upload.type);

  await putWithRetry(store, path, upload);
  let result: { row: authRepo.UserRow; previous: string | null };
  try {
    result = await ctx.db.transaction((tx) => swapAvatar(tx, userId, avatarUrl(path)));
  } catch (error) {
    await store.delete(path).catch((cleanup: unknown) => ctx.log.warn({ err: cleanup, path }, 'orphan avatar left behind'));
    throw error;
  }
  await removeOld(ctx, store, userId, result.previous, path);
  return toUser(result.row);
}

/** Clears the avatar (back to initials) and removes the uploaded file. */
export async function removeAvatar(ctx: AppContext, store: AvatarStore | null, userId: string, profileId: string): Promise<User> {
  if (profileId !== userId) throw forbidden(AUTH.forbidden);
  const result = await ctx.db.transaction((tx) => swapAvatar(tx, userId, null));
  if (store) await removeOld(ctx, store, userId, result.previous, null);
  return toUser(result.row);
}

/** Points the locked profile at `url` (null: none) and publishes profile.updated; answers the row and the avatar it replaced. */
async function swapAvatar(tx: Queryable, userId: string, url: string | null): Promise<{ row: authRepo.UserRow; previous: string | null }> {
  const locked = await authRepo.lockAvatar(tx, userId);
  if (!locked) throw unauthorized(AUTH.signInRequired);
  await authRepo.updateProfile(tx, userId, { avatar_url: url });
  const row = (await publishProfile(tx, userId))!;
  return { row, previous: locked.avatar_url };
}

/** Only the player's own old upload: a profile may name any uploaded image (avatar_url), and another's file is theirs. */
async function removeOld(
  ctx: AppContext,
  store: AvatarStore,
  userId: string,
  previousUrl: string | null,
  keep: string | null,
): Promise<void> {
  const previous = avatarPathOf(previousUrl);
  if (!previous || previous === keep || !previous.startsWith(`${userId}/`)) return;
  // The old file is garbage either way; failing to remove it must not fail the upload.
  await store.delete(previous).catch((error: unknown) => ctx.log.warn({ err: error, path: previous }, 'old avatar not removed'));
}

/** A stored avatar by its path in the bucket; 404 for any other path or a missing file. */
export async function avatarFile(store: AvatarStore | null, path: string): Promise<StoredFile & { etag: string }> {
  const ours = avatarPathOf(avatarUrl(path));
  if (!store || !ours) throw notFound(PROFILE.avatarNotFound);
  const file = await store.get(ours);
  if (!file) throw notFound(PROFILE.avatarNotFound);
  // The name changes with every upload, so it identifies the bytes.
  return { ...file, etag: `"${crypto.createHash('sha256').update(ours).digest('hex').slice(0, 32)}"` };
}

/** Level, wins, losses, streak, the live global place and the rating of every game played. */
export async function stats(ctx: AppContext, profileId: string): Promise<ProfileStats> {
  const [record, ratings] = await Promise.all([boards.recordOf(ctx.db, profileId), boards.ratingsOf(ctx.db, profileId)]);
  if (!record) throw notFound(AUTH.profileNotFound);
  return {
    userId: profileId,
    level: record.level,
    wins: record.wins,
    losses: record.losses,
    streak: record.streak,
    rank: record.position,
    globalRating: record.global_rating === null ? null : Math.round(record.global_rating),
    ratings: ratings.map((r) => {
      const shown = displayRating({ rating: r.rating, rd: r.rd, volatility: 0.06 });
      return {
        game: r.game,
        gameName: GAMES[r.game].name,
        rating: shown.value,
        provisional: shown.provisional,
        games: r.games,
        wins: r.wins,
        losses: r.losses,
        draws: r.draws,
        position: r.position,
      };
    }),
  };
}

export async function myProfile(ctx: AppContext, store: AvatarStore | null, userId: string): Promise<MyProfile> {
  return {
    stats: await stats(ctx, userId),
    avatarUploads: store ? { enabled: true, message: null } : { enabled: false, message: PROFILE.bucketMissing },
  };
}
