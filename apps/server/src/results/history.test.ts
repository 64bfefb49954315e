// GET /api/matches?status=history against real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResultsKit, type ResultsKit } from './results.test-kit.ts';

let kit: ResultsKit;
beforeAll(async () => {
  kit = await createResultsKit();
});
afterAll(async () => kit?.close());

type Listed = { matches: { id: string; status: string; viewerSeat: number; player1: { username: string } }[] };

describe('match history', () => {
  it("lists only my finished and disputed matches, not active ones nor other players'", async () => {
    const settled = await kit.externalMatch();
    const { p1, p2 } = settled;
    expect((await kit.api('POST', `/api/matches/${settled.matchId}/report`, { as: p1, body: { outcome: 'win' } })).status).toBe(200);
    expect((await kit.api('POST', `/api/matches/${settled.matchId}/report`, { as: p2, body: { outcome: 'loss' } })).status).toBe(200);
    const disputed = await kit.externalMatch();
    await kit.api('POST', `/api/matches/${disputed.matchId}/report`, { as: disputed.p1, body: { outcome: 'win' } });
    await kit.api('POST', `/api/matches/${disputed.matchId}/report`, { as: disputed.p2, body: { outcome: 'win' } });
    const active = await kit.externalMatch();

    const mine = await kit.api('GET', '/api/matches?status=history', { as: p2 });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    const list = (mine.body as unknown as Listed).matches;
    expect(list.map((m) => m.id)).toEqual([settled.matchId]);
    expect(list[0]).toMatchObject({ status: 'completed', viewerSeat: 1, player1: { username: p1.username } });

    const theirs = (await kit.api('GET', '/api/matches?status=history', { as: disputed.p1 })).body as unknown as Listed;
    expect(theirs.matches.map((m) => [m.id, m.status])).toEqual([[disputed.matchId, 'disputed']]);
    const none = (await kit.api('GET', '/api/matches?status=history', { as: active.p1 })).body as unknown as Listed;
    expect(none.matches).toEqual([]);
  });

  it('refuses anonymous requests and other status values', async () => {
    expect((await kit.api('GET', '/api/matches?status=history')).status).toBe(401);
    const p = await kit.signUp();
    const bad = await kit.api('GET', '/api/matches?status=everything', { as: p });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toContain('history');
  });
});
