// GET /api/leaderboards: global and per-game boards, a page at a time, with the asker's own
// row pinned; and the job that keeps the stored places (profiles.rank, global_rank) current.
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { leaderboardQuerySchema, leaderboardSchema } from '@versus/domain/profile';
import type { App, AppContext } from '../context.ts';
import { requireUser, signedInOnly } from '../auth/auth.plugin.ts';
import { scheduleJob } from '../jobs/scheduler.ts';
import * as service from './leaderboards.service.ts';
import { errorResponses as errors } from '../http/errors.ts';

/** How soon after a match the stored places follow (the boards themselves are always live). */
export const RANKS_EVERY_MS = 10_000;

export function leaderboardsFeature(app: App, ctx: AppContext): void {
  scheduleJob(app, ctx, {
    name: 'leaderboards.ranks',
    everyMs: RANKS_EVERY_MS,
    runAtStart: true,
    run: service.ranksJob(ctx),
  });

  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/leaderboards',
    {
      onRequest: signedInOnly,
      schema: {
        tags: ['leaderboards'],
        security: [{ bearer: [] }],
        summary: 'A leaderboard page (global or one game) by rating, with wins, losses and streak, and my own row',
        description:
          "game: 'global' (default; the games-weighted mean of each player's Glicko-2 ratings) or a game id. Real accounts only: " +
          'virtual accounts are never listed, and asking as one is refused (403 virtual_account). Equal ratings share a place.',
        querystring: leaderboardQuerySchema,
        response: { 200: leaderboardSchema, ...errors(400, 401, 403) },
      },
    },
    async (request) => service.board(ctx, requireUser(request).userId, request.query),
  );
}
