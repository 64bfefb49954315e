// Every way a match ends settles the escrow once, in the transaction that records the result.
import { describe, expect, it } from 'vitest';
import { ARENA } from '@versus/domain';
import { ARENA_RULES, type MatchView } from '@versus/domain/arena';
import { Arena } from './arena.service.ts';
import { kitPerFile, type Player } from './arena.test-kit.ts';

const kit = kitPerFile();

const STAKE = 25;
const START = 100_000; // 1,000 credits in minor units
const both = async (a: Player, b: Player) => [await kit.balance(a.id), await kit.balance(b.id)];

describe('time', () => {
  it('a flag that falls loses the game on time; the sweeper ends it even with nobody watching', async () => {
    const alice = await kit.player('clka');
    const bob = await kit.player('clkb');
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    let view = await kit.start(id, alice, bob);
    const players: [Player, Player] = [alice, bob];
    const first = kit.mover(view, players);
    const second = first === alice ? bob : alice;
    expect((await kit.move(id, first, 4, { version: view.version })).status).toBe(200);

    // Not yet: nothing to do.
    expect(await kit.arena.sweep(Date.now() + 1_000)).toMatchObject({ flagged: 0 });
    // The second player never moves: 60 s and the lag grace later the game is theirs to lose.
    const t1 = Date.now() + 60_000 + 5_000;
    expect(await kit.arena.sweep(t1)).toMatchObject({ flagged: 1, failed: 0 });
    view = await kit.view(id, first);
    expect(view.series.wins[view.players.findIndex((p) => p.id === first.id)]).toBe(1);
    expect(view.series.games[0]!.outcome).toMatchObject({ reason: 'timeout' });
    expect(view.status).toBe('in_progress');
    expect((await kit.events(`match:${id}`)).at(-1)?.type).toBe('match.timeout');

    // Game 2 starts at once, the second player's to open (who starts alternates); they let it run out too.
    expect(kit.mover(view, players)).toBe(second);
    await kit.arena.sweep(t1 + 65_000);
    view = await kit.view(id, first);
    expect(view.status).toBe('completed');
    expect(view.winnerId).toBe(first.id);
    expect(view.result).toMatchObject({ outcome: 'win', reason: 'games-won', lastGameReason: 'timeout' });
    expect(await kit.balance(first.id)).toEqual({ available: START + STAKE * 100, escrow: 0 });
    expect(await kit.balance(second.id)).toEqual({ available: START - STAKE * 100, escrow: 0 });
    await kit.expectAuditClean();
    // Sweeping again finds nothing and pays nothing.
    const settled = await kit.snapshot(id);
    expect(await kit.arena.sweep(t1 + 200_000)).toMatchObject({ flagged: 0, noShows: 0 });
    expect(await kit.snapshot(id)).toBe(settled);
  });

  it('the process running a match flags its clock itself once it runs out, with nobody sweeping', async () => {
    const alice = await kit.player('alma');
    const bob = await kit.player('almb');
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    // An arena of its own on a clock the test moves: its alarm wheel reads that clock.
    let now = Date.now();
    const { arena: _arena, tournaments: _tournaments, ...ctx } = kit.test.app.services;
    const arena = new Arena(ctx, { now: () => now });
    try {
      for (const player of [alice, bob]) await arena.ready({ userId: player.id, role: 'user', accountType: 'real' }, id);
      const flagged = async () => (await kit.events(`match:${id}`)).some((e) => e.type === 'match.timeout');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await flagged()).toBe(false);
      now += 70_000;
      await expect.poll(flagged, { timeout: 2_000, interval: 50 }).toBe(true);
      expect((await kit.view(id, alice)).series.games[0]!.outcome).toMatchObject({ reason: 'timeout' });
    } finally {
      await arena.close();
    }
  });

  it('a move arriving after the flag fell is not played: the game is lost on time', async () => {
    const alice = await kit.player('lata');
    const bob = await kit.player('latb');
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    const view = await kit.start(id, alice, bob);
    const mover = kit.mover(view, [alice, bob]);
    // The mover's turn started 70 s ago (as if they sat on it); another process, with no cached
    // copy of the match, receives the move.
    await kit.test.database.db.query(
      `UPDATE matches SET state = jsonb_set(state, '{clock,since}', to_jsonb((state->'clock'->>'since')::bigint - 70000)) WHERE id = $1`,
      [id],
    );
    const other = await kit.anotherApp();
    const late = await kit.move(id, mover, 4, { version: view.version, app: other });
    expect(late.status).toBe(409);
    expect(late.body.error).toEqual({ code: 'time_out', message: ARENA.timeUp });
    const after = await kit.view(id, mover, other);
    expect(after.series.games[0]!.outcome).toMatchObject({ reason: 'timeout', winner: 1 - view.toMove[0]! });
    expect(after.moves).toHaveLength(0);
    expect(after.version).toBe(view.version + 1);
  });
});

describe('no-shows', () => {
  it('a player not ready 5 minutes after the start forfeits: the other is paid', async () => {
    const alice = await kit.player('fora');
    const bob = await kit.player('forb');
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    expect((await kit.api('POST', `/api/matches/${id}/ready`, { as: alice })).status).toBe(200);
    const start = await kit.startsAt(id);
    expect(await kit.arena.sweep(start + 4 * 60_000)).toMatchObject({ noShows: 0 });
    expect(await kit.arena.sweep(start + 5 * 60_000 + ARENA_RULES.sweepGraceMs + 1)).toMatchObject({ noShows: 1, failed: 0 });
    const view = await kit.view(id, bob);
    expect(view).toMatchObject({ status: 'completed', winnerId: alice.id, game: null });
    expect(view.result).toMatchObject({
      outcome: 'win',
      reason: 'forfeit',
      lastGameReason: null,
      payouts: [{ userId: alice.id, amount: 50 }],
    });
    expect(await both(alice, bob)).toEqual([
      { available: START + STAKE * 100, escrow: 0 },
      { available: START - STAKE * 100, escrow: 0 },
    ]);
    await kit.expectAuditClean();
    expect((await kit.events(`user:${bob.id}`)).find((e) => e.type === 'match.completed')?.payload).toMatchObject({
      result: 'loss',
      reason: 'forfeit',
    });
  });

  it('arriving after the deadline finds the match forfeited', async () => {
    const alice = await kit.player('lateA');
    const bob = await kit.player('lateB');
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    expect((await kit.api('POST', `/api/matches/${id}/ready`, { as: alice })).status).toBe(200);
    await kit.test.database.db.query(`UPDATE matches SET scheduled_time = now() - interval '10 minutes' WHERE id = $1`, [id]);
    const other = await kit.anotherApp();
    const late = await kit.api('POST', `/api/matches/${id}/ready`, { as: bob, app: other });
    expect(late.status).toBe(409);
    expect(late.body.error).toEqual({ code: 'no_show', message: ARENA.noShowForfeit });
    expect((await kit.view(id, alice, other)).winnerId).toBe(alice.id);
    await kit.expectAuditClean();
  });

  it('neither ready: the match is void and both stakes return', async () => {
    const alice = await kit.player('voida');
    const bob = await kit.player('voidb');
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    const ratingsBefore = await kit.test.database.db.query('SELECT * FROM ratings WHERE user_id = ANY($1::uuid[])', [[alice.id, bob.id]]);
    await kit.arena.sweep((await kit.startsAt(id)) + 6 * 60_000);
    const view = await kit.view(id, alice);
    expect(view).toMatchObject({ status: 'cancelled', winnerId: null });
    expect(view.result).toMatchObject({ outcome: 'void', reason: 'void', ratings: [] });
    expect(await both(alice, bob)).toEqual([
      { available: START, escrow: 0 },
      { available: START, escrow: 0 },
    ]);
    expect(await kit.test.database.db.query('SELECT * FROM ratings WHERE user_id = ANY($1::uuid[])', [[alice.id, bob.id]])).toEqual(
      ratingsBefore,
    );
    const [challenge] = await kit.test.database.db.query<{ status: string }>(
      'SELECT c.status FROM challenges c JOIN matches m ON m.challenge_id = c.id WHERE m.id = $1',
      [id],
    );
    expect(challenge!.status).toBe('cancelled');
    await kit.expectAuditClean();
  });
});

describe('resignation', () => {
  it('concedes the whole series: the opponent is paid at once', async () => {
    const alice = await kit.player('resa');
    const bob = await kit.player('resb');
    const stranger = await kit.player('ress');
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    await kit.start(id, alice, bob);
    expect((await kit.api('POST', `/api/matches/${id}/resign`, { as: stranger, body: {} })).status).toBe(403);
    const resigned = await kit.api('POST', `/api/matches/${id}/resign`, { as: bob, body: {} });
    expect(resigned.status, resigned.raw).toBe(200);
    expect(resigned.body.match).toMatchObject({ status: 'completed', winnerId: alice.id });
    expect(resigned.body.match.result).toMatchObject({ reason: 'resignation', lastGameReason: 'resignation' });
    expect(await both(alice, bob)).toEqual([
      { available: START + STAKE * 100, escrow: 0 },
      { available: START - STAKE * 100, escrow: 0 },
    ]);
    await kit.expectAuditClean();
    // The replay reveals the seed of the game cut short too.
    const replay = await kit.replay(id, alice);
    expect(replay.games[0]!.seed).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('draws', () => {
  it('chess draw offers: decline, a move declines, accept; three agreed draws make the match a draw and return both stakes', async () => {
    const alice = await kit.player('drawa');
    const bob = await kit.player('drawb');
    const id = await kit.match('chess', alice, bob, { stake: STAKE });
    let view: MatchView = await kit.start(id, alice, bob);
    const players: [Player, Player] = [alice, bob];
    const draw = (as: Player, action: 'offer' | 'accept' | 'decline') =>
      kit.api('POST', `/api/matches/${id}/draw`, { as, body: { action } });

    // Nothing to answer yet.
    const nothing = await draw(alice, 'accept');
    expect(nothing.status).toBe(409);
    expect(nothing.body.error.message).toBe(ARENA.drawNothingToAnswer);

    // Offer, declined.
    let white = kit.mover(view, players);
    let black = white === alice ? bob : alice;
    expect((await draw(white, 'offer')).body.match.drawOffer).toBe(view.toMove[0]);
    expect((await draw(white, 'offer')).body.error.message).toBe(ARENA.drawAlreadyOffered);
    expect((await draw(black, 'decline')).body.match.drawOffer).toBeNull();
    // Offer, then the opponent's move declines it.
    expect((await kit.move(id, white, 'e2e4')).status).toBe(200);
    await draw(white, 'offer');
    const moved = await kit.move(id, black, 'e7e5');
    expect(moved.body.match.drawOffer).toBeNull();

    for (let game = 0; game < 3; game++) {
      view = await kit.view(id, alice);
      expect(view.game!.index).toBe(game);
      white = kit.mover(view, players);
      black = white === alice ? bob : alice;
      expect((await draw(black, 'offer')).status).toBe(200);
      const accepted = await draw(white, 'accept');
      expect(accepted.status, accepted.raw).toBe(200);
      view = accepted.body.match;
      expect(view.series.games[game]!.outcome).toEqual({ draw: true, reason: 'agreement' });
    }
    expect(view).toMatchObject({ status: 'completed', winnerId: null });
    expect(view.result).toMatchObject({ outcome: 'draw', reason: 'drawn-game-cap', lastGameReason: 'agreement' });
    expect(view.result!.payouts.map((p) => p.amount)).toEqual([STAKE, STAKE]);
    expect(await both(alice, bob)).toEqual([
      { available: START, escrow: 0 },
      { available: START, escrow: 0 },
    ]);
    await kit.expectAuditClean();
    const ratings = await kit.test.database.db.query<{ rating: number; draws: number }>(
      'SELECT rating, draws FROM ratings WHERE game = $1 AND user_id = ANY($2::uuid[])',
      ['chess', [alice.id, bob.id]],
    );
    expect(ratings).toHaveLength(2);
    for (const r of ratings) {
      expect(r.rating).toBeCloseTo(1500, 6);
      expect(r.draws).toBe(1);
    }
  });

  it('refuses draw offers in games without them', async () => {
    const alice = await kit.player('nodra');
    const bob = await kit.player('nodrb');
    const id = await kit.match('tic-tac-toe', alice, bob);
    await kit.start(id, alice, bob);
    const before = await kit.snapshot(id);
    const refused = await kit.api('POST', `/api/matches/${id}/draw`, { as: alice, body: { action: 'offer' } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({ code: 'draw_not_allowed', message: ARENA.drawNotAllowed });
    expect(await kit.snapshot(id)).toBe(before);
  });
});
