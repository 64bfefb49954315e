// The admin API against real PostgreSQL: who may call it, the dispute queue, each resolution
// settled through the ledger, a second resolution refused, the dashboard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULTS } from '@versus/domain/messages';
import type { Dashboard, Dispute } from '@versus/domain/results';
import { createResultsKit, multipartBody, pngOf, type ResultsKit, type TestPlayer } from '../results/results.test-kit.ts';

let kit: ResultsKit;
let admin: TestPlayer;
beforeAll(async () => {
  kit = await createResultsKit();
  admin = await kit.admin();
});
afterAll(async () => kit?.close());

const minor = (units: number) => units * 100;

/** A fifa-24 match whose players both claim the win: its dispute id. */
async function disputed(options: { stake?: number; game?: string } = {}) {
  const m = await kit.externalMatch(options);
  expect((await kit.api('POST', `/api/matches/${m.matchId}/report`, { as: m.p1, body: { outcome: 'win' } })).status).toBe(200);
  const r = await kit.api('POST', `/api/matches/${m.matchId}/report`, { as: m.p2, body: { outcome: 'win' } });
  expect(r.body.status).toBe('disputed');
  return { ...m, disputeId: String(r.body.disputeId) };
}

const resolve = (disputeId: string, body: unknown, as: TestPlayer | undefined = admin) =>
  kit.api('POST', `/api/admin/disputes/${disputeId}/resolve`, { ...(as ? { as } : {}), body });

describe('authorization', () => {
  it('every admin endpoint refuses an anonymous request (401) and a plain user (403), changing nothing', async () => {
    const { disputeId } = await disputed();
    const user = await kit.signUp();
    const calls: ['GET' | 'POST', string, unknown][] = [
      ['GET', '/api/admin/dashboard', undefined],
      ['GET', '/api/admin/disputes', undefined],
      ['GET', '/api/admin/disputes?game=fifa-24&minAgeMinutes=0&minStake=1&maxStake=1000', undefined],
      ['POST', `/api/admin/disputes/${disputeId}/resolve`, { outcome: 'player1', reason: 'screenshot' }],
    ];
    for (const [method, url, body] of calls) {
      const anonymous = await kit.api(method, url, { body });
      expect(anonymous.status, `${method} ${url}`).toBe(401);
      const plain = await kit.api(method, url, { as: user, body });
      expect(plain.status, `${method} ${url}`).toBe(403);
      expect(plain.body.error?.code).toBe('forbidden');
    }
    const appCtx = kit.t.app.services;
    expect(await appCtx.topics.canFollow({ userId: admin.id, role: 'admin', accountType: 'real' }, 'admin')).toBe(true);
    expect(await appCtx.topics.canFollow({ userId: user.id, role: 'user', accountType: 'real' }, 'admin')).toBe(false);
    expect(await appCtx.topics.canFollow({ userId: user.id, role: 'promoter', accountType: 'real' }, 'admin')).toBe(false);
    const [row] = await kit.t.database.db.query<{ status: string }>('SELECT status FROM disputes WHERE id = $1', [disputeId]);
    expect(row!.status).toBe('open');
  });
});

describe('dispute queue', () => {
  it('lists open disputes oldest first with both reports, evidence links, statements, chat and both records; filters work', async () => {
    const first = await disputed({ stake: 20 });
    const second = await disputed({ stake: 200, game: 'valorant' });
    await kit.api('POST', `/api/matches/${second.matchId}/chat`, { as: second.p1, body: { body: 'gg, I won 3-1' } });
    const form = multipartBody({ body: 'Here is the final scoreboard' }, { type: 'image/png', data: pngOf(300) });
    const statement = await kit.api('POST', `/api/matches/${second.matchId}/dispute/statements`, {
      as: second.p2,
      payload: form.payload,
      headers: form.headers,
    });
    expect(statement.status, JSON.stringify(statement.body)).toBe(200);
    const stranger = await kit.signUp();
    expect(
      (await kit.api('POST', `/api/matches/${second.matchId}/dispute/statements`, { as: stranger, body: { body: 'me too' } })).status,
    ).toBe(403);

    const list = await kit.api('GET', '/api/admin/disputes', { as: admin });
    expect(list.status).toBe(200);
    const disputes = list.body.disputes as Dispute[];
    const ids = disputes.map((d) => d.id);
    expect(ids.indexOf(first.disputeId)).toBeLessThan(ids.indexOf(second.disputeId));
    const shown = disputes.find((d) => d.id === second.disputeId)!;
    expect(shown.reports.map((r) => [r.userId, r.outcome])).toEqual([
      [second.p1.id, 'win'],
      [second.p2.id, 'win'],
    ]);
    expect(shown.chat).toMatchObject([{ userId: second.p1.id, body: 'gg, I won 3-1' }]);
    expect(shown.statements).toMatchObject([
      { userId: second.p2.id, body: 'Here is the final scoreboard', evidence: { contentType: 'image/png', size: 300 } },
    ]);
    const file = await kit.api('GET', shown.statements[0]!.evidence!.url, { as: admin });
    expect(file.status).toBe(200);
    expect(shown.records.map((r) => [r.userId, r.disputes])).toEqual([
      [second.p1.id, 1],
      [second.p2.id, 1],
    ]);

    const mine = await kit.api('GET', '/api/disputes', { as: second.p2 });
    expect((mine.body.disputes as Dispute[]).map((d) => d.id)).toEqual([second.disputeId]);
    expect((mine.body.disputes as Dispute[])[0]!.records).toEqual([]);
    expect((await kit.api('GET', '/api/disputes', { as: stranger })).body.disputes).toEqual([]);
    expect((await kit.api('GET', '/api/disputes')).status).toBe(401);

    const valorant = await kit.api('GET', '/api/admin/disputes?game=valorant&minStake=100', { as: admin });
    expect((valorant.body.disputes as Dispute[]).map((d) => d.id)).toEqual([second.disputeId]);
    const cheap = await kit.api('GET', '/api/admin/disputes?maxStake=20', { as: admin });
    expect((cheap.body.disputes as Dispute[]).map((d) => d.id)).toContain(first.disputeId);
    expect((cheap.body.disputes as Dispute[]).map((d) => d.id)).not.toContain(second.disputeId);
    const old = await kit.api('GET', '/api/admin/disputes?minAgeMinutes=60', { as: admin });
    expect(old.body.disputes).toEqual([]);
    expect((await kit.api('GET', '/api/admin/disputes?minStake=-1', { as: admin })).status).toBe(400);
  });

  it('takes filters beyond any stake or age (no dispute is that big or that old) without failing', async () => {
    const { disputeId } = await disputed({ stake: 30 });
    const ids = async (query: string) => {
      const r = await kit.api('GET', `/api/admin/disputes?${query}`, { as: admin });
      expect(r.status, `${query}: ${JSON.stringify(r.body)}`).toBe(200);
      return (r.body.disputes as Dispute[]).map((d) => d.id);
    };
    expect(await ids('maxStake=99999999999')).toContain(disputeId);
    expect(await ids('minStake=99999999999')).toEqual([]);
    expect(await ids(`minAgeMinutes=${Number.MAX_SAFE_INTEGER}`)).toEqual([]);
    expect(await ids('minAgeMinutes=99999999999')).toEqual([]);
  });
});

describe('resolution', () => {
  it.each([
    ['player1', 'p1'],
    ['player2', 'p2'],
    ['draw', null],
    ['void', null],
  ] as const)('resolving to %s settles through the ledger, notifies both, and a second resolution is refused', async (outcome, winner) => {
    const m = await disputed();
    const before = { p1: await kit.available(m.p1.id), p2: await kit.available(m.p2.id) };
    const r = await resolve(m.disputeId, { outcome, reason: 'Scoreboard screenshot shows the result' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.dispute).toMatchObject({
      status: 'resolved',
      resolution: { outcome, reason: 'Scoreboard screenshot shows the result', resolvedBy: admin.id },
    });
    expect(await kit.matchStatus(m.matchId)).toBe(outcome === 'void' ? 'cancelled' : 'completed');
    for (const seat of ['p1', 'p2'] as const) {
      const expected = winner === null ? before[seat] + minor(m.stake) : winner === seat ? before[seat] + minor(2 * m.stake) : before[seat];
      expect(await kit.available(m[seat].id), seat).toBe(expected);
      const events = await kit.t.database.db.query<{ type: string; payload: { outcome?: string } }>(
        `SELECT type, payload FROM realtime_events WHERE topic = $1 ORDER BY version`,
        [`user:${m[seat].id}`],
      );
      expect(events.find((e) => e.type === 'dispute.resolved')?.payload.outcome).toBe(outcome);
      expect(events.map((e) => e.type)).toContain('match.completed');
    }
    const feed = await kit.t.database.db.query<{ type: string; payload: { disputeId?: string } }>(
      `SELECT type, payload FROM realtime_events WHERE topic = 'admin' ORDER BY version`,
    );
    expect(feed.filter((e) => e.payload.disputeId === m.disputeId).map((e) => e.type)).toEqual(['dispute.opened', 'dispute.resolved']);
    await kit.expectAuditClean();

    const again = await resolve(m.disputeId, { outcome: 'player1', reason: 'changed my mind' });
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toBe(RESULTS.alreadyResolved);
    const late = await kit.api('POST', `/api/matches/${m.matchId}/dispute/statements`, { as: m.p1, body: { body: 'one more thing' } });
    expect(late.status).toBe(409);
    await kit.expectAuditClean();
  });

  it('refuses a missing reason or outcome and an unknown dispute, changing nothing', async () => {
    const m = await disputed();
    for (const body of [{ outcome: 'player1' }, { outcome: 'player1', reason: '   ' }, { outcome: 'winner', reason: 'x' }, {}]) {
      const r = await resolve(m.disputeId, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect((await resolve(m.disputeId, { outcome: 'player1' })).body.error?.message).toBe(RESULTS.reasonRequired);
    expect((await resolve('00000000-0000-4000-8000-000000000000', { outcome: 'draw', reason: 'x' })).status).toBe(404);
    expect(await kit.matchStatus(m.matchId)).toBe('disputed');
  });

  it('refuses an admin who played the match (403), changing nothing; another admin resolves it', async () => {
    const m = await disputed();
    await kit.t.database.db.query(`UPDATE profiles SET role = 'admin' WHERE id = $1`, [m.p1.id]);
    const signedIn = await kit.api('POST', '/api/auth/signin', {
      body: { email: `${m.p1.username}@results.test`, password: 'secret123', account_type: 'real' },
    });
    expect(signedIn.status).toBe(200);
    const p1AsAdmin = {
      ...m.p1,
      headers: { authorization: `Bearer ${(signedIn.body as unknown as { session: { access_token: string } }).session.access_token}` },
    };
    const before = await kit.available(m.p1.id);
    const own = await resolve(m.disputeId, { outcome: 'player1', reason: 'I won' }, p1AsAdmin);
    expect(own.status).toBe(403);
    expect(own.body.error?.message).toBe(RESULTS.ownDispute);
    expect(await kit.matchStatus(m.matchId)).toBe('disputed');
    expect(await kit.available(m.p1.id)).toBe(before);
    expect((await resolve(m.disputeId, { outcome: 'player2', reason: 'scoreboard' })).status).toBe(200);
    await kit.expectAuditClean();
  });

  it('two admins resolving at once: one settles, the other is refused', async () => {
    const m = await disputed();
    const other = await kit.admin();
    const replies = await Promise.all([
      resolve(m.disputeId, { outcome: 'player1', reason: 'first' }),
      resolve(m.disputeId, { outcome: 'player2', reason: 'second' }, other),
    ]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    await kit.expectAuditClean();
  });

  it('a statement arriving while an admin resolves: the resolution settles once, the statement lands before it or is refused', async () => {
    for (let round = 0; round < 4; round += 1) {
      const m = await disputed();
      const before = await kit.available(m.p1.id);
      const replies = await Promise.all([
        kit.api('POST', `/api/matches/${m.matchId}/dispute/statements`, { as: m.p1, body: { body: 'my scoreboard' } }),
        resolve(m.disputeId, { outcome: 'player1', reason: 'scoreboard' }),
        kit.api('POST', `/api/matches/${m.matchId}/dispute/statements`, { as: m.p2, body: { body: 'no, mine' } }),
      ]);
      expect(replies[1].status, JSON.stringify(replies[1].body)).toBe(200);
      for (const r of [replies[0], replies[2]]) expect([200, 409], JSON.stringify(r.body)).toContain(r.status);
      expect(await kit.matchStatus(m.matchId)).toBe('completed');
      expect(await kit.available(m.p1.id)).toBe(before + minor(2 * m.stake));
    }
    await kit.expectAuditClean();
  });
});

describe('dashboard', () => {
  it('counts users, open challenges, active matches, open disputes, escrow per currency, and reports the audit', async () => {
    await disputed({ stake: 40 });
    const r = await kit.api('GET', '/api/admin/dashboard', { as: admin });
    expect(r.status).toBe(200);
    const d = r.body as unknown as Dashboard;
    const [counts] = await kit.t.database.db.query<{ users: number; disputes: number; held: string }>(
      `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM disputes WHERE status = 'open') AS disputes,
              (SELECT coalesce(sum(amount), 0) FROM escrow_holds WHERE status = 'held' AND currency = 'credits') AS held`,
    );
    expect(d.users).toBe(counts!.users);
    expect(d.openDisputes).toBe(counts!.disputes);
    expect(d.openDisputes).toBeGreaterThanOrEqual(1);
    expect(d.activeMatches).toBeGreaterThanOrEqual(1);
    expect(d.escrowHeld.credits).toBe(Number(counts!.held) / 100);
    expect(d.escrowHeld.credits).toBeGreaterThanOrEqual(80);
    expect(d.audit).toEqual({ ok: true, problems: [] });
    expect(typeof d.openChallenges).toBe('number');
  });
});

describe('voiding a web match that cannot go on', () => {
  /** A running tic-tac-toe match between two new players, its first move played. */
  async function running(stake = 30) {
    const [p1, p2] = [await kit.signUp(), await kit.signUp()];
    const created = await kit.api('POST', '/api/challenges', { as: p1, body: { game: 'tic-tac-toe', stake, duration: 10 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const accepted = await kit.api('POST', `/api/challenges/${(created.body.challenge as { id: string }).id}/accept`, { as: p2, body: {} });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const matchId = (accepted.body.match as { id: string }).id;
    for (const p of [p1, p2]) expect((await kit.api('POST', `/api/matches/${matchId}/ready`, { as: p })).status).toBe(200);
    const view = (await kit.api('GET', `/api/matches/${matchId}`, { as: p1 })).body.match as {
      version: number;
      toMove: number[];
      players: { id: string }[];
    };
    const mover = view.players[view.toMove[0]!]!.id === p1.id ? p1 : p2;
    const moved = await kit.api('POST', `/api/matches/${matchId}/moves`, { as: mover, body: { move: 4, version: view.version } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    return { matchId, p1, p2, stake };
  }

  /** As the admin unless told; `null`: signed out. */
  const voidIt = (matchId: string, body: unknown, as: TestPlayer | null = admin) =>
    kit.api('POST', `/api/admin/matches/${matchId}/void`, { ...(as ? { as } : {}), body });

  it('returns each stake through the ledger, records who and why, and refuses a second time', async () => {
    const m = await running();
    const before = await Promise.all([m.p1, m.p2].map((p) => kit.available(p.id)));
    const reply = await voidIt(m.matchId, { reason: 'stuck after a deploy' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toEqual({ matchId: m.matchId, status: 'cancelled' });
    expect(await kit.matchStatus(m.matchId)).toBe('cancelled');
    expect(await Promise.all([m.p1, m.p2].map((p) => kit.available(p.id)))).toEqual(before.map((b) => b + minor(m.stake)));
    const [transition] = await kit.t.database.db.query<{ actor_id: string; action: string; detail: { reason: string } }>(
      `SELECT actor_id, action, detail FROM match_transitions WHERE match_id = $1 AND action = 'admin_void'`,
      [m.matchId],
    );
    expect(transition).toMatchObject({ actor_id: admin.id, detail: { reason: 'stuck after a deploy' } });
    const again = await voidIt(m.matchId, { reason: 'again' });
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toBe(RESULTS.matchOver);
    await kit.expectAuditClean();
  });

  it('ends a match whose stored moves no longer replay (which fails loudly as it runs), and shows it at its snapshot after', async () => {
    const m = await running();
    // The stored move no longer replays to its recorded clock (as after a clock rule changed).
    await kit.t.database.db.query('UPDATE match_moves SET remaining_ms = ARRAY[1, 1] WHERE match_id = $1', [m.matchId]);
    const broken = await kit.api('GET', `/api/matches/${m.matchId}`, { as: m.p1 });
    expect(broken.status).toBe(500);
    expect(JSON.stringify(broken.body)).not.toMatch(/replay|stack/i);
    expect((await voidIt(m.matchId, { reason: 'moves do not replay' })).status).toBe(200);
    const after = await kit.api('GET', `/api/matches/${m.matchId}`, { as: m.p1 });
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.body.match).toMatchObject({ status: 'cancelled' });
    await kit.expectAuditClean();
  });

  it('refuses visitors, players, bad input, unknown and external matches and an admin who plays in it, changing nothing', async () => {
    const m = await running();
    const user = await kit.signUp();
    const before = await Promise.all([m.p1, m.p2].map((p) => kit.available(p.id)));
    expect((await voidIt(m.matchId, { reason: 'x' }, null)).status).toBe(401);
    expect((await voidIt(m.matchId, { reason: 'x' }, user)).status).toBe(403);
    expect((await voidIt(m.matchId, { reason: 'x' }, m.p1)).status).toBe(403);
    for (const body of [{}, { reason: '   ' }, { reason: 7 }]) {
      const r = await voidIt(m.matchId, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error?.message).toBe(RESULTS.reasonRequired);
    }
    expect((await voidIt('00000000-0000-4000-8000-000000000000', { reason: 'x' })).status).toBe(404);
    expect((await voidIt('not-a-match', { reason: 'x' })).status).toBe(404);
    const external = await kit.externalMatch();
    expect((await voidIt(external.matchId, { reason: 'x' })).status).toBe(409);
    // An admin who plays in it is a party, not a judge.
    await kit.t.database.db.query(`UPDATE profiles SET role = 'admin' WHERE id = $1`, [m.p2.id]);
    const signedIn = await kit.api('POST', '/api/auth/signin', {
      body: { email: `${m.p2.username}@results.test`, password: 'secret123', account_type: 'real' },
    });
    const p2AsAdmin = {
      ...m.p2,
      headers: { authorization: `Bearer ${(signedIn.body as unknown as { session: { access_token: string } }).session.access_token}` },
    };
    const own = await voidIt(m.matchId, { reason: 'x' }, p2AsAdmin);
    expect(own.status).toBe(403);
    expect(own.body.error?.message).toBe(RESULTS.ownMatch);
    expect(await kit.matchStatus(m.matchId)).toBe('in_progress');
    expect(await Promise.all([m.p1, m.p2].map((p) => kit.available(p.id)))).toEqual(before);
    await kit.expectAuditClean();
  });
});
