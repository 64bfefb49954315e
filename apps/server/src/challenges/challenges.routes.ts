// Challenges and the matches they become, over HTTP. Each route checks who asks, parses with
// the shared schema, and calls the service.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CHALLENGE } from '@versus/domain';
import {
  acceptChallengeResponseSchema,
  cancelChallengeResponseSchema,
  challengeListSchema,
  challengeResponseSchema,
  type ChallengeList,
  createChallengeRequestSchema,
  createChallengeResponseSchema,
  listChallengesQuerySchema,
} from '@versus/domain/challenges';
import { normalizeCode } from '@versus/domain/catalogue';
import type { App, AppContext } from '../context.ts';
import { optionalUser, requireUser } from '../auth/auth.plugin.ts';
import { AppError, badRequest, errorResponses as errors, notFound } from '../http/errors.ts';
import { scheduleJob } from '../jobs/scheduler.ts';
import * as repo from './challenges.repository.ts';
import * as service from './challenges.service.ts';
import { UUID, rejectInvalid } from '../http/validation.ts';
import { limitCodeLookups } from '../http/rate-limit.ts';

const bearer = [{ bearer: [] }];
const tags = ['challenges'];

const idParams = z.object({ id: z.string().max(64) });

/** A malformed id names no challenge: the same 404 as an unknown one. */
function challengeId(id: string): string {
  if (!UUID.test(id)) throw notFound(CHALLENGE.notFound);
  return id.toLowerCase();
}

// Catalogue texts are shown as they are; zod's own texts get the field in front.
const CATALOGUE_TEXTS = new Set<unknown>(Object.values(CHALLENGE).filter((v) => typeof v === 'string'));

/** A catalogue text stands alone; any other message names its field. */
const challengeWording = (field: string | undefined, message: string) =>
  field && !CATALOGUE_TEXTS.has(message) ? `${field}: ${message}` : message;

/** SPEC §8's generic texts for failures that are not the user's ("Failed to accept challenge..."). */
async function orFallback<T>(request: FastifyRequest, message: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw error;
    request.log.error({ err: error }, message);
    throw new AppError(500, 'internal', message);
  }
}

export async function challengesFeature(app: App, ctx: AppContext): Promise<void> {
  const unlisten = await ctx.challengeList.listen(ctx.db, ctx.log);
  app.addHook('onClose', async () => unlisten());
  scheduleJob(app, ctx, service.expiryJob(ctx));

  // `challenge:{id}`: a public challenge for every signed-in player, a private one for its players.
  ctx.topics.authorize('challenge', async ({ user, id }) => {
    if (!id || !UUID.test(id)) return false;
    const row = await repo.findChallenge(ctx.db, id.toLowerCase());
    if (!row) return false;
    if (row.code === null || row.creator_id === user.userId || row.accepted_by === user.userId) return true;
    return repo.isParticipant(ctx.db, row.id, user.userId);
  });

  app.post(
    '/api/challenges',
    {
      attachValidation: true,
      schema: {
        tags,
        security: bearer,
        summary: 'Create a challenge; the stake is locked in escrow in the same transaction',
        description:
          'Checks, in order: signed in ("Please sign in to create challenges"), platform, gamertag ("Please enter your ' +
          'gamertag/username for this platform."), stake 1–1000 ("Stake must be between $1 and $1000."), duration, ' +
          'players, message ≤ 200, scheduled time, then the balance (409 insufficient_funds, "Insufficient Credits: Need ' +
          '$X but only have $Y. …"). Private challenges get a 6-character code; a private challenge for more than 2 ' +
          'players is a pool. Virtual accounts stake VTokens and create private challenges only. With an ' +
          'Idempotency-Key header, a replay of the same request returns the same challenge (header ' +
          'idempotent-replayed: true) and locks nothing more; the same key with another request is refused (409).',
        headers: z.object({ 'idempotency-key': z.string().min(1).max(200).optional() }),
        body: createChallengeRequestSchema,
        response: { 201: createChallengeResponseSchema, ...errors(400, 401, 403, 409, 500) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request, CHALLENGE.signInToCreate);
      rejectInvalid(request, challengeWording);
      const { replayed, ...result } = await orFallback(request, CHALLENGE.createFailed, () =>
        service.createChallenge(ctx, user, request.body, { idempotencyKey: request.headers['idempotency-key'] }),
      );
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(201).send(result);
    },
  );

  app.get(
    '/api/challenges',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Open public challenges, newest first (at most 50)',
        description:
          'Open, not accepted, no match, no code, not expired. Filters: game, platform, minStake, maxStake, search ' +
          '(title, message, game name, creator). Cached up to 15 s per filter set; the cache is cleared whenever a ' +
          'challenge is created, accepted, cancelled or expires (in every server process). Live updates: the ' +
          '`challenges` realtime topic (challenge.created, challenge.accepted, challenge.cancelled, challenge.expired).',
        querystring: listChallengesQuerySchema,
        response: { 200: challengeListSchema, ...errors(400, 401) },
      },
    },
    async (request, reply) => {
      requireUser(request);
      // Already serialized (from the cache) in the schema's shape: a Buffer is sent as is,
      // skipping the response serializer, which the type provider cannot know.
      const body = await service.listOpenChallengesBody(ctx, request.query);
      return reply.type('application/json; charset=utf-8').send(body as unknown as ChallengeList);
    },
  );

  app.get(
    '/api/challenges/mine',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Challenges I created, accepted or joined, newest first (at most 100)',
        response: { 200: challengeListSchema, ...errors(401) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return { challenges: await service.listMyChallenges(ctx, user) };
    },
  );

  app.get(
    '/api/challenges/expiring-soon',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'My open challenges that expire within the next 5 minutes (the preview window)',
        response: { 200: challengeListSchema, ...errors(401) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return { challenges: await service.listExpiringSoon(ctx, user) };
    },
  );

  app.get(
    '/api/challenges/code/:code',
    {
      schema: {
        tags,
        summary: 'Find an open, unexpired challenge by its 6-character code (no sign-in needed)',
        description:
          'The code is trimmed and uppercased; anything but 6 letters or digits is refused with "Please enter a valid ' +
          '6-character code". Lookups by code are limited per address and per account (429 with Retry-After).',
        params: z.object({ code: z.string().max(64) }),
        response: { 200: challengeResponseSchema, ...errors(400, 404, 429) },
      },
    },
    async (request) => {
      const checked = normalizeCode(request.params.code);
      if (!checked.ok) throw badRequest('invalid_code', checked.message, 'code');
      await limitCodeLookups(ctx, request.ip, optionalUser(request)?.userId ?? null);
      return { challenge: await service.findChallengeByCode(ctx, checked.code) };
    },
  );

  app.get(
    '/api/challenges/:id',
    {
      schema: {
        tags,
        summary: 'One challenge (counts a view)',
        description: 'A private challenge is visible to its players only (others get 404); its code is shown to its players.',
        params: idParams,
        response: { 200: challengeResponseSchema, ...errors(404) },
      },
    },
    async (request) => {
      return { challenge: await service.viewChallenge(ctx, optionalUser(request), challengeId(request.params.id)) };
    },
  );

  app.post(
    '/api/challenges/:id/accept',
    {
      attachValidation: true,
      schema: {
        tags,
        security: bearer,
        summary: 'Accept a challenge: lock my stake, make the match (pending)',
        description:
          'One transaction under the challenge row lock: open, not own ("You cannot accept your own challenge"), not ' +
          'expired ("This challenge is no longer available."), same currency, balance ("Insufficient credits to accept ' +
          'this challenge - Need $X, have $Y"); my stake locked; the match created; the challenge accepted. Of concurrent ' +
          'accepts exactly one wins; the others get 409 "This challenge has already been accepted by another player." and ' +
          'lose nothing. A retry by the winner returns the same result. A private challenge needs its code. Joining a ' +
          'pool that is not yet full returns match null; with an Idempotency-Key header, a retry of that join with the ' +
          'same key returns its answer and locks nothing more, while any other join request by that player gets 409 ' +
          '"You have already joined this challenge." An accept with a code counts as a code lookup (429 with Retry-After).',
        headers: z.object({ 'idempotency-key': z.string().min(1).max(200).optional() }),
        params: idParams,
        body: z
          .object({
            code: z.string().max(16).optional().describe('The code of a private challenge'),
            gamertag: z.string().max(64).optional().describe('My gamertag on the challenge platform'),
          })
          .nullish(),
        response: { 200: acceptChallengeResponseSchema, ...errors(400, 401, 403, 404, 409, 422, 429, 500) },
      },
    },
    async (request) => {
      const user = requireUser(request, CHALLENGE.signInToAccept);
      rejectInvalid(request, challengeWording);
      const id = challengeId(request.params.id);
      if (request.body?.code) await limitCodeLookups(ctx, request.ip, user.userId);
      return orFallback(request, CHALLENGE.acceptFailed, () =>
        service.acceptChallenge(ctx, user, id, {
          code: request.body?.code,
          gamertag: request.body?.gamertag,
          idempotencyKey: request.headers['idempotency-key'],
        }),
      );
    },
  );

  app.post(
    '/api/challenges/:id/cancel',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Cancel my open challenge; every stake is released',
        description:
          'Creator only (403 "Only the creator can cancel this challenge."), open only (409). ' +
          'Cancelling twice returns the cancelled challenge.',
        params: idParams,
        response: { 200: cancelChallengeResponseSchema, ...errors(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return service.cancelChallenge(ctx, user, challengeId(request.params.id));
    },
  );
}
