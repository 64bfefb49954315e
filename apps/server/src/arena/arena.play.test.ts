// A match from acceptance to payout through the real API, and every refusal that must change nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { ARENA, CHALLENGE } from '@versus/domain';
import { GLICKO2 } from '@versus/domain/rating';
import { matchTimeControl } from '@versus/domain/arena';
import { kitPerFile, playTicTacToeGame, type Player } from './arena.test-kit.ts';

const kit = kitPerFile();

describe('a tic-tac-toe best of 3', () => {
  it('goes from pending to ready to in progress to a payout of 2 × stake, and can be replayed', async () => {
    const alice = await kit.player('alice');
    const bob = await kit.player('bob');
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: 25 });
    expect(await kit.balance(alice.id)).toEqual({ available: 97_500, escrow: 2_500 });
    expect(await kit.balance(bob.id)).toEqual({ available: 97_500, escrow: 2_500 });

    // Pending: no game yet, a no-show deadline 5 minutes after the scheduled start.
    let view = await kit.view(id, alice);
    expect(view).toMatchObject({ status: 'pending', version: 0, game: null, clock: null, viewerSeat: 0, payout: 50 });
    expect(Date.parse(view.noShowDeadline!) - Date.parse(view.scheduledTime!)).toBe(5 * 60_000);

    const ready = await kit.api('POST', `/api/matches/${id}/ready`, { as: alice });
    expect(ready.status).toBe(200);
    expect(ready.body.match.players[0].ready).toBe(true);
    expect(ready.body.match.players[1].ready).toBe(false);
    // Readying again changes nothing.
    const before = await kit.snapshot(id);
    expect((await kit.api('POST', `/api/matches/${id}/ready`, { as: alice })).status).toBe(200);
    expect(await kit.snapshot(id)).toBe(before);

    view = (await kit.api('POST', `/api/matches/${id}/ready`, { as: bob })).body.match;
    expect(view.status).toBe('in_progress');
    expect(view.game).toMatchObject({ index: 0 });
    expect(view.clock).toMatchObject({ initialMs: 60_000, incrementMs: 5_000 });
    expect(view.clock!.running).toEqual(view.toMove);
    expect(view.series.games[0]!.seed).toBeNull();
    expect(view.series.games[0]!.commitment).toMatch(/^[0-9a-f]{64}$/);

    // The opponent hears the arrivals; both hear the start.
    expect((await kit.events(`arena-join:${id}`)).map((e) => e.type)).toEqual(['player_joined', 'player_joined']);
    expect((await kit.events(`user:${alice.id}`)).some((e) => e.type === 'match.started')).toBe(true);

    // Alice wins games 1 and 2: the match is hers.
    await playTicTacToeGame(kit, id, [alice, bob], alice);
    view = await kit.view(id, bob);
    expect(view.series).toMatchObject({ wins: [1, 0], played: 1 });
    expect(view.series.games[0]!.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(view.game!.index).toBe(1);
    expect(view.game!.firstSeat).toBe(1 - view.series.games[0]!.firstSeat);
    const last = await playTicTacToeGame(kit, id, [alice, bob], alice);
    view = last.body.match;
    expect(view).toMatchObject({ status: 'completed', winnerId: alice.id, toMove: [], yourTurn: false });
    expect(view.result).toMatchObject({
      outcome: 'win',
      winnerId: alice.id,
      reason: 'games-won',
      lastGameReason: 'three-in-a-row',
      payouts: [{ userId: alice.id, amount: 50 }],
    });

    // The winner has both stakes; the loser's escrow is gone.
    expect(await kit.balance(alice.id)).toEqual({ available: 102_500, escrow: 0 });
    expect(await kit.balance(bob.id)).toEqual({ available: 97_500, escrow: 0 });
    await kit.expectAuditClean();

    // Records, level and ratings.
    const [winner] = await kit.test.database.db.query<{ wins: number; losses: number; streak: number; level: number }>(
      'SELECT wins, losses, streak, level FROM profiles WHERE id = $1',
      [alice.id],
    );
    expect(winner).toEqual({ wins: 1, losses: 0, streak: 1, level: 1 });
    const ratings = view.result!.ratings;
    expect(ratings.find((r) => r.userId === alice.id)!.after).toBeGreaterThan(GLICKO2.initial.rating);
    expect(ratings.find((r) => r.userId === bob.id)!.after).toBeLessThan(GLICKO2.initial.rating);
    expect(view.players[0].rating.games).toBe(1);

    // The challenge is closed; the match was announced completed to both players.
    const [challenge] = await kit.test.database.db.query<{ status: string }>(
      'SELECT c.status FROM challenges c JOIN matches m ON m.challenge_id = c.id WHERE m.id = $1',
      [id],
    );
    expect(challenge!.status).toBe('completed');
    const bobsEvents = await kit.events(`user:${bob.id}`);
    expect(bobsEvents.find((e) => e.type === 'match.completed')?.payload).toMatchObject({ matchId: id, result: 'loss', received: 0 });
    expect((await kit.events(`user:${alice.id}`)).find((e) => e.type === 'match.completed')?.payload).toMatchObject({
      result: 'win',
      received: 50,
    });

    // Every move, in order, with the revealed seeds.
    const replay = await kit.replay(id, bob);
    expect(replay.games).toHaveLength(2);
    const moves = replay.games.flatMap((g) => g.moves);
    expect(moves.map((m) => m.seq)).toEqual(moves.map((_, i) => i + 1));
    expect(moves.every((m) => typeof m.move === 'number')).toBe(true);
    expect(replay.games.every((g) => g.seed !== null && g.outcome !== null)).toBe(true);
    expect(view.moves.map((m) => m.notation)).toEqual(moves.map((m) => m.notation));

    // Nothing more can happen to it.
    const after = await kit.snapshot(id);
    for (const [url, body] of [
      [`/api/matches/${id}/moves`, { move: 5, version: view.version }],
      [`/api/matches/${id}/resign`, {}],
      [`/api/matches/${id}/ready`, {}],
    ] as const) {
      const refused = await kit.api('POST', url, { as: bob, body });
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toBe(ARENA.matchOver);
    }
    expect(await kit.snapshot(id)).toBe(after);
  });
});

describe('the clock the creator chose', () => {
  it('plays the time control derived from the match length, shown before the start and on every game', async () => {
    const alice = await kit.player('tca');
    const bob = await kit.player('tcb');
    const id = await kit.match('tic-tac-toe', alice, bob, { duration: 15 });
    const control = matchTimeControl('tic-tac-toe', 15);
    expect(control).toEqual({ initialMs: 180_000, incrementMs: 5_000 });
    expect((await kit.view(id, bob)).timeControl).toEqual(control);
    const view = await kit.start(id, alice, bob);
    expect(view.clock).toMatchObject(control);
    expect(view.timeControl).toEqual(control);
    // The second game keeps the same control.
    await playTicTacToeGame(kit, id, [alice, bob], alice);
    expect(await kit.view(id, alice)).toMatchObject({ clock: control, game: { index: 1 } });
  });
});

describe('refusals', () => {
  let alice: Player;
  let bob: Player;
  let stranger: Player;
  let id: string;

  beforeAll(async () => {
    alice = await kit.player('refa');
    bob = await kit.player('refb');
    stranger = await kit.player('refs');
    id = await kit.match('tic-tac-toe', alice, bob);
  });

  it('refuses moves before the match starts, and readies from strangers', async () => {
    const before = await kit.snapshot(id);
    const early = await kit.move(id, alice, 4);
    expect(early.status).toBe(409);
    expect(early.body.error).toEqual({ code: 'not_started', message: ARENA.notStarted });
    const strangerReady = await kit.api('POST', `/api/matches/${id}/ready`, { as: stranger });
    expect(strangerReady.status).toBe(403);
    expect(strangerReady.body.error.message).toBe(ARENA.notAPlayer);
    expect(await kit.snapshot(id)).toBe(before);
  });

  it('refuses out of turn, a stranger, a spectator, an illegal and a stale move, changing nothing', async () => {
    const view = await kit.start(id, alice, bob);
    const players: [Player, Player] = [alice, bob];
    const mover = kit.mover(view, players);
    const waiter = mover === alice ? bob : alice;
    const before = await kit.snapshot(id);

    const outOfTurn = await kit.move(id, waiter, 4, { version: view.version });
    expect(outOfTurn.status).toBe(409);
    expect(outOfTurn.body.error).toEqual({ code: 'not_your_turn', message: 'It is not your turn.' });

    const byStranger = await kit.move(id, stranger, 4, { version: view.version });
    expect(byStranger.status).toBe(403);
    expect(byStranger.body.error.message).toBe(ARENA.notAPlayer);

    // A spectator of this public match may watch it, but not play in it.
    const watched = await kit.api('GET', `/api/spectate/${id}`, { as: stranger });
    expect(watched.status).toBe(200);
    expect(watched.body.match.viewerSeat).toBeNull();
    const bySpectator = await kit.move(id, stranger, 4, { version: view.version });
    expect(bySpectator.status).toBe(403);

    const illegal = await kit.move(id, mover, 9, { version: view.version });
    expect(illegal.status).toBe(400);
    expect(illegal.body.error).toEqual({ code: 'invalid_move', message: 'That is not a valid move.' });

    const anonymous = await kit.api('POST', `/api/matches/${id}/moves`, { body: { move: 4, version: view.version } });
    expect(anonymous.status).toBe(401);

    const malformed = await kit.api('POST', `/api/matches/${id}/moves`, { as: mover, body: { move: 4 } });
    expect(malformed.status).toBe(400);
    const unknown = await kit.move('00000000-0000-4000-8000-000000000000', mover, 4, { version: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe(CHALLENGE.matchNotFound);
    const notUuid = await kit.api('POST', `/api/matches/nope/moves`, { as: mover, body: { move: 4, version: 1 } });
    expect(notUuid.status).toBe(404);
    expect(await kit.snapshot(id)).toBe(before);

    // A legal move, then the same version again is stale; an occupied cell is illegal.
    const played = await kit.move(id, mover, 4, { version: view.version });
    expect(played.status, played.raw).toBe(200);
    expect(played.body.match.version).toBe(view.version + 1);
    const afterMove = await kit.snapshot(id);
    const stale = await kit.move(id, waiter, 0, { version: view.version });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toEqual({ code: 'stale_version', message: ARENA.staleVersion(view.version, view.version + 1) });
    const occupied = await kit.move(id, waiter, 4, { version: view.version + 1 });
    expect(occupied.status).toBe(400);
    expect(occupied.body.error.code).toBe('illegal_move');
    expect(occupied.body.error.message).toMatch(/^Illegal move: [XO] b2$/);
    expect(await kit.snapshot(id)).toBe(afterMove);
  });

  it('shows the match to its players only; spectating a private match is for its players', async () => {
    const refused = await kit.api('GET', `/api/matches/${id}`, { as: stranger });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(CHALLENGE.matchForbidden);
    expect((await kit.api('GET', `/api/matches/${id}`)).status).toBe(401);

    const carol = await kit.player('refc');
    const dan = await kit.player('refd');
    const hidden = await kit.match('tic-tac-toe', carol, dan, { isPrivate: true });
    const watch = await kit.api('GET', `/api/spectate/${hidden}`, { as: stranger });
    expect(watch.status).toBe(403);
    expect(watch.body.error.message).toBe(ARENA.privateMatch);
    expect((await kit.api('GET', `/api/spectate/${hidden}`, { as: carol })).status).toBe(200);
    expect((await kit.api('GET', `/api/matches/${hidden}/replay`, { as: carol })).status).toBe(409);
  });

  it("lists a player's active matches", async () => {
    const list = await kit.api<{ matches: { id: string; viewerSeat: number; yourTurn: boolean; status: string }[] }>(
      'GET',
      '/api/arena/matches',
      { as: bob },
    );
    expect(list.status).toBe(200);
    expect(list.body.matches.map((m) => m.id)).toContain(id);
    const entry = list.body.matches.find((m) => m.id === id)!;
    expect(entry).toMatchObject({ viewerSeat: 1, status: 'in_progress' });
    expect((await kit.api('GET', '/api/arena/matches')).status).toBe(401);
  });

  it('documents the arena routes in OpenAPI', async () => {
    const doc = (await kit.api<{ paths: Record<string, Record<string, { requestBody?: unknown }>> }>('GET', '/api/openapi.json')).body;
    for (const path of [
      '/api/arena/matches',
      '/api/matches/{id}',
      '/api/matches/{id}/ready',
      '/api/matches/{id}/moves',
      '/api/matches/{id}/resign',
      '/api/matches/{id}/draw',
      '/api/matches/{id}/replay',
      '/api/spectate/{id}',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.paths['/api/matches/{id}/moves']!.post!.requestBody).toBeDefined();
  });
});
