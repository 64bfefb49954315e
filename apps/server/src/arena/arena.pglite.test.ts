// The embedded database runs the arena's SQL too (the batched write, the finish): a whole
// tic-tac-toe match on PGlite through the real API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatchViewResponse } from '@versus/domain/arena';
import { auditLedger } from '../ledger/ledger.audit.ts';
import { signUp } from '../realtime/test-socket.ts';
import { createPgliteApp, type PgliteApp } from '../test/pglite-app.ts';

let pg: PgliteApp;
beforeAll(async () => {
  pg = await createPgliteApp();
}, 60_000);
afterAll(() => pg?.close());

describe('the arena on PGlite', () => {
  it('plays a match to its payout', async () => {
    const { app, db, call } = pg;
    const a = await signUp(app, 'pga');
    const b = await signUp(app, 'pgb');
    const created = await call(a.token, 'POST', '/api/challenges', { game: 'tic-tac-toe', stake: 10, duration: 10 });
    expect(created.status).toBe(201);
    const accepted = await call(b.token, 'POST', `/api/challenges/${created.body.challenge.id}/accept`, {});
    const id: string = accepted.body.match.id;
    await call(a.token, 'POST', `/api/matches/${id}/ready`);
    let view = ((await call(b.token, 'POST', `/api/matches/${id}/ready`)).body as MatchViewResponse).match;
    const tokens = new Map([
      [a.userId, a.token],
      [b.userId, b.token],
    ]);
    // Whoever moves takes the lowest free cell: X always wins on the left column or a diagonal.
    while (view.status === 'in_progress') {
      const seat = view.toMove[0]!;
      const cells = (view.game!.view as { cells: (number | null)[] }).cells;
      const reply = await call(tokens.get(view.players[seat].id)!, 'POST', `/api/matches/${id}/moves`, {
        move: cells.findIndex((c) => c === null),
        version: view.version,
      });
      expect(reply.status).toBe(200);
      view = (reply.body as MatchViewResponse).match;
    }
    expect(view.status).toBe('completed');
    expect(view.result!.payouts).toEqual([{ userId: view.winnerId, amount: 20 }]);
    expect((await auditLedger(db)).problems).toEqual([]);
  }, 60_000);
});
