// GET /api/matches?status=history: a player's finished matches (completed, cancelled, disputed),
// newest first, in the arena's summary shape, for the History tab of /matches.
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { arenaMatchListSchema } from '@versus/domain/arena';
import type { App, AppContext } from '../context.ts';
import { requireUser } from '../auth/auth.plugin.ts';
import * as arenaRepo from '../arena/arena.repository.ts';
import { buildSummary } from '../arena/arena.views.ts';

const HISTORY_LIMIT = 50;
const historyQuery = z.object({ status: z.literal('history', { error: "status must be 'history'." }) });

export function historyFeature(app: App, ctx: AppContext): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/matches',
    {
      schema: {
        tags: ['matches'],
        security: [{ bearer: [] }],
        summary: 'My finished matches (completed, cancelled, disputed), newest first (at most 50)',
        querystring: historyQuery,
        response: { 200: arenaMatchListSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const ids = await arenaRepo.finishedMatchIds(ctx.db, user.userId, HISTORY_LIMIT);
      const rows = await Promise.all(ids.map((id) => arenaRepo.findForView(ctx.db, id)));
      return { matches: rows.flatMap((row) => (row ? [buildSummary(row, user.userId)] : [])) };
    },
  );
}
