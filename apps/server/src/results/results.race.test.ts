// Concurrent reports, claims and timers settle a match at most once, and a claim never pays against a player
// who showed up or the claimant's own word.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULTS } from '@versus/domain/messages';
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
    const [row] = await kit.t.database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM match_reports WHERE match_id = $1', [
      matchId,
    ]);
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

const sweepCtx = () => ({ db: kit.t.database.db, log: kit.t.app.log });
const afterAnswerWindow = () => new Date(Date.now() + RESULT_RULES.noShowAnswerMs + 1000);
const afterConfirmWindow = () => new Date(Date.now() + RESULT_RULES.confirmWindowMs + 60_000);

async function claimStatus(matchId: string) {
  const [row] = await kit.t.database.db.query<{ status: string }>('SELECT status FROM match_no_show_claims WHERE match_id = $1', [matchId]);
  return row?.status ?? null;
}

/** The 'match.no_show_answered' events on a player's own topic for this match. */
async function answeredEvents(userId: string, matchId: string) {
  const rows = await kit.t.database.db.query<{ payload: { matchId: string; answeredBy: string } }>(
    `SELECT payload FROM realtime_events WHERE topic = $1 AND type = 'match.no_show_answered' ORDER BY version`,
    [`user:${userId}`],
  );
  return rows.map((r) => r.payload).filter((p) => p.matchId === matchId);
}

async function actions(matchId: string) {
  const rows = await kit.t.database.db.query<{ action: string }>('SELECT action FROM match_transitions WHERE match_id = $1 ORDER BY id', [
    matchId,
  ]);
  return rows.map((r) => r.action);
}

describe('no-show claims and reports', () => {
  it('a claim against a player who already reported is refused, changing nothing: their report settles the match', async () => {
    const { matchId, p1, p2, stake } = await kit.externalMatch({ startedAgoMs: 11 * 60_000 });
    const before = { p1: await kit.available(p1.id), p2: await kit.available(p2.id) };
    expect((await kit.api('POST', `/api/matches/${matchId}/report`, { as: p2, body: { outcome: 'win' } })).status).toBe(200);
    const events = () =>
      kit.t.database.db.query<{ topic: string; type: string }>(
        `SELECT topic, type FROM realtime_events WHERE topic = ANY ($1::text[]) ORDER BY topic, version`,
        [[`user:${p1.id}`, `user:${p2.id}`]],
      );
    const eventsBefore = await events();

    const claim = await kit.api('POST', `/api/matches/${matchId}/no-show`, { as: p1 });
    expect(claim.status, JSON.stringify(claim.body)).toBe(409);
    expect(claim.body.error).toMatchObject({ code: 'opponent_reported', message: RESULTS.noShowOpponentReported });
    expect(claim.body.error?.message).toBe('Your opponent has already reported a result for this match.');
    expect(await claimStatus(matchId)).toBeNull();
    expect(await actions(matchId)).toEqual(['reported']);
    expect(await events()).toEqual(eventsBefore);
    expect(await kit.matchStatus(matchId)).toBe('pending');

    await sweepResults(sweepCtx(), afterAnswerWindow());
    expect(await kit.matchStatus(matchId)).toBe('in_progress');
    expect(await kit.available(p1.id)).toBe(before.p1);
    expect(await actions(matchId)).not.toContain('no_show_forfeit');

    // Unconfirmed, p2's report stands once the confirmation window is over.
    await sweepResults(sweepCtx(), afterConfirmWindow());
    expect(await kit.matchStatus(matchId)).toBe('completed');
    expect(await kit.available(p2.id)).toBe(before.p2 + minor(2 * stake));
    expect(await kit.available(p1.id)).toBe(before.p1);
    await kit.expectAuditClean();
  });

  it('a report by the accused answers the claim at once: recorded, and the claimant is told', async () => {
    const { matchId, p1, p2 } = await kit.externalMatch({ startedAgoMs: 11 * 60_000 });
    expect((await kit.api('POST', `/api/matches/${matchId}/no-show`, { as: p1 })).status).toBe(200);
    expect((await kit.api('POST', `/api/matches/${matchId}/report`, { as: p2, body: { outcome: 'win' } })).status).toBe(200);
    expect(await claimStatus(matchId)).toBe('answered');
    expect(await actions(matchId)).toEqual(['no_show_claimed', 'reported', 'no_show_answered']);
    expect(await answeredEvents(p1.id, matchId)).toEqual([{ matchId, answeredBy: p2.id }]);
    // The claimant's own report tells nobody about their own claim.
    expect((await kit.api('POST', `/api/matches/${matchId}/report`, { as: p1, body: { outcome: 'loss' } })).status).toBe(200);
    expect(await answeredEvents(p1.id, matchId)).toHaveLength(1);
    expect(await answeredEvents(p2.id, matchId)).toHaveLength(0);
    await kit.expectAuditClean();
  });

  it('a claimant who reported a loss is not paid by their own claim', async () => {
    const { matchId, p1, p2, stake } = await kit.externalMatch({ startedAgoMs: 11 * 60_000 });
    const before = { p1: await kit.available(p1.id), p2: await kit.available(p2.id) };
    expect((await kit.api('POST', `/api/matches/${matchId}/no-show`, { as: p1 })).status).toBe(200);
    // The opponent turned up after all and won; the claimant says so.
    expect((await kit.api('POST', `/api/matches/${matchId}/report`, { as: p1, body: { outcome: 'loss' } })).status).toBe(200);

    await sweepResults(sweepCtx(), afterAnswerWindow());
    expect(await kit.available(p1.id)).toBe(before.p1);
    expect(await actions(matchId)).not.toContain('no_show_forfeit');
    expect(await claimStatus(matchId)).not.toBe('open');

    await sweepResults(sweepCtx(), afterConfirmWindow());
    expect(await kit.matchStatus(matchId)).toBe('completed');
    expect(await kit.available(p2.id)).toBe(before.p2 + minor(2 * stake));
    expect(await kit.available(p1.id)).toBe(before.p1);
    await kit.expectAuditClean();
  });

  it('a claimant who reported first: their own loss answers the claim, their own win is paid by the forfeit', async () => {
    const lost = await kit.externalMatch({ startedAgoMs: 11 * 60_000 });
    const won = await kit.externalMatch({ startedAgoMs: 11 * 60_000 });
    const before = {
      lost: await kit.available(lost.p1.id),
      opponent: await kit.available(lost.p2.id),
      won: await kit.available(won.p1.id),
    };
    expect((await kit.api('POST', `/api/matches/${lost.matchId}/report`, { as: lost.p1, body: { outcome: 'loss' } })).status).toBe(200);
    expect((await kit.api('POST', `/api/matches/${won.matchId}/report`, { as: won.p1, body: { outcome: 'win' } })).status).toBe(200);
    expect((await kit.api('POST', `/api/matches/${lost.matchId}/no-show`, { as: lost.p1 })).status).toBe(200);
    expect((await kit.api('POST', `/api/matches/${won.matchId}/no-show`, { as: won.p1 })).status).toBe(200);

    await sweepResults(sweepCtx(), afterAnswerWindow());
    expect(await claimStatus(lost.matchId)).toBe('answered');
    expect(await kit.matchStatus(lost.matchId)).toBe('in_progress');
    expect(await kit.available(lost.p1.id)).toBe(before.lost);
    expect(await claimStatus(won.matchId)).toBe('forfeited');
    expect(await kit.available(won.p1.id)).toBe(before.won + minor(2 * won.stake));

    await sweepResults(sweepCtx(), afterConfirmWindow());
    expect(await kit.matchStatus(lost.matchId)).toBe('completed');
    expect(await kit.available(lost.p2.id)).toBe(before.opponent + minor(2 * lost.stake));
    expect(await kit.available(lost.p1.id)).toBe(before.lost);
    await kit.expectAuditClean();
  });

  it('a report made after the answer window is no answer: the forfeit stands', async () => {
    const { matchId, p1, p2, stake } = await kit.externalMatch({ startedAgoMs: 11 * 60_000 });
    const before = await kit.available(p1.id);
    expect((await kit.api('POST', `/api/matches/${matchId}/no-show`, { as: p1 })).status).toBe(200);
    // Straight to the table: the API stamps reports with the current time.
    await kit.t.database.db.query(`INSERT INTO match_reports (match_id, user_id, outcome, created_at) VALUES ($1, $2, 'win', $3)`, [
      matchId,
      p2.id,
      new Date(Date.now() + RESULT_RULES.noShowAnswerMs + 500),
    ]);
    await sweepResults(sweepCtx(), afterAnswerWindow());
    expect(await kit.matchStatus(matchId)).toBe('completed');
    expect(await kit.available(p1.id)).toBe(before + minor(2 * stake));
    expect(await claimStatus(matchId)).toBe('forfeited');
    await kit.expectAuditClean();
  });

  it('both players claiming at once: one claim, the other refused', async () => {
    const { matchId, p1, p2 } = await kit.externalMatch({ startedAgoMs: 11 * 60_000 });
    const replies = await Promise.all([p1, p2, p1, p2].map((as) => kit.api('POST', `/api/matches/${matchId}/no-show`, { as })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    const rows = await kit.t.database.db.query('SELECT 1 FROM match_no_show_claims WHERE match_id = $1', [matchId]);
    expect(rows).toHaveLength(1);
  });
});

describe('claims, reports and the timers at once', () => {
  it('both players claiming the win at the same moment: one dispute, escrow still held, audit clean', async () => {
    const { matchId, p1, p2 } = await kit.externalMatch();
    const replies = await Promise.all(
      [p1, p2].map((as) => kit.api('POST', `/api/matches/${matchId}/report`, { as, body: { outcome: 'win' } })),
    );
    expect(replies.map((r) => r.body.status).sort()).toEqual(['disputed', 'waiting']);
    expect(await kit.matchStatus(matchId)).toBe('disputed');
    const rows = await kit.t.database.db.query('SELECT 1 FROM disputes WHERE match_id = $1', [matchId]);
    expect(rows).toHaveLength(1);
    const [held] = await kit.t.database.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM escrow_holds WHERE match_id = $1 AND status = 'held'`,
      [matchId],
    );
    expect(held!.n).toBe(2);
    await kit.expectAuditClean();
  });

  it('a claim racing the opponent’s report, then the timer: never a forfeit against the reporter', async () => {
    const { matchId, p1, p2, stake } = await kit.externalMatch({ startedAgoMs: 11 * 60_000 });
    const before = await kit.available(p2.id);
    await Promise.all([
      kit.api('POST', `/api/matches/${matchId}/no-show`, { as: p1 }),
      kit.api('POST', `/api/matches/${matchId}/report`, { as: p2, body: { outcome: 'win' } }),
    ]);
    await sweepResults(sweepCtx(), afterAnswerWindow());
    expect(await actions(matchId)).not.toContain('no_show_forfeit');
    await sweepResults(sweepCtx(), afterConfirmWindow());
    expect(await kit.available(p2.id)).toBe(before + minor(2 * stake));
    await kit.expectAuditClean();
  });

  it('an answer racing the forfeit timer: answered and still open, or forfeited and the answer refused', async () => {
    const { matchId, p1, p2, stake } = await kit.externalMatch({ startedAgoMs: 11 * 60_000 });
    const before = await kit.available(p1.id);
    expect((await kit.api('POST', `/api/matches/${matchId}/no-show`, { as: p1 })).status).toBe(200);
    const [answer] = await Promise.all([
      kit.api('POST', `/api/matches/${matchId}/no-show/answer`, { as: p2 }),
      sweepResults(sweepCtx(), afterAnswerWindow()),
    ]);
    if (answer.status === 200) {
      expect(await kit.matchStatus(matchId)).toBe('in_progress');
      expect(await claimStatus(matchId)).toBe('answered');
      expect(await kit.available(p1.id)).toBe(before);
    } else {
      expect(answer.status).toBe(409);
      expect(await kit.matchStatus(matchId)).toBe('completed');
      expect(await kit.available(p1.id)).toBe(before + minor(2 * stake));
    }
    await kit.expectAuditClean();
  });
});

describe('the void timer and a claim made meanwhile', () => {
  it('a claim committed after the timer listed the match stops the void; the claimant then wins the forfeit', async () => {
    const { matchId, p1, p2, stake } = await kit.externalMatch({ startedAgoMs: RESULT_RULES.noReportVoidMs + 60_000 });
    const before = { p1: await kit.available(p1.id), p2: await kit.available(p2.id) };
    const db = kit.t.database.db;
    const now = new Date();
    let sweep: Promise<unknown> = Promise.resolve();
    // Hold the match as claimNoShow does while the timer lists the match, then commit the claim.
    await db.transaction(async (tx) => {
      await tx.query('SELECT id FROM matches WHERE id = $1 FOR UPDATE', [matchId]);
      sweep = sweepResults(sweepCtx(), now);
      for (let i = 0; i < 200; i += 1) {
        const waiting = await db.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE%'`,
        );
        if (waiting.length > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      await tx.query(`INSERT INTO match_no_show_claims (match_id, claimant_id, claimed_at, deadline) VALUES ($1, $2, $3, $4)`, [
        matchId,
        p1.id,
        now,
        new Date(now.getTime() + RESULT_RULES.noShowAnswerMs),
      ]);
    });
    await sweep;
    expect(await kit.matchStatus(matchId)).toBe('in_progress');
    expect(await kit.available(p2.id)).toBe(before.p2);

    await sweepResults(sweepCtx(), new Date(now.getTime() + RESULT_RULES.noShowAnswerMs + 1000));
    expect(await kit.matchStatus(matchId)).toBe('completed');
    expect(await kit.available(p1.id)).toBe(before.p1 + minor(2 * stake));
    expect(await kit.available(p2.id)).toBe(before.p2);
    await kit.expectAuditClean();
  });
});
