// External-game results against real PostgreSQL: reports, disputes, timers, evidence, chat.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULTS } from '@versus/domain/messages';
import { RESULT_RULES } from '@versus/domain/results';
import { resultsOptions, sweepResults } from './results.service.ts';
import { createResultsKit, multipartBody, pngOf, type ResultsKit } from './results.test-kit.ts';

let kit: ResultsKit;
beforeAll(async () => {
  kit = await createResultsKit();
});
afterAll(async () => kit?.close());

const minor = (units: number) => units * 100;
const ctx = () => ({ db: kit.t.database.db, log: kit.t.app.log });
const report = (
  matchId: string,
  as: Parameters<ResultsKit['api']>[2] extends infer O ? (O extends { as?: infer P } ? P : never) : never,
  outcome: string,
) => kit.api('POST', `/api/matches/${matchId}/report`, { as, body: { outcome } });

async function transitions(matchId: string) {
  return kit.t.database.db.query<{ actor_id: string | null; action: string; to_status: string | null }>(
    'SELECT actor_id, action, to_status FROM match_transitions WHERE match_id = $1 ORDER BY id',
    [matchId],
  );
}

async function events(topic: string) {
  return kit.t.database.db.query<{ type: string; payload: Record<string, unknown> }>(
    'SELECT type, payload FROM realtime_events WHERE topic = $1 ORDER BY version',
    [topic],
  );
}

describe('reports', () => {
  it('agreeing reports settle at once: the winner gets both stakes, transitions recorded, audit clean', async () => {
    const { matchId, p1, p2, stake } = await kit.externalMatch();
    const before = [await kit.available(p1.id), await kit.available(p2.id)];
    const first = await report(matchId, p1, 'win');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ status: 'waiting' });
    expect((await events(`user:${p2.id}`)).map((e) => e.type)).toContain('match.result_reported');
    const second = await report(matchId, p2, 'loss');
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body).toMatchObject({ status: 'settled' });
    expect(await kit.matchStatus(matchId)).toBe('completed');
    expect(await kit.available(p1.id)).toBe(before[0]! + minor(2 * stake));
    expect(await kit.available(p2.id)).toBe(before[1]!);
    expect((await transitions(matchId)).map((t) => [t.actor_id, t.action])).toEqual([
      [p1.id, 'reported'],
      [p2.id, 'reported'],
      [p2.id, 'reports_agreed'],
    ]);
    const state = await kit.api('GET', `/api/matches/${matchId}/result`, { as: p1 });
    expect(state.body).toMatchObject({
      status: 'completed',
      reports: [
        { userId: p1.id, outcome: 'win' },
        { userId: p2.id, outcome: 'loss' },
      ],
    });
    await kit.expectAuditClean();
  });

  it('refuses a second report, a stranger, an early report, an anonymous one and a bad outcome, changing nothing', async () => {
    const { matchId, p1 } = await kit.externalMatch();
    const other = await kit.externalMatch();
    expect((await report(matchId, p1, 'win')).status).toBe(200);
    const twice = await report(matchId, p1, 'loss');
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatchObject({ code: 'already_reported', message: RESULTS.alreadyReported });
    const stranger = await report(matchId, other.p1, 'win');
    expect(stranger.status).toBe(403);
    expect(stranger.body.error?.message).toBe(RESULTS.notPlayer);
    const anonymous = await kit.api('POST', `/api/matches/${matchId}/report`, { body: { outcome: 'win' } });
    expect(anonymous.status).toBe(401);
    const bad = await report(other.matchId, other.p1, 'victory');
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toBe(RESULTS.outcomeRequired);
    const future = await kit.externalMatch({ startedAgoMs: -30 * 60_000 });
    const early = await report(future.matchId, future.p1, 'win');
    expect(early.status).toBe(409);
    expect(early.body.error?.message).toBe(RESULTS.notStarted);
    const unknown = await report('00000000-0000-4000-8000-000000000000', p1, 'win');
    expect(unknown.status).toBe(404);
    const reports = await kit.t.database.db.query('SELECT user_id FROM match_reports WHERE match_id = ANY ($1::uuid[])', [
      [matchId, other.matchId, future.matchId],
    ]);
    expect(reports).toHaveLength(1);
  });

  it('conflicting reports open a dispute: status disputed, both told "under review"', async () => {
    const { matchId, p1, p2 } = await kit.externalMatch();
    expect((await report(matchId, p1, 'win')).status).toBe(200);
    const second = await report(matchId, p2, 'win');
    expect(second.body).toMatchObject({ status: 'disputed', disputeId: expect.any(String) });
    expect(await kit.matchStatus(matchId)).toBe('disputed');
    for (const p of [p1, p2]) {
      const disputed = (await events(`user:${p.id}`)).find((e) => e.type === 'match.disputed');
      expect(disputed?.payload).toMatchObject({ matchId, message: RESULTS.underReview });
    }
    expect((await transitions(matchId)).at(-1)).toMatchObject({ action: 'disputed', to_status: 'disputed' });
    // Escrow still held; the audit is clean with a disputed match holding it.
    await kit.expectAuditClean();
  });
});

describe('starting an external match', () => {
  it('starts at once when both players are ready to play now, and reports open before the scheduled start', async () => {
    const { matchId, p1, p2 } = await kit.externalMatch({ startedAgoMs: -45 * 60_000 });
    expect((await report(matchId, p1, 'win')).body).toMatchObject({ error: { code: 'not_started', message: RESULTS.notStarted } });
    const first = await kit.api('POST', `/api/matches/${matchId}/play-now`, { as: p1 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({ status: 'waiting' });
    expect(await kit.matchStatus(matchId)).toBe('pending');
    // Again: nothing changes.
    expect((await kit.api('POST', `/api/matches/${matchId}/play-now`, { as: p1 })).body).toEqual({ status: 'waiting' });
    expect((await events(`user:${p2.id}`)).map((e) => e.type)).toContain('match.ready');
    const second = await kit.api('POST', `/api/matches/${matchId}/play-now`, { as: p2 });
    expect(second.body).toEqual({ status: 'in_progress' });
    expect(await kit.matchStatus(matchId)).toBe('in_progress');
    for (const p of [p1, p2]) expect((await events(`user:${p.id}`)).map((e) => e.type)).toContain('match.started');
    const started = await kit.t.database.db.query<{ type: string; message: string; metadata: unknown }>(
      `SELECT type, message, metadata FROM notifications WHERE user_id = $1 AND type = 'match_started'`,
      [p1.id],
    );
    expect(started[0]?.message).toContain('Play it on your platform, then report the result in My Matches.');
    expect((await report(matchId, p1, 'win')).body).toMatchObject({ status: 'waiting' });
    expect((await report(matchId, p2, 'loss')).body).toMatchObject({ status: 'settled' });
    expect((await transitions(matchId)).map((t) => [t.action, t.to_status])).toEqual([
      ['ready', 'pending'],
      ['ready', 'pending'],
      ['started_both_ready', 'in_progress'],
      ['reported', 'in_progress'],
      ['reported', 'in_progress'],
      ['reports_agreed', 'completed'],
    ]);
    await kit.expectAuditClean();
  });

  it('refuses a stranger, a web game and a settled match, changing nothing', async () => {
    const { matchId } = await kit.externalMatch();
    const stranger = await kit.signUp();
    expect((await kit.api('POST', `/api/matches/${matchId}/play-now`, { as: stranger })).status).toBe(403);
    expect(await kit.matchStatus(matchId)).toBe('pending');
    expect((await transitions(matchId)).length).toBe(0);
  });

  it('is in progress once its scheduled start has come (the results timer)', async () => {
    const { matchId } = await kit.externalMatch({ startedAgoMs: 60_000 });
    const later = await kit.externalMatch({ startedAgoMs: -60 * 60_000 });
    expect(await kit.matchStatus(matchId)).toBe('pending');
    const counts = await sweepResults(ctx(), new Date());
    expect(counts.started).toBeGreaterThanOrEqual(1);
    expect(await kit.matchStatus(matchId)).toBe('in_progress');
    expect(await kit.matchStatus(later.matchId)).toBe('pending');
    expect((await transitions(matchId)).map((t) => [t.actor_id, t.action, t.to_status])).toEqual([
      [null, 'started_at_schedule', 'in_progress'],
    ]);
  });
});

describe('evidence', () => {
  it('stores a screenshot with the report and serves it to the players with caching, not to strangers', async () => {
    const { matchId, p1, p2 } = await kit.externalMatch();
    const form = multipartBody({ outcome: 'win' }, { type: 'image/png', data: pngOf(1000) });
    const r = await kit.api('POST', `/api/matches/${matchId}/report`, { as: p1, payload: form.payload, headers: form.headers });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const state = await kit.api('GET', `/api/matches/${matchId}/result`, { as: p2 });
    const evidence = (state.body.reports as { evidence: { url: string; size: number } | null }[])[0]!.evidence!;
    expect(evidence.size).toBe(1000);
    const file = await kit.api('GET', evidence.url, { as: p2 });
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['cache-control']).toContain('max-age');
    expect(file.raw.rawPayload.equals(pngOf(1000))).toBe(true);
    const again = await kit.api('GET', evidence.url, { as: p2, headers: { 'if-none-match': String(file.headers.etag) } });
    expect(again.status).toBe(304);
    const stranger = await kit.externalMatch();
    expect((await kit.api('GET', evidence.url, { as: stranger.p1 })).status).toBe(403);
    expect((await kit.api('GET', evidence.url)).status).toBe(401);
  });

  it("refuses a wrong type or a file over 5 MB with SPEC's messages, storing nothing", async () => {
    const { matchId, p1 } = await kit.externalMatch();
    const cases: [{ type: string; data: Buffer }, string][] = [
      [{ type: 'text/plain', data: Buffer.from('hello') }, RESULTS.fileNotImage],
      [{ type: 'image/bmp', data: Buffer.from('BM....') }, 'Unsupported image format: bmp'],
      [{ type: 'image/png', data: Buffer.from('not really a png') }, RESULTS.fileNotImage],
      [{ type: 'image/png', data: pngOf(5 * 1024 * 1024 + 1) }, 'File size must be less than 5MB'],
      [{ type: 'image/png', data: pngOf(8 * 1024 * 1024) }, 'File size must be less than 5MB'],
    ];
    for (const [file, message] of cases) {
      const form = multipartBody({ outcome: 'win' }, file);
      const r = await kit.api('POST', `/api/matches/${matchId}/report`, { as: p1, payload: form.payload, headers: form.headers });
      expect(r.status, `${message} ${file.data.length} ${JSON.stringify(r.body)}`).toBe(400);
      expect(r.body.error?.message).toBe(message);
    }
    const rows = await kit.t.database.db.query(
      'SELECT 1 FROM match_reports WHERE match_id = $1 UNION ALL SELECT 1 FROM match_evidence WHERE match_id = $1',
      [matchId],
    );
    expect(rows).toHaveLength(0);
  });
});

describe('timers', () => {
  it('a report left unanswered for the confirmation window settles in the reporter’s favour (both directions)', async () => {
    const a = await kit.externalMatch();
    const b = await kit.externalMatch();
    expect((await report(a.matchId, a.p1, 'win')).status).toBe(200);
    expect((await report(b.matchId, b.p2, 'loss')).status).toBe(200);
    const before = [await kit.available(a.p1.id), await kit.available(b.p1.id)];
    // Not yet: within the window nothing moves.
    await sweepResults(ctx(), new Date(Date.now() + 30 * 60_000), { confirmWindowMs: RESULT_RULES.confirmWindowMs });
    expect(await kit.matchStatus(a.matchId)).not.toBe('completed');
    const counts = await sweepResults(ctx(), new Date(Date.now() + RESULT_RULES.confirmWindowMs + 1000), {
      confirmWindowMs: RESULT_RULES.confirmWindowMs,
    });
    expect(counts.confirmedByTimeout).toBeGreaterThanOrEqual(2);
    expect(await kit.matchStatus(a.matchId)).toBe('completed');
    expect(await kit.available(a.p1.id)).toBe(before[0]! + minor(2 * a.stake));
    // p2 of b reported a loss: p1 of b wins.
    expect(await kit.available(b.p1.id)).toBe(before[1]! + minor(2 * b.stake));
    expect((await transitions(a.matchId)).at(-1)).toMatchObject({ actor_id: null, action: 'confirmed_by_timeout', to_status: 'completed' });
    // A late report is refused.
    expect((await report(a.matchId, a.p2, 'win')).status).toBe(409);
    await kit.expectAuditClean();
  });

  it('no report within 24 h after the start: void, both stakes back', async () => {
    const { matchId, p1, p2, stake } = await kit.externalMatch();
    const before = [await kit.available(p1.id), await kit.available(p2.id)];
    await sweepResults(ctx(), new Date(Date.now() + RESULT_RULES.noReportVoidMs - 5 * 60_000));
    expect(await kit.matchStatus(matchId)).toBe('in_progress');
    await sweepResults(ctx(), new Date(Date.now() + RESULT_RULES.noReportVoidMs));
    expect(await kit.matchStatus(matchId)).toBe('cancelled');
    expect(await kit.available(p1.id)).toBe(before[0]! + minor(stake));
    expect(await kit.available(p2.id)).toBe(before[1]! + minor(stake));
    expect((await transitions(matchId)).at(-1)).toMatchObject({ action: 'no_report_void', to_status: 'cancelled' });
    await kit.expectAuditClean();
  });

  it('a no-show claim opens 10 minutes after the start; unanswered for 5 minutes the opponent forfeits', async () => {
    const early = await kit.externalMatch({ startedAgoMs: 5 * 60_000 });
    const tooEarly = await kit.api('POST', `/api/matches/${early.matchId}/no-show`, { as: early.p1 });
    expect(tooEarly.status).toBe(409);
    expect(tooEarly.body.error?.message).toBe(RESULTS.noShowTooEarly);

    const { matchId, p1, p2, stake } = await kit.externalMatch({ startedAgoMs: 11 * 60_000 });
    const before = await kit.available(p1.id);
    const claim = await kit.api('POST', `/api/matches/${matchId}/no-show`, { as: p1 });
    expect(claim.status, JSON.stringify(claim.body)).toBe(200);
    expect((await events(`user:${p2.id}`)).map((e) => e.type)).toContain('match.no_show_claimed');
    expect((await kit.api('POST', `/api/matches/${matchId}/no-show`, { as: p2 })).status).toBe(409);
    await sweepResults(ctx(), new Date(Date.now() + 4 * 60_000));
    expect(await kit.matchStatus(matchId)).toBe('in_progress');
    await sweepResults(ctx(), new Date(Date.now() + RESULT_RULES.noShowAnswerMs + 1000));
    expect(await kit.matchStatus(matchId)).toBe('completed');
    expect(await kit.available(p1.id)).toBe(before + minor(2 * stake));
    expect((await transitions(matchId)).map((t) => t.action)).toEqual(['no_show_claimed', 'started_at_schedule', 'no_show_forfeit']);
    await kit.expectAuditClean();
  });

  it('an answered no-show claim settles nothing; the claimant cannot answer their own claim', async () => {
    const { matchId, p1, p2 } = await kit.externalMatch({ startedAgoMs: 11 * 60_000 });
    expect((await kit.api('POST', `/api/matches/${matchId}/no-show`, { as: p1 })).status).toBe(200);
    const own = await kit.api('POST', `/api/matches/${matchId}/no-show/answer`, { as: p1 });
    expect(own.status).toBe(409);
    expect(own.body.error?.message).toBe(RESULTS.noShowNone);
    expect((await kit.api('POST', `/api/matches/${matchId}/no-show/answer`, { as: p2 })).status).toBe(200);
    await sweepResults(ctx(), new Date(Date.now() + RESULT_RULES.noShowAnswerMs + 60_000));
    expect(await kit.matchStatus(matchId)).toBe('in_progress');
    expect((await transitions(matchId)).map((t) => [t.actor_id, t.action])).toEqual([
      [p1.id, 'no_show_claimed'],
      [p2.id, 'no_show_answered'],
      [null, 'started_at_schedule'],
    ]);
    await kit.expectAuditClean();
  });
});

describe('chat', () => {
  it('players write and read, live on match-chat:{id}; strangers neither; 500 characters at most', async () => {
    const { matchId, p1, p2 } = await kit.externalMatch();
    const stranger = (await kit.externalMatch()).p1;
    const sent = await kit.api('POST', `/api/matches/${matchId}/chat`, { as: p1, body: { body: 'Lobby code 1234, best of 1?' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect((await kit.api('POST', `/api/matches/${matchId}/chat`, { as: p2, body: { body: 'x'.repeat(501) } })).body.error?.message).toBe(
      RESULTS.chatTooLong,
    );
    expect((await kit.api('POST', `/api/matches/${matchId}/chat`, { as: p2, body: { body: '   ' } })).body.error?.message).toBe(
      RESULTS.chatEmpty,
    );
    expect((await kit.api('POST', `/api/matches/${matchId}/chat`, { as: stranger, body: { body: 'hi' } })).status).toBe(403);
    expect((await kit.api('GET', `/api/matches/${matchId}/chat`, { as: stranger })).status).toBe(403);
    expect((await kit.api('GET', `/api/matches/${matchId}/chat`)).status).toBe(401);
    const read = await kit.api('GET', `/api/matches/${matchId}/chat`, { as: p2 });
    expect(read.body.messages).toMatchObject([{ userId: p1.id, username: p1.username, body: 'Lobby code 1234, best of 1?' }]);
    expect((await events(`match-chat:${matchId}`)).map((e) => e.type)).toEqual(['chat.message']);
  });
});

describe('boundaries', () => {
  it('a web game is refereed by the arena: no report there', async () => {
    const { matchId, p1 } = await kit.externalMatch({ game: 'tic-tac-toe', platform: 'web', duration: 5 });
    const r = await report(matchId, p1, 'win');
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ code: 'not_external', message: RESULTS.notExternal });
  });

  it('match-chat:{id} is followed by the two players and admins only; admins read the chat', async () => {
    const { matchId, p1, p2 } = await kit.externalMatch();
    const admin = await kit.admin();
    const stranger = await kit.signUp();
    const appCtx = kit.t.app.services;
    const claims = (id: string, role: 'user' | 'admin' = 'user') => ({ userId: id, role, accountType: 'real' as const });
    expect(await appCtx.topics.canFollow(claims(p1.id), `match-chat:${matchId}`)).toBe(true);
    expect(await appCtx.topics.canFollow(claims(p2.id), `match-chat:${matchId}`)).toBe(true);
    expect(await appCtx.topics.canFollow(claims(admin.id, 'admin'), `match-chat:${matchId}`)).toBe(true);
    expect(await appCtx.topics.canFollow(claims(stranger.id), `match-chat:${matchId}`)).toBe(false);
    expect(await appCtx.topics.canFollow(claims(p1.id), 'match-chat:not-a-uuid')).toBe(false);
    await kit.api('POST', `/api/matches/${matchId}/chat`, { as: p2, body: { body: 'ready when you are' } });
    const read = await kit.api('GET', `/api/matches/${matchId}/chat`, { as: admin });
    expect(read.body.messages).toMatchObject([{ userId: p2.id, body: 'ready when you are' }]);
    expect((await kit.api('POST', `/api/matches/${matchId}/chat`, { as: admin, body: { body: 'admin here' } })).status).toBe(403);
  });

  it('the confirmation window comes from RESULT_CONFIRM_WINDOW_MS, 1 hour by default', () => {
    expect(resultsOptions({}).confirmWindowMs).toBe(60 * 60 * 1000);
    expect(resultsOptions({ RESULT_CONFIRM_WINDOW_MS: '120000' }).confirmWindowMs).toBe(120_000);
    expect(() => resultsOptions({ RESULT_CONFIRM_WINDOW_MS: 'soon' })).toThrow(/RESULT_CONFIRM_WINDOW_MS/);
  });

  it('a shorter confirmation window settles sooner', async () => {
    const { matchId, p1 } = await kit.externalMatch();
    expect((await report(matchId, p1, 'win')).status).toBe(200);
    await sweepResults(ctx(), new Date(Date.now() + 3 * 60_000), { confirmWindowMs: 2 * 60_000 });
    expect(await kit.matchStatus(matchId)).toBe('completed');
    await kit.expectAuditClean();
  });

  it('the routes are described in the OpenAPI document', async () => {
    const r = await kit.api('GET', '/api/openapi.json');
    expect(r.status).toBe(200);
    const paths = Object.keys((r.body as { paths: Record<string, unknown> }).paths);
    for (const p of [
      '/api/matches/{id}/report',
      '/api/matches/{id}/chat',
      '/api/admin/disputes',
      '/api/admin/disputes/{id}/resolve',
      '/api/admin/dashboard',
    ]) {
      expect(paths).toContain(p);
    }
  });
});
