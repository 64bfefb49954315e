// Friends, follows and presence over HTTP, and each process's presence heartbeat. Routes check
// who asks, parse with the shared schemas and call the service.
import { z } from 'zod';
import {
  SOCIAL_LIMITS,
  linkResponseSchema,
  okResponseSchema,
  searchResponseSchema,
  socialOverviewSchema,
  targetRequestSchema,
} from '@versus/domain/social';
import type { App, AppContext } from '../context.ts';
import { requireUser, signedInOnly } from '../auth/auth.plugin.ts';
import { badRequest, errorResponses as errors } from '../http/errors.ts';
import { recordPresence } from './presence.ts';
import * as service from './social.service.ts';

const tags = ['social'];
const security = [{ bearer: [] }];
const idParams = z.object({ id: z.string().max(64) });
const userParams = z.object({ userId: z.string().max(64) });

function targetOf(body: unknown): string {
  const parsed = targetRequestSchema.safeParse(body ?? {});
  if (!parsed.success) throw badRequest('invalid_input', 'userId: a player id is required', 'userId');
  return parsed.data.userId;
}

/** Every SOCIAL_LIMITS.presenceBeatMs, this process writes who is connected to it. */
function startPresence(app: App, ctx: AppContext): void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    const ids = [...ctx.hub.signedInUserIds()];
    if (ids.length === 0) return;
    running = true;
    recordPresence(ctx, ids)
      .catch((error: unknown) => ctx.log.error({ err: error }, 'presence heartbeat failed'))
      .finally(() => {
        running = false;
      });
  }, SOCIAL_LIMITS.presenceBeatMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

export function socialFeature(app: App, ctx: AppContext): void {
  startPresence(app, ctx);

  app.get(
    '/api/social',
    {
      schema: {
        tags,
        security,
        summary: 'My friends, followed players and followers (with presence for friends and followed players) and my pending requests',
        response: { 200: socialOverviewSchema, ...errors(401) },
      },
    },
    async (request) => service.overview(ctx, requireUser(request)),
  );

  app.get(
    '/api/social/search',
    {
      schema: {
        tags,
        security,
        summary:
          `Players by username (at least ${SOCIAL_LIMITS.searchMin} characters; at most ${SOCIAL_LIMITS.searchResults}), ` +
          'with my relation to each',
        querystring: z.object({ q: z.string().max(200).default('') }),
        response: { 200: searchResponseSchema, ...errors(400, 401) },
      },
    },
    async (request) => ({ players: await service.searchPlayers(ctx, requireUser(request), request.query.q) }),
  );

  app.post(
    '/api/social/friends',
    {
      preValidation: signedInOnly,
      schema: {
        tags,
        security,
        summary: 'Send a friend request {userId} (friend_request notification); when they already asked me, this accepts theirs (200)',
        description: '400 for myself, 404 for an unknown player or a demo account, 409 when already friends or a request waits.',
        response: { 200: linkResponseSchema, 201: linkResponseSchema, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const result = await service.requestFriend(ctx, requireUser(request), targetOf(request.body));
      return reply.status(result.created ? 201 : 200).send({ link: result.link });
    },
  );

  app.post(
    '/api/social/follows',
    {
      preValidation: signedInOnly,
      schema: {
        tags,
        security,
        summary: 'Ask to follow a player {userId} (follow_request notification); they accept or decline',
        response: { 201: linkResponseSchema, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const result = await service.requestFollow(ctx, requireUser(request), targetOf(request.body));
      return reply.status(201).send({ link: result.link });
    },
  );

  for (const what of ['accept', 'decline', 'cancel'] as const) {
    app.post(
      `/api/social/requests/:id/${what}`,
      {
        schema: {
          tags,
          security,
          summary:
            what === 'accept'
              ? 'Accept a friend or follow request addressed to me (friend_accepted / follow_accepted to its sender)'
              : what === 'decline'
                ? 'Decline a request addressed to me'
                : 'Withdraw a request I sent',
          description:
            '404 unless I am one of its two players; 403 for the other one of them ' +
            '(and, to accept, for a demo account); 409 once accepted.',
          params: idParams,
          response: { 200: what === 'accept' ? linkResponseSchema : okResponseSchema, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => {
        const link = await service.answer(ctx, requireUser(request), request.params.id, what);
        return link ? { link } : { ok: true as const };
      },
    );
  }

  app.delete(
    '/api/social/friends/:userId',
    {
      schema: { tags, security, summary: 'Remove a friend', params: userParams, response: { 204: z.null(), ...errors(401, 404) } },
    },
    async (request, reply) => {
      await service.remove(ctx, requireUser(request), 'friend', request.params.userId);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/api/social/follows/:userId',
    {
      schema: {
        tags,
        security,
        summary: 'Unfollow a player (or withdraw a follow request)',
        params: userParams,
        response: { 204: z.null(), ...errors(401, 404) },
      },
    },
    async (request, reply) => {
      await service.remove(ctx, requireUser(request), 'follow', request.params.userId);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/api/social/followers/:userId',
    {
      schema: {
        tags,
        security,
        summary: 'Remove one of my followers',
        params: userParams,
        response: { 204: z.null(), ...errors(401, 404) },
      },
    },
    async (request, reply) => {
      await service.removeFollower(ctx, requireUser(request), request.params.userId);
      return reply.status(204).send(null);
    },
  );
}
