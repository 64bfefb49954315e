// Races for real against PostgreSQL: concurrent reports and timers settle a match at most once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULT_RULES } from '@versus/domain/results';
import { sweepResults } from './results.service.ts';
import { createResultsKit, type ResultsKit } from './results.test-kit.ts';

let kit: ResultsKit;
beforeAll(async () => {
  kit = await createResultsKit();
});
afterAll(async () => kit?.close());

const minor = (units: number) => units * 100;

describe('races', () => {
  it('both players reporting at once, each many times: one report each, one settlement, audit clean', async () => {
    const { matchId, p1, p2, stake } = await kit.externalMatch();
    const before = await kit.available(p1.id);
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        kit.api('POST', `/api/matches/${matchId}/report`, { as: i % 2 === 0 ? p1 : p2, body: { outcome: i % 2 === 0 ? 'win' : 'loss' } }),
      ),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(2);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(4);
    expect(await kit.matchStatus(matchId)).toBe('completed');
    expect(await kit.available(p1.id)).toBe(before + minor(2 * stake));
    const [row] = await kit.t.database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM match_reports WHERE match_id = $1', [matchId]);
    expect(row!.n).toBe(2);
    await kit.expectAuditClean();
  });

  it('a late confirming report racing the timeout settles once', async () => {
    const { matchId, p1, p2, stake } = await kit.externalMatch();
    expect((await kit.api('POST', `/api/matches/${matchId}/report`, { as: p1, body: { outcome: 'win' } })).status).toBe(200);
    const before = await kit.available(p1.id);
    const ctx = { db: kit.t.database.db, log: kit.t.app.log };
    const later = new Date(Date.now() + RESULT_RULES.confirmWindowMs + 1000);
    const [reply] = await Promise.all([
      kit.api('POST', `/api/matches/${matchId}/report`, { as: p2, body: { outcome: 'loss' } }),
      sweepResults(ctx, later),
      sweepResults(ctx, later),
    ]);
    expect([200, 409]).toContain(reply.status);
    expect(await kit.matchStatus(matchId)).toBe('completed');
    expect(await kit.available(p1.id)).toBe(before + minor(2 * stake));
    const settled = await kit.t.database.db.query(
      `SELECT 1 FROM match_transitions WHERE match_id = $1 AND action IN ('reports_agreed', 'confirmed_by_timeout')`,
      [matchId],
    );
    expect(settled).toHaveLength(1);
    await kit.expectAuditClean();
  });
});
