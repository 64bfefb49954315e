// The embedded database (the default `npm start`) runs the tournaments' SQL too: a 4-player
// knockout entered, started, played and paid through the real API on PGlite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatchViewResponse } from '@versus/domain/arena';
import type { TournamentResponse } from '@versus/domain/tournaments';
import { auditLedger } from '../ledger/ledger.audit.ts';
import { signUp } from '../realtime/test-socket.ts';
import { createPgliteApp, type PgliteApp } from '../test/pglite-app.ts';
import { defaults } from './tournaments.test-kit.ts';

let pg: PgliteApp;
beforeAll(async () => {
  pg = await createPgliteApp();
}, 60_000);
afterAll(() => pg?.close());

describe('tournaments on PGlite', () => {
  it('plays a knockout to its payout', async () => {
    const { app, db, call } = pg;
    const players = [await signUp(app, 'pg'), await signUp(app, 'pg'), await signUp(app, 'pg'), await signUp(app, 'pg')];
    const tokens = new Map(players.map((p) => [p.userId, p.token]));
    const created = await call(players[0]!.token, 'POST', '/api/tournaments', defaults());
    expect(created.status).toBe(201);
    const id = (created.body as TournamentResponse).tournament.id;
    for (const p of players) expect((await call(p.token, 'POST', `/api/tournaments/${id}/join`)).status).toBe(200);
    const tournaments = app.services.tournaments;
    tournaments.now = () => Date.parse((created.body as TournamentResponse).tournament.startsAt);
    await tournaments.run(id);

    const view = async () => (await call(players[0]!.token, 'GET', `/api/tournaments/${id}`)).body as TournamentResponse;
    for (let round = 0; round < 2; round++) {
      for (const g of (await view()).tournament.games.filter((x) => x.round === round)) {
        await call(tokens.get(g.players[0])!, 'POST', `/api/matches/${g.matchId}/ready`);
        let match = ((await call(tokens.get(g.players[1])!, 'POST', `/api/matches/${g.matchId}/ready`)).body as MatchViewResponse).match;
        // Whoever moves takes the lowest free cell: X wins its one game.
        while (match.status === 'in_progress') {
          const cells = (match.game!.view as { cells: (number | null)[] }).cells;
          const reply = await call(tokens.get(match.players[match.toMove[0]!].id)!, 'POST', `/api/matches/${g.matchId}/moves`, {
            move: cells.findIndex((c) => c === null),
            version: match.version,
          });
          expect(reply.status).toBe(200);
          match = (reply.body as MatchViewResponse).match;
        }
        await tournaments.run(id);
      }
    }
    const done = (await view()).tournament;
    expect(done.status).toBe('finished');
    expect(done.entrants.filter((e) => e.place === 1)).toEqual([expect.objectContaining({ prize: 40 })]);
    expect((await auditLedger(db)).problems).toEqual([]);
  }, 60_000);
});
