// The profile screen's API: my stats and whether avatars can be uploaded, anyone's stats,
// avatar upload and removal (owner only), and the avatar files themselves (public, cached).
import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AUTH, AVATAR_RULES, userResponseSchema } from '@versus/domain';
import { PROFILE } from '@versus/domain/messages';
import { checkAvatarBytes, checkAvatarFile, myProfileSchema, profileStatsSchema } from '@versus/domain/profile';
import type { App, AppContext } from '../context.ts';
import { requireUser, signedInOnly } from '../auth/auth.plugin.ts';
import { badRequest, errorResponses as errors, forbidden } from '../http/errors.ts';
import { sendStoredFile } from '../http/files.ts';
import { acceptUploads, readImageParts, uploadBodyLimit, type ImageChecks } from '../http/uploads.ts';
import { avatarStoreOf } from './avatar-store.ts';
import * as service from './profile.service.ts';

const security = [{ bearer: [] }];
const tags = ['profiles'];
const idParams = z.object({ id: z.string().uuid('Profile id must be a UUID') });
const fileParams = z.object({ userId: z.string().max(64), file: z.string().max(128) });
// The image plus the multipart framing; a larger request is refused with SPEC's size text.
const UPLOAD_BODY_LIMIT = uploadBodyLimit(AVATAR_RULES.maxBytes);
/** SPEC §7: cache 3600. A name is never reused for other bytes, so it is also immutable. */
export const AVATAR_CACHE_CONTROL = 'public, max-age=3600, immutable';

/** SPEC §5's avatar rules: the bytes decide the stored type (a PNG named .jpg is stored as a PNG). */
const avatarChecks: ImageChecks<service.AvatarUpload> = {
  type: (type) => checkAvatarFile({ type, size: 0 }),
  bytes(type, data) {
    const checked = checkAvatarBytes(type, data);
    return checked.ok ? { ok: true, image: { data, type: checked.type } } : checked;
  },
};

/** The one `avatar` image of a multipart form, checked and sniffed (an unreadable form: readImageParts). */
async function readAvatar(request: FastifyRequest): Promise<service.AvatarUpload> {
  if (!request.isMultipart()) throw badRequest('invalid_file', PROFILE.avatarMissing, 'avatar');
  const { image } = await readImageParts(request, { field: 'avatar', onlyField: false, checks: avatarChecks });
  if (!image) throw badRequest('invalid_file', PROFILE.avatarMissing, 'avatar');
  return image;
}

export async function profileFeature(app: App, ctx: AppContext): Promise<void> {
  const avatars = await avatarStoreOf(ctx);

  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    await acceptUploads(scope, {
      maxBytes: AVATAR_RULES.maxBytes,
      fields: 5,
      fieldSize: 1024,
      field: 'avatar',
      tooLarge: PROFILE.fileTooLarge,
    });

    scope.get(
      '/api/profile',
      {
        onRequest: signedInOnly,
        schema: {
          tags,
          security,
          summary: 'My stats (level, wins, losses, streak, live global place, rating per game) and whether avatars can be uploaded',
          response: { 200: myProfileSchema, ...errors(401) },
        },
      },
      async (request) => service.myProfile(ctx, avatars, requireUser(request).userId),
    );

    scope.get(
      '/api/profiles/:id/stats',
      {
        onRequest: signedInOnly,
        schema: {
          tags,
          security,
          params: idParams,
          summary: "A player's stats: level, wins, losses, streak, global place and rating per game",
          response: { 200: profileStatsSchema, ...errors(400, 401, 404) },
        },
      },
      async (request) => service.stats(ctx, request.params.id),
    );

    scope.put(
      '/api/profiles/:id/avatar',
      {
        onRequest: signedInOnly,
        bodyLimit: UPLOAD_BODY_LIMIT,
        schema: {
          tags,
          security,
          params: idParams,
          summary: 'Upload my avatar: multipart with one `avatar` image (jpeg, png, gif, webp or avif, at most 5 MB)',
          description:
            'The bytes must be one of those images (sniffed; stored as what they are). ' +
            'Stored at avatars/{userId}/{userId}-{timestamp}.{ext}; ' +
            "the previous upload is removed. 403 for anyone else's profile; 503 storage_unavailable when the avatars bucket is missing.",
          response: { 200: userResponseSchema, ...errors(400, 401, 403, 503) },
        },
      },
      async (request) => {
        const userId = requireUser(request).userId;
        // Someone else's profile is refused before its upload is read.
        if (request.params.id !== userId) throw forbidden(AUTH.forbidden);
        const upload = await readAvatar(request);
        return { user: await service.uploadAvatar(ctx, avatars, userId, request.params.id, upload) };
      },
    );

    scope.delete(
      '/api/profiles/:id/avatar',
      {
        onRequest: signedInOnly,
        schema: {
          tags,
          security,
          params: idParams,
          summary: 'Remove my avatar (back to initials)',
          response: { 200: userResponseSchema, ...errors(400, 401, 403) },
        },
      },
      async (request) => ({ user: await service.removeAvatar(ctx, avatars, requireUser(request).userId, request.params.id) }),
    );

    scope.get(
      '/api/avatars/:userId/:file',
      {
        schema: { tags, params: fileParams, summary: 'An avatar image (public; cached for an hour, the name never changes its bytes)' },
      },
      async (request, reply) => {
        const file = await service.avatarFile(avatars, `${request.params.userId}/${request.params.file}`);
        return sendStoredFile(request, reply, file, { etag: file.etag, cacheControl: AVATAR_CACHE_CONTROL });
      },
    );
  });
}
