// A 30-minute arena on the tournament's own clock, through the API: re-pairing as games end, leave and resume, a no-show paused,
// the end stopping the pairing while live games still count, and the pool paid by the standings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOURNAMENT } from '@versus/domain';
import type { TournamentDetail } from '@versus/domain/tournaments';
import { expectAuditClean } from '../test/ledger-checks.ts';
import type { Player } from '../arena/arena.test-kit.ts';
import { createTournamentKit, type TournamentKit } from './tournaments.test-kit.ts';

let kit: TournamentKit;
beforeAll(async () => {
  kit = await createTournamentKit();
});
afterAll(() => kit.close());

const MINUTE = 60_000;

describe('a 30-minute arena', () => {
  it('re-pairs, pauses, counts a no-show, stops at its end and pays by the standings', async () => {
    const players: Player[] = [];
    for (let i = 0; i < 6; i++) players.push(await kit.player('arena'));
    const rank = (id: string) => players.findIndex((p) => p.id === id);
    const created = await kit.create(players[0]!, { name: 'Half Hour', format: 'arena', matchFormat: null, arenaMinutes: 30 });
    expect(created).toMatchObject({ format: 'arena', arenaMinutes: 30, matchFormat: null });
    for (const p of players) await kit.join(created.id, p);
    const id = created.id;
    const start = new Date(created.startsAt).getTime();
    expect(new Date(created.endsAt!).getTime()).toBe(start + 30 * MINUTE);

    const view = () => kit.tournament(id, players[0]!);
    const pending = (t: TournamentDetail) => t.games.filter((g) => g.status === 'pending');
    /** Nobody is in two live games, and only the paused and the playing are not waiting. */
    const checkPairing = (t: TournamentDetail) => {
      const live = t.games.filter((g) => g.status === 'pending' || g.status === 'in_progress').flatMap((g) => g.players);
      expect(new Set(live).size).toBe(live.length);
    };

    await kit.runAt(id, start);
    let t = await view();
    expect(t.status).toBe('running');
    expect(pending(t)).toHaveLength(3);
    checkPairing(t);
    const leaver = players[5]!;
    let now = start;
    for (let step = 0; now < start + 30 * MINUTE; step++) {
      t = await view();
      checkPairing(t);
      const games = pending(t);
      if (step === 1) {
        // Leaving a running arena pauses: the game being played still counts, no new one comes.
        const left = await kit.api('POST', `/api/tournaments/${id}/leave`, { as: leaver });
        expect(left.body).toMatchObject({ message: TOURNAMENT.pausedArena, tournament: { me: { paused: true } } });
      }
      if (step === 3) {
        expect(t.games.filter((g) => g.players.includes(leaver.id) && g.status === 'pending')).toEqual([]);
        const back = await kit.api('POST', `/api/tournaments/${id}/resume`, { as: leaver });
        expect(back.body).toMatchObject({ message: TOURNAMENT.resumedArena, tournament: { me: { paused: false } } });
      }
      for (const [i, g] of games.entries()) {
        const winner = rank(g.players[0]) < rank(g.players[1]) ? g.players[0] : g.players[1];
        if (step === 2 && i === 0) {
          // A no-show: only the winner comes; past the ready deadline the absent player loses and is paused.
          const loser = g.players.find((p) => p !== winner)!;
          const ready = await kit.api('POST', `/api/matches/${g.matchId}/ready`, { as: players[rank(winner)]! });
          expect(ready.status, ready.raw).toBe(200);
          const deadline = Date.parse(ready.body.match.noShowDeadline!);
          expect(deadline - now).toBeLessThanOrEqual(30_000);
          expect(await kit.arena.noShow(g.matchId, deadline + 3_000, 2_000)).toBe(true);
          await kit.tournaments.run(id);
          const after = await view();
          expect(after.entrants.find((e) => e.id === loser)).toMatchObject({ paused: true });
          expect(after.games.find((x) => x.matchId === g.matchId)).toMatchObject({ status: 'completed', winnerId: winner });
          await kit.api('POST', `/api/tournaments/${id}/resume`, { as: players[rank(loser)]! });
          continue;
        }
        await kit.playGame(id, g.matchId, players, winner);
      }
      now += 5 * MINUTE;
      await kit.runAt(id, now);
    }

    // At the end no one is paired again; the games still being played count when they end.
    t = await view();
    const leftOver = t.games.filter((g) => g.status === 'pending');
    if (leftOver.length > 0) {
      expect(t.status).toBe('running');
      const gamesBefore = t.games.length;
      for (const g of leftOver)
        await kit.playGame(id, g.matchId, players, rank(g.players[0]) < rank(g.players[1]) ? g.players[0] : g.players[1]);
      t = await view();
      expect(t.games).toHaveLength(gamesBefore);
    }
    expect(t.status).toBe('finished');
    expect(t.games.length).toBeGreaterThanOrEqual(12);

    // The standings fold every game; the leader takes the whole pool (6 players: winner takes all). Who leads depends on
    // how often each was paired (a player may wait a round), so it is read from the standings, not assumed.
    const standings = t.standings!;
    for (const s of standings)
      expect(t.entrants.find((e) => e.id === s.id)).toMatchObject({ score: s.score, games: s.games, place: s.rank });
    const champion = standings[0]!;
    expect(champion.score).toBeGreaterThanOrEqual(standings[1]!.score);
    const championGames = t.games.filter((g) => g.players.includes(champion.id) && g.status === 'completed');
    expect(championGames.length).toBe(champion.games);
    expect(t.entrants.find((e) => e.id === champion.id)).toMatchObject({ place: 1, prize: 60 });
    for (const p of players) {
      const expected = p.id === champion.id ? 99_000 + 6_000 : 99_000;
      expect(await kit.money(p.id)).toEqual({ available: expected, escrow: 0 });
    }
    await expectAuditClean(kit.test.database.db, ['matches', 'tournaments']);
  });
});
