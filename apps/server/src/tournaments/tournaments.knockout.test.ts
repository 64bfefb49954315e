// A 16-player knockout played to its payout through the real API: stakes locked, a seeded bracket advanced game by game, the pool paid
// in one ledger operation, places and notifications, the tournament's events, and a clean audit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOURNAMENT } from '@versus/domain';
import type { ApiErrorBody } from '@versus/domain/errors';
import type { TournamentActionResponse } from '@versus/domain/tournaments';
import { expectAuditClean } from '../test/ledger-checks.ts';
import { listen, TestSocket } from '../realtime/test-socket.ts';
import type { Player } from '../arena/arena.test-kit.ts';
import { betterSeeded, createTournamentKit, type TournamentKit } from './tournaments.test-kit.ts';

/** A drawn tic-tac-toe game, whoever starts: X 0 2 3 7 8, O 1 4 5 6. */
const DRAW = [0, 1, 2, 4, 3, 5, 7, 6, 8];

let kit: TournamentKit;
beforeAll(async () => {
  kit = await createTournamentKit();
});
afterAll(() => kit.close());

describe('a 16-player knockout', () => {
  it('is seeded, played round by round to its final, and pays the whole pool in one operation', async () => {
    const players: Player[] = [];
    for (let i = 0; i < 16; i++) players.push(await kit.player('ko'));
    const [creator] = players as [Player];
    const created = await kit.create(creator, { name: 'Sixteen', maxPlayers: 16 });
    expect(created).toMatchObject({ status: 'scheduled', format: 'knockout', players: 0, entry: { kind: 'stake', stake: 10 } });
    const id = created.id;

    for (const p of players) {
      const joined = await kit.join(id, p);
      expect(joined.message).toBe(TOURNAMENT.entered('$10.00'));
      expect(await kit.money(p.id)).toEqual({ available: 99_000, escrow: 1_000 });
    }
    const full = await kit.api('POST', `/api/tournaments/${id}/join`, { as: await kit.player('late') });
    expect(full.status).toBe(409);
    expect(full.body.error.message).toBe(TOURNAMENT.full);
    const before = await kit.tournament(id, creator);
    expect(before).toMatchObject({
      players: 16,
      prizePool: { amount: 160 },
      prizeSplit: '1st 60% · 2nd 30% · 3rd 10%',
      prizes: [96, 48, 16],
    });

    // A player's socket hears the start on the tournament's topic and their game on their own.
    const url = await listen(kit.app);
    const socket = await TestSocket.signedIn(url, players[5]!.token);
    socket.send({ t: 'sub', d: { topic: `tournament:${id}` } });
    await socket.next('subscribed');

    // Nothing happens before the start; at the start the bracket is made and 8 games with it.
    await kit.runAt(id, new Date(created.startsAt).getTime() - 60_000);
    expect((await kit.tournament(id, creator)).status).toBe('scheduled');
    await kit.runAt(id, created.startsAt);
    const started = await kit.tournament(id, creator);
    expect(started.status).toBe('running');
    expect(started.bracket!.rounds.map((r) => r.length)).toEqual([8, 4, 2, 1]);
    expect(started.games).toHaveLength(8);
    expect(new Set(started.games.flatMap((g) => g.players)).size).toBe(16);
    // Its games name it in their view (the match screen shows it instead of a stake).
    const game = started.games[0]!;
    const gameView = await kit.api('GET', `/api/matches/${game.matchId}`, { as: players.find((p) => p.id === game.players[0])! });
    expect(gameView.body.match.tournament).toEqual({ id, name: 'Sixteen' });
    const active = await kit.api<{ matches: { id: string; tournament: unknown }[] }>('GET', '/api/arena/matches', {
      as: players.find((p) => p.id === game.players[0])!,
    });
    expect(active.body.matches.find((m) => m.id === game.matchId)?.tournament).toEqual({ id, name: 'Sixteen' });
    const [event] = await socket.events(1);
    expect(event).toMatchObject({ topic: `tournament:${id}`, type: 'tournament.updated' });
    socket.close();
    const mine = (await kit.tournament(id, players[5]!)).me!;
    expect(mine.currentMatchId).toBe(started.games.find((g) => g.players.includes(players[5]!.id))!.matchId);
    expect(await kit.notifications(players[5]!.id, 'tournament_game_ready')).toHaveLength(1);

    // Round by round, the better seed wins every game: the bracket decides who meets whom.
    for (let round = 0; round < 4; round++) {
      const t = await kit.tournament(id, creator);
      const games = t.games.filter((g) => g.round === round);
      expect(games).toHaveLength(8 >> round);
      for (const g of games) await kit.playGame(id, g.matchId, players, betterSeeded(t, g.players));
    }

    const done = await kit.tournament(id, creator);
    expect(done.status).toBe('finished');
    const bySeed = (seed: number) => done.entrants.find((e) => e.seed === seed)!;
    expect(bySeed(1)).toMatchObject({ place: 1, prize: 96 });
    expect(bySeed(2)).toMatchObject({ place: 2, prize: 48 });
    // Semifinal losers share 3rd–4th: 10% of the pool between them.
    expect(bySeed(3)).toMatchObject({ place: 3, prize: 8 });
    expect(bySeed(4)).toMatchObject({ place: 3, prize: 8 });
    expect(done.entrants.filter((e) => e.place === 5)).toHaveLength(4);
    expect(done.entrants.filter((e) => e.place === 9)).toHaveLength(8);
    expect(await kit.money(bySeed(1).id)).toEqual({ available: 99_000 + 9_600, escrow: 0 });
    expect(await kit.money(bySeed(16).id)).toEqual({ available: 99_000, escrow: 0 });

    // ONE ledger operation: 16 stakes into the pool, 4 prizes out.
    const db = kit.test.database.db;
    const ops = await db.query<{ operation_id: number; reason: string; n: number }>(
      `SELECT operation_id, reason, count(*)::int AS n FROM ledger_transfers WHERE tournament_id = $1
         AND reason IN ('tournament_pool', 'tournament_prize') GROUP BY operation_id, reason ORDER BY reason`,
      [id],
    );
    expect(ops.map(({ reason, n }) => ({ reason, n }))).toEqual([
      { reason: 'tournament_pool', n: 16 },
      { reason: 'tournament_prize', n: 4 },
    ]);
    expect(new Set(ops.map((o) => o.operation_id)).size).toBe(1);
    const prizes = await kit.notifications(bySeed(1).id, 'tournament_prize');
    expect(prizes).toEqual([expect.objectContaining({ message: 'You finished 1st in Sixteen: $96.00 paid to your wallet.' })]);
    expect(await kit.notifications(bySeed(16).id, 'tournament_eliminated')).toHaveLength(1);
    // A finished tournament takes no more runs, entries or leaves.
    await kit.tournaments.run(id);
    const leave = await kit.api('POST', `/api/tournaments/${id}/leave`, { as: creator });
    expect(leave.status).toBe(409);
    expect(leave.body.error.message).toBe(TOURNAMENT.nothingToLeave);
    await expectAuditClean(db, ['matches', 'tournaments']);
  });
});

describe('a drawn pairing and a player who leaves', () => {
  it('plays a deciding game with the first move swapped, draw odds to the second mover, and a walkover', async () => {
    const players: Player[] = [];
    for (let i = 0; i < 4; i++) players.push(await kit.player('decider'));
    const t0 = await kit.create(players[0]!, { name: 'Deciders' });
    for (const p of players) await kit.join(t0.id, p);
    await kit.runAt(t0.id, t0.startsAt);
    const started = await kit.tournament(t0.id, players[0]!);
    const [first, second] = started.games;
    const pair = (g: typeof first) => g!.players.map((id) => players.find((p) => p.id === id)!);

    // The first pairing draws its game: a deciding game follows, the other player moving first.
    const drawn = await kit.playCells(first!.matchId, pair(first), DRAW);
    expect(drawn.result).toMatchObject({ outcome: 'draw' });
    await kit.tournaments.run(t0.id);
    const withDecider = await kit.tournament(t0.id, players[0]!);
    const decider = withDecider.games.find((g) => g.decider === 1)!;
    expect(decider).toMatchObject({ round: 0, slot: first!.slot, players: first!.players, status: 'pending' });
    const firstMover = drawn.series.games[0]!.firstSeat;
    // The deciding game is drawn too: the player who moved second goes through (draw odds).
    const deciding = await kit.playCells(decider.matchId, pair(first), DRAW);
    expect(deciding.series.games[0]!.firstSeat).toBe(1 - firstMover);
    await kit.tournaments.run(t0.id);
    const throughByOdds = first!.players[firstMover];
    const afterDecider = await kit.tournament(t0.id, players[0]!);
    expect(afterDecider.bracket!.rounds[0]![first!.slot!]!.winner).toBe(throughByOdds);

    // A player of the other pairing leaves before getting ready: their match is forfeited.
    const leaver = players.find((p) => p.id === second!.players[1])!;
    const left = await kit.api<TournamentActionResponse & ApiErrorBody>('POST', `/api/tournaments/${t0.id}/leave`, { as: leaver });
    expect(left.status, left.raw).toBe(200);
    expect(left.body.message).toBe(TOURNAMENT.forfeitedKnockout);
    await kit.tournaments.run(t0.id);
    const final = await kit.tournament(t0.id, players[0]!);
    expect(final.bracket!.rounds[0]![second!.slot!]!.winner).toBe(second!.players[0]);
    expect(final.entrants.find((e) => e.id === leaver.id)).toMatchObject({ withdrawn: true, eliminatedRound: 0 });
    const finalGame = final.games.find((g) => g.round === 1)!;
    expect(new Set(finalGame.players)).toEqual(new Set([throughByOdds, second!.players[0]]));
    await kit.playGame(t0.id, finalGame.matchId, players, throughByOdds);
    const done = await kit.tournament(t0.id, players[0]!);
    expect(done).toMatchObject({ status: 'finished' });
    expect(done.entrants.find((e) => e.id === throughByOdds)).toMatchObject({ place: 1, prize: 40 });
    await expectAuditClean(kit.test.database.db, ['matches', 'tournaments']);
  });
});

describe('a sponsored tournament', () => {
  it("is free to enter, its prize locked from the sponsor's pcredits and paid in credits at par", async () => {
    const sponsor = await kit.player('sponsor');
    await kit.promote(sponsor, 'promoter');
    const db = kit.test.database.db;
    const house = async (currency: string) =>
      (await db.query<{ balance: number }>(`SELECT balance FROM ledger_accounts WHERE kind = 'house' AND currency = $1`, [currency]))[0]!
        .balance;
    const players: Player[] = [];
    for (let i = 0; i < 4; i++) players.push(await kit.player('free'));
    // The house accounts after every starting grant: from here only the tournament moves them.
    const houses = { credits: await house('credits'), pcredits: await house('pcredits') };
    const created = await kit.create(sponsor, { name: 'Sponsored Cup', entry: { kind: 'sponsored', prize: 100 } });
    expect(created).toMatchObject({ entry: { kind: 'sponsored', stake: 0 }, prizePool: { amount: 100 }, prizes: [100] });
    expect(await kit.money(sponsor.id, 'pcredits')).toEqual({ available: 90_000, escrow: 10_000 });

    for (const p of players) expect((await kit.join(created.id, p)).message).toBe(TOURNAMENT.enteredFree);
    for (const p of players) expect(await kit.money(p.id)).toEqual({ available: 100_000, escrow: 0 });
    // The sponsor plays for pcredits: a credits tournament is not theirs to enter.
    expect((await kit.api('POST', `/api/tournaments/${created.id}/join`, { as: sponsor })).status).toBe(422);

    await kit.runAt(created.id, created.startsAt);
    for (let round = 0; round < 2; round++) {
      const t = await kit.tournament(created.id, players[0]!);
      for (const g of t.games.filter((x) => x.round === round))
        await kit.playGame(created.id, g.matchId, players, betterSeeded(t, g.players));
    }
    const done = await kit.tournament(created.id, players[0]!);
    expect(done.status).toBe('finished');
    const champion = done.entrants.find((e) => e.place === 1)!;
    expect(champion.prize).toBe(100);
    expect(await kit.money(champion.id)).toEqual({ available: 110_000, escrow: 0 });
    expect(await kit.money(sponsor.id, 'pcredits')).toEqual({ available: 90_000, escrow: 0 });
    // Each currency balances on its own: the pcredits went to the house, the house paid the credits.
    expect(await house('pcredits')).toBe(houses.pcredits + 10_000);
    expect(await house('credits')).toBe(houses.credits - 10_000);

    // One nobody enters is cancelled at its start, and the prize goes back to the sponsor.
    const empty = await kit.create(sponsor, { name: 'Empty Cup', entry: { kind: 'sponsored', prize: 50 } });
    expect(await kit.money(sponsor.id, 'pcredits')).toEqual({ available: 85_000, escrow: 5_000 });
    await kit.runAt(empty.id, empty.startsAt);
    expect((await kit.tournament(empty.id, sponsor)).status).toBe('cancelled');
    expect(await kit.money(sponsor.id, 'pcredits')).toEqual({ available: 90_000, escrow: 0 });
    expect(await kit.notifications(sponsor.id, 'tournament_cancelled')).toEqual([
      expect.objectContaining({ message: 'Empty Cup was cancelled: fewer than 4 players entered. Your $50.00 was returned.' }),
    ]);
    await expectAuditClean(db, ['matches', 'tournaments']);
  });
});

describe('no-shows in a knockout', () => {
  it('are ended by the sweep at the match’s own deadline: the player there goes through; neither there, the better seed', async () => {
    const players: Player[] = [];
    for (let i = 0; i < 4; i++) players.push(await kit.player('noshow'));
    const created = await kit.create(players[0]!, { name: 'No Shows' });
    for (const p of players) await kit.join(created.id, p);
    await kit.runAt(created.id, created.startsAt);
    const t = await kit.tournament(created.id, players[0]!);
    const [one, none] = t.games as [(typeof t.games)[number], (typeof t.games)[number]];
    const there = players.find((p) => p.id === one.players[1])!;
    const ready = await kit.api('POST', `/api/matches/${one.matchId}/ready`, { as: there });
    expect(ready.status, ready.raw).toBe(200);
    const deadline = Date.parse(ready.body.match.noShowDeadline!);
    expect(deadline).toBe(Date.parse(created.startsAt) + 5 * 60_000);

    // Within the deadline (and the sweep's grace) nothing happens; past it, both end.
    expect(await kit.arena.sweep(deadline)).toMatchObject({ noShows: 0 });
    expect(await kit.arena.sweep(deadline + 3_000)).toMatchObject({ noShows: 2, failed: 0 });
    await kit.tournaments.run(created.id);
    const after = await kit.tournament(created.id, players[0]!);
    expect(after.games.find((g) => g.matchId === one.matchId)).toMatchObject({
      status: 'completed',
      winnerId: there.id,
      result: 'player2',
    });
    expect(after.games.find((g) => g.matchId === none.matchId)).toMatchObject({ status: 'cancelled', result: 'void' });
    const final = after.games.find((g) => g.round === 1)!;
    expect(new Set(final.players)).toEqual(new Set([there.id, betterSeeded(t, none.players)]));
    await expectAuditClean(kit.test.database.db, ['matches', 'tournaments']);
  });
});
