// Tournaments over HTTP, their realtime topics, the job that runs them and the hand-off from
// finishMatch. Routes check who asks, parse with the shared schemas and call the service.
import { z } from 'zod';
import { TOURNAMENT } from '@versus/domain';
import {
  TOURNAMENT_RULES as R,
  createTournamentRequestSchema,
  tournamentActionResponseSchema,
  tournamentListQuerySchema,
  tournamentListResponseSchema,
  tournamentResponseSchema,
} from '@versus/domain/tournaments';
import type { App, AppContext } from '../context.ts';
import { requireUser } from '../auth/auth.plugin.ts';
import { errorResponses as errors } from '../http/errors.ts';
import { UUID, rejectInvalid } from '../http/validation.ts';
import { scheduleJob } from '../jobs/scheduler.ts';
import { tournamentId, type Tournaments } from './tournaments.service.ts';

const bearer = [{ bearer: [] }];
const tags = ['tournaments'];
const idParams = z.object({ id: z.string().max(64) });
const idempotencyHeader = z.object({ 'idempotency-key': z.string().min(1).max(200).optional() });

/** How often the job looks for tournaments to start, results to apply, arenas to pair or end. */
const RUN_EVERY_MS = 2_000;

// Catalogue texts (the request schema's own) are shown as they are; zod's texts get the field in front.
const CATALOGUE_TEXTS = new Set<unknown>([
  ...Object.values(TOURNAMENT).filter((v) => typeof v === 'string'),
  TOURNAMENT.nameLength(R.nameMin, R.nameMax),
  TOURNAMENT.invalidPrize(R.maxSponsoredPrize),
  TOURNAMENT.playersInvalid(R.minPlayers, R.maxPlayers),
  TOURNAMENT.playersInvalid(R.minPlayers, R.maxArenaPlayers),
  TOURNAMENT.arenaDurationInvalid(R.arenaMinutes.min, R.arenaMinutes.max),
]);
const wording = (field: string | undefined, message: string) => (field && !CATALOGUE_TEXTS.has(message) ? `${field}: ${message}` : message);

export async function tournamentsFeature(app: App, ctx: AppContext, tournaments: Tournaments): Promise<void> {
  // Every signed-in player may follow a tournament and the list (they are public, as the marketplace is).
  ctx.topics.authorize('tournament', ({ id }) => id !== undefined && UUID.test(id));
  ctx.topics.authorize('tournaments', ({ id }) => id === undefined);

  const unlisten = await tournaments.listen();
  app.addHook('onClose', async () => unlisten());
  scheduleJob(app, ctx, {
    name: 'tournaments.run',
    everyMs: RUN_EVERY_MS,
    runAtStart: true,
    async run() {
      const done = await tournaments.runDue();
      if (done.failed > 0) throw new Error(`tournaments: ${done.failed} run(s) failed`);
      return done;
    },
  });

  app.post(
    '/api/tournaments',
    {
      attachValidation: true,
      schema: {
        tags,
        security: bearer,
        summary: "Create a tournament; a sponsor's prize is locked in escrow in the same transaction",
        description:
          'Knockout (4–64 players, seeded by rating, byes to the top seeds; best of 1 or 3) or arena (20–60 minutes, ' +
          're-paired as soon as a game ends). Entry: a stake of 1–1000 in the creator’s own currency (virtual accounts: ' +
          'VTokens), or a sponsored prize (promoters and admins only: free entry, the prize locked from their pcredits now ' +
          'and paid at par). Starts 5 minutes to 7 days from now. Refusals are 400 with the catalogue text and the field; ' +
          'a sponsor short of funds 409 insufficient_funds. With an Idempotency-Key header, a replay of the same request ' +
          'answers the same tournament (header idempotent-replayed: true) and locks nothing more; the same key with another ' +
          'request is refused (409 idempotency_key_reused).',
        headers: idempotencyHeader,
        body: createTournamentRequestSchema,
        response: { 201: tournamentResponseSchema, ...errors(400, 401, 409) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      rejectInvalid(request, wording);
      const { tournament, replayed } = await tournaments.create(user, request.body, request.headers['idempotency-key']);
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(201).send({ tournament });
    },
  );

  app.get(
    '/api/tournaments',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Tournaments: upcoming (entries open), live, or finished; by game and entry',
        querystring: tournamentListQuerySchema,
        response: { 200: tournamentListResponseSchema, ...errors(400, 401) },
      },
    },
    async (request) => ({ tournaments: await tournaments.list(requireUser(request), request.query) }),
  );

  app.get(
    '/api/tournaments/:id',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'One tournament: rules, clock, entry, prize split, players, bracket or standings, games, my current game',
        description: 'Live: realtime topic tournament:{id} (any signed-in player); every change is an event there: refetch this.',
        params: idParams,
        response: { 200: tournamentResponseSchema, ...errors(401, 404) },
      },
    },
    async (request) => ({ tournament: await tournaments.view(requireUser(request), tournamentId(request.params.id)) }),
  );

  app.post(
    '/api/tournaments/:id/join',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Enter: the stake is locked in escrow, owned by the tournament, until it ends',
        description:
          'Refusals change nothing: 409 entries closed, already entered, full, insufficient funds; 403 a virtual account ' +
          'in a real tournament ("Tournament entry is not available for virtual accounts."), a real one in a VTokens ' +
          'tournament; 422 another currency. The player is notified (tournament_registered). With an Idempotency-Key ' +
          'header, a retry of a join that went through answers as it did (header idempotent-replayed: true) and locks ' +
          'nothing more; the key of a join since left is refused (409 idempotency_key_reused).',
        headers: idempotencyHeader,
        params: idParams,
        response: { 200: tournamentActionResponseSchema, ...errors(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { replayed, ...answer } = await tournaments.join(user, tournamentId(request.params.id), request.headers['idempotency-key']);
      if (replayed) reply.header('idempotent-replayed', 'true');
      return answer;
    },
  );

  app.post(
    '/api/tournaments/:id/cancel',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Cancel: an admin (scheduled or running), or the creator before the start',
        description:
          'In one transaction: games being played end void (no winner, nobody rated), every entry stake goes back to its ' +
          'player and a sponsored prize to the sponsor in one ledger release, and every player (and the sponsor) is notified ' +
          '(tournament_cancelled). 403 anyone else; 409 started (the creator), finished or cancelled already.',
        params: idParams,
        response: { 200: tournamentActionResponseSchema, ...errors(401, 403, 404, 409) },
      },
    },
    async (request) => tournaments.cancel(requireUser(request), tournamentId(request.params.id)),
  );

  app.post(
    '/api/tournaments/:id/leave',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Leave: before the start the stake is returned; a running arena pauses me; a knockout forfeits my match',
        params: idParams,
        response: { 200: tournamentActionResponseSchema, ...errors(401, 404, 409) },
      },
    },
    async (request) => tournaments.leave(requireUser(request), tournamentId(request.params.id)),
  );

  app.post(
    '/api/tournaments/:id/resume',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Come back to a running arena after a pause: paired as soon as an opponent is free',
        params: idParams,
        response: { 200: tournamentActionResponseSchema, ...errors(401, 404, 409) },
      },
    },
    async (request) => tournaments.resume(requireUser(request), tournamentId(request.params.id)),
  );
}
