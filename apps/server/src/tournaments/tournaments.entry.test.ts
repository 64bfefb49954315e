// Creating, listing, entering and leaving tournaments through the API: who may do what, the domain's refusals with their texts,
// stakes locked on entry and returned on leaving, and a tournament short of players cancelled at its start, every stake returned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEDGER, TOURNAMENT } from '@versus/domain';
import type { ApiErrorBody } from '@versus/domain/errors';
import type { TournamentListResponse } from '@versus/domain/tournaments';
import { expectAuditClean } from '../test/ledger-checks.ts';
import { ledgerSnapshot } from '../ledger/ledger.fixtures.ts';
import type { Player } from '../arena/arena.test-kit.ts';
import { createTournamentKit, defaults, type TournamentKit } from './tournaments.test-kit.ts';

let kit: TournamentKit;
let alice: Player;
let bob: Player;
beforeAll(async () => {
  kit = await createTournamentKit();
  alice = await kit.player('alice');
  bob = await kit.player('bob');
});
afterAll(() => kit.close());

const db = () => kit.test.database.db;
const post = (url: string, as?: Player, body?: unknown) => kit.api('POST', url, { ...(as ? { as } : {}), ...(body ? { body } : {}) });

describe('who may ask', () => {
  it('refuses every endpoint signed out (401), and answers 404 for an unknown or malformed id', async () => {
    const t = await kit.create(alice);
    const anonymous = [
      await kit.api('GET', '/api/tournaments'),
      await kit.api('GET', `/api/tournaments/${t.id}`),
      await post('/api/tournaments', undefined, defaults()),
      await post(`/api/tournaments/${t.id}/join`),
      await post(`/api/tournaments/${t.id}/leave`),
      await post(`/api/tournaments/${t.id}/resume`),
    ];
    expect(anonymous.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 401]);
    expect((await kit.tournament(t.id, alice)).players).toBe(0);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-tournament']) {
      const replies = [
        await kit.api('GET', `/api/tournaments/${id}`, { as: alice }),
        await post(`/api/tournaments/${id}/join`, alice),
        await post(`/api/tournaments/${id}/leave`, alice),
        await post(`/api/tournaments/${id}/resume`, alice),
      ];
      for (const r of replies) expect(r.body).toMatchObject({ error: { code: 'not_found', message: TOURNAMENT.notFound } });
    }
  });

  it("cannot touch another player's place: leaving or resuming one not entered is refused, theirs unchanged", async () => {
    const t = await kit.create(alice);
    await kit.join(t.id, alice);
    const before = await ledgerSnapshot(db());
    const leave = await post(`/api/tournaments/${t.id}/leave`, bob);
    expect(leave).toMatchObject({ status: 409, body: { error: { code: 'not_entered', message: TOURNAMENT.notEntered } } });
    const resume = await post(`/api/tournaments/${t.id}/resume`, bob);
    expect(resume.status).toBe(409);
    expect(await ledgerSnapshot(db())).toBe(before);
    const seen = await kit.tournament(t.id, bob);
    expect(seen).toMatchObject({ players: 1, entered: false, me: null });
    expect(seen.entrants.map((e) => e.id)).toEqual([alice.id]);
  });
});

describe('creating', () => {
  it('refuses with the catalogue text and the field, changing nothing', async () => {
    const cases: [object, string, string][] = [
      [{ name: 'ab' }, 'name', TOURNAMENT.nameLength(3, 80)],
      [{ game: 'fortnite' }, 'game', TOURNAMENT.chooseGame],
      [{ entry: { kind: 'stake', stake: 5000 } }, 'entry', TOURNAMENT.invalidStake],
      [{ entry: { kind: 'sponsored', prize: 100 } }, 'entry', TOURNAMENT.sponsorsOnly],
      [{ currency: 'pcredits' }, 'currency', TOURNAMENT.ownCurrencyOnly('credits')],
      [{ minPlayers: 2 }, 'minPlayers', TOURNAMENT.playersInvalid(4, 64)],
      [{ minPlayers: 10, maxPlayers: 8 }, 'minPlayers', TOURNAMENT.minAboveMax],
      [{ maxPlayers: 128 }, 'maxPlayers', TOURNAMENT.playersInvalid(4, 64)],
      [{ format: 'arena', matchFormat: null, arenaMinutes: 30, maxPlayers: 257 }, 'maxPlayers', TOURNAMENT.playersInvalid(4, 256)],
      [{ format: 'arena' }, 'matchFormat', TOURNAMENT.matchFormatKnockoutOnly],
      [{ format: 'arena', matchFormat: null, arenaMinutes: 90 }, 'arenaMinutes', TOURNAMENT.arenaDurationInvalid(20, 60)],
      [{ startsAt: new Date(Date.now() + 60_000).toISOString() }, 'startsAt', TOURNAMENT.startTooSoon(5)],
    ];
    const before = await db().query('SELECT count(*)::int AS n FROM tournaments');
    for (const [change, field, message] of cases) {
      const reply = await post('/api/tournaments', alice, { ...defaults(), ...change });
      expect(reply.status, JSON.stringify(change)).toBe(400);
      expect(reply.body.error, JSON.stringify(change)).toMatchObject({ field, message });
    }
    expect(await db().query('SELECT count(*)::int AS n FROM tournaments')).toEqual(before);
  });

  it('takes an arena of 256 players, its field stored as asked', async () => {
    const arena = await kit.create(alice, { name: 'Big Arena', format: 'arena', matchFormat: null, arenaMinutes: 30, maxPlayers: 256 });
    expect(arena).toMatchObject({ format: 'arena', maxPlayers: 256 });
  });

  it('lists upcoming, live and finished, by game and entry, saying which I entered', async () => {
    const chess = await kit.create(bob, { name: 'Chess Cup', game: 'chess', matchMinutes: 25 });
    await kit.join(chess.id, alice);
    const list = async (query: string) => {
      const reply = await kit.api<TournamentListResponse & ApiErrorBody>('GET', `/api/tournaments${query}`, { as: alice });
      expect(reply.status, reply.raw).toBe(200);
      return reply.body.tournaments;
    };
    const byGame = await list('?status=upcoming&game=chess');
    expect(byGame.map((t) => t.id)).toEqual([chess.id]);
    expect(byGame[0]).toMatchObject({ entered: true, players: 1, prizePool: { amount: 10 }, prizeSplit: TOURNAMENT_SPLIT_ONE });
    expect(await list('?status=live')).toEqual([]);
    expect(await list('?game=chess&entry=sponsored')).toEqual([]);
    expect((await list('?entry=stake')).length).toBeGreaterThan(1);
    expect((await kit.api('GET', '/api/tournaments?status=soon', { as: alice })).status).toBe(400);
  });
});

const TOURNAMENT_SPLIT_ONE = 'Winner takes all';

describe('entering and leaving before the start', () => {
  it('locks the stake on entry, returns it on leaving, and a second entry locks a new one', async () => {
    const t = await kit.create(alice);
    const carol = await kit.player('carol');
    const joined = await kit.join(t.id, carol);
    expect(joined.message).toBe(TOURNAMENT.entered('$10.00'));
    expect(joined.tournament.me).toMatchObject({ id: carol.id, rating: 1500, place: null });
    expect(await kit.money(carol.id)).toEqual({ available: 99_000, escrow: 1_000 });
    const again = await post(`/api/tournaments/${t.id}/join`, carol);
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'already_entered', message: TOURNAMENT.alreadyEntered } } });

    const left = await post(`/api/tournaments/${t.id}/leave`, carol);
    expect(left.status, left.raw).toBe(200);
    expect(left.body).toMatchObject({ message: TOURNAMENT.leftRefunded('$10.00'), tournament: { players: 0, entered: false } });
    expect(await kit.money(carol.id)).toEqual({ available: 100_000, escrow: 0 });
    await kit.join(t.id, carol);
    expect(await kit.money(carol.id)).toEqual({ available: 99_000, escrow: 1_000 });
    await expectAuditClean(db(), ['tournaments']);
  });

  it('refuses a stake the player cannot cover, changing nothing', async () => {
    const dave = await kit.player('dave');
    const big = await kit.create(alice, { entry: { kind: 'stake', stake: 600 } });
    const bigger = await kit.create(alice, { entry: { kind: 'stake', stake: 600 } });
    await kit.join(big.id, dave);
    const before = await ledgerSnapshot(db());
    const short = await post(`/api/tournaments/${bigger.id}/join`, dave);
    expect(short.status).toBe(409);
    expect(short.body.error.code).toBe('insufficient_funds');
    expect(await ledgerSnapshot(db())).toBe(before);
    expect((await kit.tournament(bigger.id, dave)).players).toBe(0);
  });

  it('keeps virtual accounts out of real tournaments, and VToken tournaments for virtual accounts only', async () => {
    const vic = await kit.player('vic');
    await kit.goVirtual(vic);
    const real = await kit.create(alice);
    const refused = await post(`/api/tournaments/${real.id}/join`, vic);
    expect(refused).toMatchObject({
      status: 403,
      body: { error: { code: 'virtual_restricted', message: LEDGER.virtualRestricted.tournament } },
    });
    // A virtual account runs VToken tournaments only, and only virtual accounts enter them.
    const wrong = await post('/api/tournaments', vic, defaults());
    expect(wrong.body.error).toMatchObject({ field: 'currency', message: TOURNAMENT.virtualVTokensOnly });
    const vtokens = await kit.create(vic, { currency: 'vtokens' });
    const realIn = await post(`/api/tournaments/${vtokens.id}/join`, bob);
    expect(realIn).toMatchObject({ status: 403, body: { error: { code: 'virtual_only', message: TOURNAMENT.vtokensVirtualOnly } } });
    await kit.join(vtokens.id, vic);
    expect(await kit.money(vic.id, 'vtokens')).toEqual({ available: 49_000, escrow: 1_000 });
  });
});

describe('the start', () => {
  it('cancels a tournament short of its minimum at the start and returns every stake', async () => {
    const t = await kit.create(alice, { name: 'Too Few' });
    const players = [await kit.player('few'), await kit.player('few'), await kit.player('few')];
    for (const p of players) await kit.join(t.id, p);
    await kit.runAt(t.id, new Date(t.startsAt).getTime() - 4 * 60_000);
    expect(await kit.notifications(players[0]!.id, 'tournament_starting_soon')).toEqual([
      expect.objectContaining({ message: 'Too Few starts in 4 minutes.' }),
    ]);
    await kit.runAt(t.id, t.startsAt);
    const cancelled = await kit.tournament(t.id, players[0]!);
    expect(cancelled).toMatchObject({ status: 'cancelled', games: [], bracket: null });
    expect(cancelled.cancelledAt).not.toBeNull();
    for (const p of players) {
      expect(await kit.money(p.id)).toEqual({ available: 100_000, escrow: 0 });
      expect(await kit.notifications(p.id, 'tournament_cancelled')).toEqual([
        expect.objectContaining({ message: 'Too Few was cancelled: fewer than 4 players entered. Your $10.00 was returned.' }),
      ]);
    }
    const late = await post(`/api/tournaments/${t.id}/join`, bob);
    expect(late).toMatchObject({ status: 409, body: { error: { code: 'entry_closed', message: TOURNAMENT.entryClosed } } });
    const leave = await post(`/api/tournaments/${t.id}/leave`, players[0]);
    expect(leave.body.error.message).toBe(TOURNAMENT.nothingToLeave);
    await expectAuditClean(db(), ['tournaments']);
  });
});
