// Private rooms over HTTP, the `room:{code}` topic rule and the maintenance job. Routes check
// who asks, parse with the shared schemas and call the service.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { GENERIC, ROOMS } from '@versus/domain';
import {
  ROOM_LIMITS,
  createRoomRequestSchema,
  createRoomResponseSchema,
  joinRoomResponseSchema,
  myRoomResponseSchema,
  normalizeRoomCode,
  roomPreviewResponseSchema,
  roomResponseSchema,
} from '@versus/domain/rooms';
import type { App, AppContext } from '../context.ts';
import { optionalUser, requireUser } from '../auth/auth.plugin.ts';
import { AppError, badRequest, errorResponses as errors } from '../http/errors.ts';
import { scheduleJob } from '../jobs/scheduler.ts';
import * as repo from './rooms.repository.ts';
import * as service from './rooms.service.ts';
import { rejectInvalid } from '../http/validation.ts';
import { limitCodeLookups } from '../http/rate-limit.ts';

const bearer = [{ bearer: [] }];
const tags = ['rooms'];
const codeParams = z.object({ code: z.string().max(64) });

/** Exactly 6 characters, upper-cased ("Room code must be 6 characters"). */
function roomCode(raw: string): string {
  const checked = normalizeRoomCode(raw);
  if (!checked.ok) throw badRequest('invalid_code', checked.message, 'roomCode');
  return checked.code;
}

/** A bad bet tier reads as SPEC's "Invalid bet amount selected."; anything else names its field. */
const roomWording = (field: string | undefined, message: string) =>
  field === 'betTier' ? ROOMS.invalidBet : `${field ?? 'body'}: ${message}`;

/** SPEC §8's "Error … private room: {message}" for failures that are not the user's. */
async function orFallback<T>(request: FastifyRequest, wrap: (message: string) => string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw error;
    request.log.error({ err: error }, wrap('unexpected failure'));
    throw new AppError(500, 'internal', wrap(GENERIC.other));
  }
}

export async function roomsFeature(app: App, ctx: AppContext): Promise<void> {
  // `room:{code}`: the room's creator and its joiner.
  ctx.topics.authorize('room', async ({ user, id }) => {
    if (!id || id.length !== ROOM_LIMITS.codeLength) return false;
    const row = await repo.findByCode(ctx.db, id.toUpperCase());
    return row !== null && (row.creator_id === user.userId || row.joiner_id === user.userId);
  });

  scheduleJob(app, ctx, {
    name: 'rooms-maintenance',
    everyMs: ROOM_LIMITS.maintenanceMs,
    runAtStart: true,
    async run() {
      try {
        const result = await service.runMaintenance(ctx);
        if (result.expired || result.abandoned || result.cleaned || result.failed) ctx.log.info(result, 'rooms maintenance');
        return result;
      } catch (error) {
        ctx.log.error({ err: error }, 'rooms maintenance failed');
        return null;
      }
    },
  });

  app.post(
    '/api/rooms',
    {
      attachValidation: true,
      schema: {
        tags,
        security: bearer,
        summary: "Open a private room; the creator's stake is locked in escrow in the same transaction",
        description:
          'gameType: a web game (default tic-tac-toe); betTier: 5, 10, 20, 50 or 100 (default 20, else "Invalid bet amount ' +
          'selected."); message: trimmed, empty becomes null, at most 200 characters. One active room per user (409 ' +
          '"You already have an active room ({code}). Please cancel it first or wait for it to expire."). Insufficient ' +
          'balance: 409 "Insufficient credits to create this room.". Virtual accounts stake VTokens. Expires after 30 minutes.',
        body: createRoomRequestSchema,
        response: { 201: createRoomResponseSchema, ...errors(400, 401, 403, 409, 500) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request, ROOMS.authRequired);
      rejectInvalid(request, roomWording);
      const result = await orFallback(request, ROOMS.createError, () => service.createRoom(ctx, user, request.body ?? {}));
      return reply.status(201).send(result);
    },
  );

  app.get(
    '/api/rooms/mine',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'My active room (waiting for a player), or null',
        response: { 200: myRoomResponseSchema, ...errors(401) },
      },
    },
    async (request) => ({ room: await service.myRoom(ctx, requireUser(request, ROOMS.authRequired)) }),
  );

  app.get(
    '/api/rooms/:code',
    {
      schema: {
        tags,
        summary: 'Public preview of a waiting room for the join screen (no sign-in needed)',
        description:
          '404 "Room not found" unless a room waiting for a player has the code; 400 unless 6 characters. Lookups, ' +
          'joins and cancels by code are limited per address and per account (429 with Retry-After).',
        params: codeParams,
        response: { 200: roomPreviewResponseSchema, ...errors(400, 404, 429) },
      },
    },
    async (request) => {
      const code = roomCode(request.params.code);
      await limitCodeLookups(ctx, request.ip, optionalUser(request)?.userId ?? null);
      return { room: await service.previewRoom(ctx, code) };
    },
  );

  app.post(
    '/api/rooms/:code/join',
    {
      schema: {
        tags,
        security: bearer,
        summary: "Join a room by code: the joiner's stake is locked and the match created, in one transaction",
        description:
          'Refusals change nothing: 400 "Room code must be 6 characters", 401 "Authentication required", 404 "Room not ' +
          'found", 400 "You cannot join your own room.", 409 "This room is already full.", 410 "This room has expired. ' +
          'Please ask for a new room code.", 409 "Insufficient credits to join this room.". The creator gets `room.joined` ' +
          'on user:{creatorId} and room:{code}; both go to redirectTo (/live-arena?match={id}).',
        params: codeParams,
        response: { 200: joinRoomResponseSchema, ...errors(400, 401, 403, 404, 409, 410, 429, 500) },
      },
    },
    async (request) => {
      const code = roomCode(request.params.code);
      const user = requireUser(request, ROOMS.authRequired);
      await limitCodeLookups(ctx, request.ip, user.userId);
      return orFallback(request, ROOMS.joinError, () => service.joinRoom(ctx, user, code));
    },
  );

  app.post(
    '/api/rooms/:code/cancel',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Cancel my waiting room; its stake is released',
        description: '403 for anyone but the creator; 409 once the room is no longer waiting.',
        params: codeParams,
        response: { 200: roomResponseSchema, ...errors(400, 401, 403, 404, 409, 429, 500) },
      },
    },
    async (request) => {
      const code = roomCode(request.params.code);
      const user = requireUser(request, ROOMS.authRequired);
      // 403 for another's room and 404 for none would tell codes apart: counted as a lookup.
      await limitCodeLookups(ctx, request.ip, user.userId);
      return { room: await orFallback(request, ROOMS.cancelError, () => service.cancelRoom(ctx, user, code)) };
    },
  );
}
