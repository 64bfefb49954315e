// A 16-player knockout played to its payout through the real API: stakes locked on entry, the
// bracket seeded and advanced game by game, the whole pool paid in one ledger operation, places
// and notifications, the events on the tournament's topic, and a clean ledger audit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOURNAMENT } from '@versus/domain';
import { expectAuditClean } from '../test/ledger-checks.ts';
import { listen, TestSocket } from '../realtime/test-socket.ts';
import type { Player } from '../arena/arena.test-kit.ts';
import { betterSeeded, createTournamentKit, type TournamentKit } from './tournaments.test-kit.ts';

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
