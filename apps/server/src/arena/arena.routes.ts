// The live arena over HTTP and the realtime socket. Routes parse with the shared schemas and
// call the Arena; the Arena checks who may do what, then does it in one version-checked write.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ARENA_RULES } from '@versus/domain/arena';
import {
  arenaMatchListSchema,
  drawRequestSchema,
  matchViewResponseSchema,
  moveRequestSchema,
  replaySchema,
  resignRequestSchema,
} from '@versus/domain/arena';
import type { App, AppContext } from '../context.ts';
import { requireUser } from '../auth/auth.plugin.ts';
import { errorResponses as errors } from '../http/errors.ts';
import { scheduleJob } from '../jobs/scheduler.ts';
import * as repo from './arena.repository.ts';
import type { Arena } from './arena.service.ts';
import { matchId } from './arena.record.ts';
import { UUID } from '../http/validation.ts';

const bearer = [{ bearer: [] }];
const tags = ['arena'];
const idParams = z.object({ id: z.string().max(64) });

// Who may follow a match's topics never changes (its players and its privacy are set when it is
// made), so the answer is remembered: every player subscribes at least twice per match.
type TopicAccess = NonNullable<Awaited<ReturnType<typeof repo.topicAccess>>>;
const ACCESS_CACHE = 50_000;

/** The arena's topics: who may follow them, who is present, and who numbers `match:{id}`. */
function arenaTopics(ctx: AppContext): void {
  // The lookup itself is remembered: both players of a new match subscribe at once, and the second waits for the first's.
  const access = new Map<string, Promise<TopicAccess | null>>();
  function topicAccess(id: string | undefined): Promise<TopicAccess | null> {
    if (!id || !UUID.test(id)) return Promise.resolve(null);
    const key = id.toLowerCase();
    const cached = access.get(key);
    if (cached) return cached;
    if (access.size >= ACCESS_CACHE) access.delete(access.keys().next().value!);
    const lookup = repo.topicAccess(ctx.db, key);
    access.set(key, lookup);
    // No such match (yet) or a failed read: not remembered.
    lookup.then(
      (row) => row === null && access.get(key) === lookup && access.delete(key),
      () => access.get(key) === lookup && access.delete(key),
    );
    return lookup;
  }
  const isPlayer = (row: TopicAccess | null, userId: string) => row !== null && (row.player1_id === userId || row.player2_id === userId);

  // `match:{id}`: its players; anyone signed in when the match is public (spectators).
  ctx.topics.authorize('match', async ({ user, id }) => {
    const row = await topicAccess(id);
    return row !== null && (!row.is_private || isPlayer(row, user.userId));
  });
  // Presence on `match:{id}` (the arena's "Here" / "Away"): its two players, not spectators.
  ctx.topics.presenceOn('match', async ({ user, id }) => isPlayer(await topicAccess(id), user.userId));
  // `match:{id}` is numbered by the match: every change announces itself there at its new version.
  ctx.topics.version('match', async ({ id, follower }) => (id && UUID.test(id) ? repo.followMatch(ctx.db, id.toLowerCase(), follower) : 0));
  // `arena-join:{id}`: the two players, who hear each other arrive.
  ctx.topics.authorize('arena-join', async ({ user, id }) => isPlayer(await topicAccess(id), user.userId));
}

const REFUSALS =
  `Refusals change nothing: 401 signed out; 404 no such match; 403 not a player (a spectator or a stranger, ` +
  `"Only the players of this match can play in it."); 409 not started, match over, stale version ("This match has ` +
  `changed since you last saw it..."), not your turn; 400 an invalid or illegal move (the game's own text).`;

const FLAG_FIRST =
  `The clock is read at the server's time first: when a flag has already fallen, that timeout is what happened ` +
  `(stored and published) and the request is refused: 409 time_out to the player who lost the game on time, 409 ` +
  `match_over or stale_version to the other.`;

/** The arena's routes, topics and sweep; buildApp makes the Arena and plays socket moves with it. */
export function arenaFeature(app: App, ctx: AppContext, arena: Arena): void {
  arenaTopics(ctx);

  scheduleJob(app, ctx, {
    name: 'arena.sweep',
    everyMs: ARENA_RULES.sweepEveryMs,
    runAtStart: true,
    async run() {
      const swept = await arena.sweep();
      if (swept.flagged + swept.noShows > 0) ctx.log.info(swept, 'arena: ended overdue clocks and no-shows');
      if (swept.failed > 0) throw new Error(`arena sweep: ${swept.failed} match(es) failed`);
      return swept;
    },
  });

  const view = async (request: FastifyRequest, id: string) => ({ match: await arena.view(requireUser(request), id) });

  app.get(
    '/api/arena/matches',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'My active matches (pending, accepted, in progress), soonest first',
        response: { 200: arenaMatchListSchema, ...errors(401) },
      },
    },
    async (request) => ({ matches: await arena.active(requireUser(request)) }),
  );

  app.get(
    '/api/matches/:id',
    {
      schema: {
        tags: ['matches'],
        security: bearer,
        summary: 'One match as its player sees it: players, series, the current game (my view), clocks, moves, result',
        description:
          'For the two players only (403 "Only the players of this match can view it."; spectators use /api/spectate/{id}). ' +
          "The game part is the rules' view for my seat: the other player's unrevealed throw or a ludo seed never appear. " +
          'Live changes: realtime topic match:{id} (see MatchEvent); a gap in versions means refetch this.',
        params: idParams,
        response: { 200: matchViewResponseSchema, ...errors(401, 403, 404) },
      },
    },
    async (request) => view(request, matchId(request.params.id)),
  );

  app.post(
    '/api/matches/:id/ready',
    {
      schema: {
        tags: ['matches'],
        security: bearer,
        summary: 'I am here: ready (the web calls it on arrival with auto_ready=true); both ready starts the match',
        description:
          'Idempotent. Publishes player_joined on arena-join:{id} and match.ready (or match.started) on match:{id}. ' +
          'After the no-show deadline (5 minutes after the scheduled start) the match is settled instead: the player who ' +
          'was ready wins by forfeit; if neither was, the match is void and both stakes return (409 for the late player).',
        params: idParams,
        response: { 200: matchViewResponseSchema, ...errors(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const id = matchId(request.params.id);
      await arena.ready(requireUser(request), id);
      return view(request, id);
    },
  );

  app.post(
    '/api/matches/:id/moves',
    {
      schema: {
        tags: ['matches'],
        security: bearer,
        summary: "Play a move: validated by the game's rules, clocked, stored, then published",
        description:
          `Body: the move in the game's input (tic-tac-toe a cell 0-8, RPS a throw, chess UCI/SAN or {from,to,promotion}, ` +
          `checkers a path, ludo {type:"roll"} or {type:"move",token}), the match version it was made on, the lag the ` +
          `client measured (credited back within a quota) and whether it was a premove (costs no time, within the same ` +
          `quota). Elapsed time is the server's receive time minus the turn start. A move after the flag fell loses the ` +
          `game on time (409 time_out); one after the opponent's flag fell (simultaneous throws) is not played: that ` +
          `timeout came first (409). ${REFUSALS} The same move can be sent over the socket: {t:"move"}.`,
        params: idParams,
        body: moveRequestSchema,
        response: { 200: matchViewResponseSchema, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const receivedAt = arena.now();
      const id = matchId(request.params.id);
      await arena.move(requireUser(request), id, request.body, receivedAt);
      return view(request, id);
    },
  );

  app.post(
    '/api/matches/:id/resign',
    {
      schema: {
        tags: ['matches'],
        security: bearer,
        summary: 'Resign: the match (the whole series) is conceded; the escrow is paid to the opponent',
        description: FLAG_FIRST,
        params: idParams,
        body: resignRequestSchema,
        response: { 200: matchViewResponseSchema, ...errors(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const id = matchId(request.params.id);
      await arena.resign(requireUser(request), id, request.body?.version);
      return view(request, id);
    },
  );

  app.post(
    '/api/matches/:id/draw',
    {
      schema: {
        tags: ['matches'],
        security: bearer,
        summary: 'Offer, accept or decline a draw of the current game (chess and checkers)',
        description:
          "An offer stands until the opponent accepts, declines or moves; offering while the opponent's offer stands " +
          'accepts it. An agreed draw ends the current game drawn; the series replays it (the third drawn game makes the ' +
          'match a draw and returns both stakes). ' +
          FLAG_FIRST,
        params: idParams,
        body: drawRequestSchema,
        response: { 200: matchViewResponseSchema, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const id = matchId(request.params.id);
      await arena.draw(requireUser(request), id, request.body);
      return view(request, id);
    },
  );

  app.get(
    '/api/matches/:id/replay',
    {
      schema: {
        tags: ['matches'],
        security: bearer,
        summary: "A finished match move by move: every move in order, canonical, with each game's revealed seed",
        description:
          "The seeds let anyone check ludo's dice (verifyLudoRolls) and the AI's throws (verifyAiThrow). 409 while the match is not over.",
        params: idParams,
        response: { 200: replaySchema, ...errors(401, 403, 404, 409) },
      },
    },
    async (request) => arena.replay(requireUser(request), matchId(request.params.id)),
  );

  app.get(
    '/api/spectate/:id',
    {
      schema: {
        tags,
        security: bearer,
        summary: "Watch a match: read-only, no secrets (the spectator's view)",
        description: 'Any signed-in player for a public match; a private match is for its players (403). Live: match:{id}.',
        params: idParams,
        response: { 200: matchViewResponseSchema, ...errors(401, 403, 404) },
      },
    },
    async (request) => ({ match: await arena.spectate(requireUser(request), matchId(request.params.id)) }),
  );
}
