// The profile screen and the leaderboards (SPEC §2, §3, §5, §7): wire shapes, the avatar rules and
// the names of stored avatar files.
import { z } from 'zod';
import { AVATAR_RULES } from './constants.ts';
import { GAME_IDS, GAMES } from './catalogue.ts';
import { PROFILE } from './messages.ts';
import { sniffImageType, type EvidenceType } from './results.ts';

// ---------------------------------------------------------------------------------------
// Avatars (SPEC §5, §7)

export const AVATAR_BUCKET = 'avatars';
export type AvatarType = EvidenceType;

const EXTENSIONS: Record<AvatarType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
};

/** SPEC §5's checks on what the browser says the file is: null when it may be sent, else the message. */
export function checkAvatarFile(file: { type: string; size: number }): string | null {
  const type = file.type.toLowerCase();
  if (!type.startsWith('image/')) return PROFILE.fileNotImage;
  if (!(AVATAR_RULES.types as readonly string[]).includes(type)) return PROFILE.unsupportedImage(type.slice('image/'.length));
  if (file.size > AVATAR_RULES.maxBytes) return PROFILE.fileTooLarge;
  return null;
}

/** The declared type is checked first for SPEC's messages, then the bytes decide what is stored. */
export function checkAvatarBytes(declaredType: string, bytes: Uint8Array): { ok: true; type: AvatarType } | { ok: false; message: string } {
  const problem = checkAvatarFile({ type: declaredType, size: bytes.length });
  if (problem) return { ok: false, message: problem };
  const type = sniffImageType(bytes);
  return type ? { ok: true, type } : { ok: false, message: PROFILE.fileNotImage };
}

/** The path inside the avatars bucket: {userId}/{userId}-{timestamp}.{ext}. */
export function avatarPath(userId: string, timestamp: number, type: AvatarType): string {
  return `${userId}/${userId}-${timestamp}.${EXTENSIONS[type]}`;
}

/** The address an avatar is served at (an app path, so it works behind any host). */
export const avatarUrl = (path: string): string => `/api/${AVATAR_BUCKET}/${path}`;

/** The path inside the bucket of one of our avatar addresses, or null for any other address. */
export function avatarPathOf(url: string | null | undefined): string | null {
  if (!url) return null;
  const match = /^\/api\/avatars\/([0-9a-f-]{36})\/([0-9a-f-]{36})-(\d{1,16})\.(jpg|png|gif|webp|avif)$/.exec(url);
  if (!match || match[1] !== match[2]) return null;
  return url.slice(`/api/${AVATAR_BUCKET}/`.length);
}

export const avatarUploadsSchema = z.object({
  enabled: z.boolean(),
  /** Why uploads are off (SPEC §8 "Storage bucket 'avatars' not found. Uploads are temporarily disabled."). */
  message: z.string().nullable(),
});

// ---------------------------------------------------------------------------------------
// Stats

export const gameRatingSchema = z.object({
  game: z.enum(GAME_IDS),
  gameName: z.string(),
  /** Glicko-2, rounded; provisional while the deviation is above 110. */
  rating: z.number().int(),
  provisional: z.boolean(),
  games: z.number().int(),
  wins: z.number().int(),
  losses: z.number().int(),
  draws: z.number().int(),
  /** Place on this game's leaderboard (real accounts); null for a virtual account. */
  position: z.number().int().nullable(),
});
export type GameRating = z.infer<typeof gameRatingSchema>;

export const profileStatsSchema = z.object({
  userId: z.string().uuid(),
  level: z.number().int(),
  wins: z.number().int(),
  losses: z.number().int(),
  streak: z.number().int(),
  /** Place on the global leaderboard now; null while unranked (no rated game, or a virtual account). */
  rank: z.number().int().nullable(),
  /** The games-weighted mean of the per-game ratings; null before any rated game. */
  globalRating: z.number().int().nullable(),
  ratings: z.array(gameRatingSchema),
});
export type ProfileStats = z.infer<typeof profileStatsSchema>;

/** GET /api/profile: the signed-in player's stats, and whether avatars can be uploaded. */
export const myProfileSchema = z.object({ stats: profileStatsSchema, avatarUploads: avatarUploadsSchema });
export type MyProfile = z.infer<typeof myProfileSchema>;

// ---------------------------------------------------------------------------------------
// Leaderboards (real accounts only: SPEC §6 hides them from virtual mode)

export const LEADERBOARD_SCOPES = ['global', ...GAME_IDS] as const;
export type LeaderboardScope = (typeof LEADERBOARD_SCOPES)[number];
export const LEADERBOARD_RULES = { defaultPageSize: 20, maxPageSize: 50, maxPage: 10_000 } as const;

export const leaderboardQuerySchema = z.object({
  game: z.enum(LEADERBOARD_SCOPES, { error: PROFILE.unknownBoard }).default('global'),
  page: z.coerce
    .number({ error: PROFILE.badPage })
    .int(PROFILE.badPage)
    .min(1, PROFILE.badPage)
    .max(LEADERBOARD_RULES.maxPage, PROFILE.badPage)
    .default(1),
  pageSize: z.coerce
    .number({ error: PROFILE.badPageSize })
    .int(PROFILE.badPageSize)
    .min(1, PROFILE.badPageSize)
    .max(LEADERBOARD_RULES.maxPageSize, PROFILE.badPageSize)
    .default(LEADERBOARD_RULES.defaultPageSize),
});
export type LeaderboardQuery = z.infer<typeof leaderboardQuerySchema>;

export const leaderboardEntrySchema = z.object({
  /** 1 is the best; equal ratings share a place. */
  position: z.number().int(),
  userId: z.string().uuid(),
  username: z.string(),
  displayName: z.string(),
  avatar: z.string().nullable(),
  level: z.number().int(),
  rating: z.number().int(),
  provisional: z.boolean(),
  games: z.number().int(),
  wins: z.number().int(),
  losses: z.number().int(),
  /** The player's current win streak (across games). */
  streak: z.number().int(),
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntrySchema>;

export const leaderboardSchema = z.object({
  game: z.enum(LEADERBOARD_SCOPES),
  title: z.string(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Ranked players on this board. */
  total: z.number().int(),
  entries: z.array(leaderboardEntrySchema),
  /** The asking player's own row (pinned), or null while they are not on this board. */
  me: leaderboardEntrySchema.nullable(),
});
export type Leaderboard = z.infer<typeof leaderboardSchema>;

export const boardTitle = (scope: LeaderboardScope): string => (scope === 'global' ? 'Global' : GAMES[scope].name);
