// Leaderboards on real PostgreSQL: order, ties, pages, my row, the ranks job; virtual accounts refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, DEFAULTS } from '@versus/domain';
import { PROFILE } from '@versus/domain/messages';
import type { Leaderboard } from '@versus/domain/profile';
import { createKit, type Kit, type Player } from '../arena/arena.test-kit.ts';
import * as service from './leaderboards.service.ts';

let kit: Kit;

beforeAll(async () => {
  kit = await createKit();
});

afterAll(async () => {
  await kit?.close();
});

const db = () => kit.test.database.db;

async function board(
  as: Player | null,
  query = '',
): Promise<{ status: number; body: Leaderboard & { error?: { code: string; message: string; field?: string } } }> {
  const res = await kit.app.inject({ method: 'GET', url: `/api/leaderboards${query}`, headers: as?.headers ?? {} });
  return { status: res.statusCode, body: res.json() };
}

const stored = async (id: string) =>
  (
    await db().query<{ rank: number; global_rank: number; global_rating: number | null }>(
      'SELECT rank, global_rank, global_rating FROM profiles WHERE id = $1',
      [id],
    )
  )[0]!;

/** Sets a player's rating in a game as finishMatch would leave it (the trigger keeps the global one). */
async function rate(id: string, game: string, rating: number, games = 10, rd = 60) {
  await db().query(
    `INSERT INTO ratings (user_id, game, rating, rd, volatility, games, wins, losses, draws)
     VALUES ($1, $2, $3, $4, 0.06, $5, $5 / 2, $5 - $5 / 2, 0)
     ON CONFLICT (user_id, game) DO UPDATE SET rating = EXCLUDED.rating, rd = EXCLUDED.rd, games = EXCLUDED.games`,
    [id, game, rating, rd, games],
  );
}

describe('leaderboards', () => {
  it('shows the winner of a match above the loser, globally and for the game, and the ranks job stores the places', async () => {
    // Alone on this database's boards: the other tests put their players far below (ratings < 1400).
    const alice = await kit.player('alice');
    const bob = await kit.player('bob');
    expect((await board(alice)).body.me).toBeNull();

    const id = await kit.match('tic-tac-toe', alice, bob);
    await kit.start(id, alice, bob);
    const resigned = await kit.api('POST', `/api/matches/${id}/resign`, { as: bob, body: {} });
    expect(resigned.status, resigned.raw).toBe(200);

    for (const game of ['global', 'tic-tac-toe']) {
      const r = await board(bob, `?game=${game}`);
      expect(r.status).toBe(200);
      const [first, second] = r.body.entries;
      expect(first).toMatchObject({ position: 1, userId: alice.id, wins: 1, losses: 0, streak: 1, games: 1, provisional: true });
      expect(second).toMatchObject({ position: 2, userId: bob.id, wins: 0, losses: 1, streak: 0, games: 1 });
      expect(first!.rating).toBeGreaterThan(1500);
      expect(second!.rating).toBeLessThan(1500);
      expect(r.body.me).toEqual(second);
    }
    expect((await board(alice, '?game=chess')).body).toMatchObject({ total: 0, entries: [], me: null, title: 'Chess' });

    // The stored places follow at the job's next run.
    expect((await stored(alice.id)).global_rank).toBe(DEFAULTS.rank);
    expect(await service.recomputeRanks({ db: db() })).toMatchObject({ wanted: 2, written: 2 });
    expect(await stored(alice.id)).toMatchObject({ rank: 1, global_rank: 1 });
    expect(await stored(bob.id)).toMatchObject({ rank: 2, global_rank: 2 });
    const me = await kit.app.inject({ method: 'GET', url: '/api/auth/user', headers: alice.headers });
    expect(me.json().user.rank).toBe(1);
    const profile = await kit.app.inject({ method: 'GET', url: '/api/profile', headers: alice.headers });
    expect(profile.json().stats).toMatchObject({
      rank: 1,
      wins: 1,
      streak: 1,
      ratings: [{ game: 'tic-tac-toe', position: 1, wins: 1, games: 1 }],
    });
  });

  it('orders by rating, shares places on equal ratings, pages without overlap and pins my row', async () => {
    const players: Player[] = [];
    for (let i = 0; i < 23; i++) players.push(await kit.player('page'));
    // Ratings 1300, 1290, ... with players 5 and 6 equal.
    for (const [i, p] of players.entries()) await rate(p.id, 'checkers', i === 6 ? 1300 - 5 * 10 : 1300 - i * 10);
    const me = players[20]!;

    const seen: string[] = [];
    const pages: Leaderboard[] = [];
    for (let page = 1; page <= 3; page++) {
      const r = await board(me, `?game=checkers&page=${page}&pageSize=10`);
      expect(r.status).toBe(200);
      pages.push(r.body);
      seen.push(...r.body.entries.map((e) => e.userId));
    }
    expect(pages.map((p) => p.entries.length)).toEqual([10, 10, 3]);
    expect(pages.every((p) => p.total === 23 && p.pageSize === 10)).toBe(true);
    expect(new Set(seen).size).toBe(23);
    const all = pages.flatMap((p) => p.entries);
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.rating).toBeGreaterThanOrEqual(all[i]!.rating);
    expect(all.map((e) => e.position).slice(0, 8)).toEqual([1, 2, 3, 4, 5, 6, 6, 8]);
    // My own row, wherever the page is.
    expect(pages[0]!.me).toMatchObject({ userId: me.id, position: 21, rating: 1100 });
    expect(all[20]).toEqual(pages[0]!.me);
    // Past the end: an empty page, still with my row.
    const beyond = await board(me, '?game=checkers&page=9&pageSize=10');
    expect(beyond.body.entries).toEqual([]);
    expect(beyond.body.me?.position).toBe(21);

    // Global: the games-weighted mean of a player's ratings.
    const mixed = players[22]!;
    await rate(mixed.id, 'chess', 1000, 30);
    expect((await stored(mixed.id)).global_rating).toBeCloseTo((1080 * 10 + 1000 * 30) / 40, 6);
    const global = await board(mixed, '?pageSize=50');
    expect(global.body.me).toMatchObject({ userId: mixed.id, rating: 1020, games: 40 });
    const positions = global.body.entries.map((e) => e.rating);
    expect([...positions].sort((a, b) => b - a)).toEqual(positions);
  });

  it('holds real accounts only: a virtual account is not listed and is refused; anonymous is 401; bad queries are 400', async () => {
    const real = await kit.player('realone');
    const virt = await kit.player('virtone');
    await rate(real.id, 'ludo', 1250);
    await rate(virt.id, 'ludo', 1260);
    const before = await board(real, '?game=ludo');
    expect(before.body.entries.map((e) => e.userId)).toEqual([virt.id, real.id]);

    const switched = await kit.app.inject({
      method: 'PATCH',
      url: '/api/auth/user',
      headers: virt.headers,
      payload: { account_type: 'virtual' },
    });
    expect(switched.statusCode).toBe(200);
    const after = await board(real, '?game=ludo');
    expect(after.body.entries.map((e) => e.userId)).toEqual([real.id]);
    expect(after.body.me?.position).toBe(1);
    expect((await board(real)).body.entries.some((e) => e.userId === virt.id)).toBe(false);

    const refused = await board(virt);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({ code: 'virtual_account', message: PROFILE.leaderboardsVirtual });
    // A stale real-mode token changes nothing: the account type is read from the database.
    expect((await board(virt, '?game=ludo')).status).toBe(403);
    const profile = await kit.app.inject({
      method: 'GET',
      url: '/api/profile',
      headers: { authorization: `Bearer ${switched.json().session.access_token}` },
    });
    expect(profile.json().stats).toMatchObject({ rank: null, ratings: [{ game: 'ludo', position: null }] });

    // The ranks job puts the virtual account back to the unranked default, and runs again only
    // after something places depend on changed.
    const job = service.ranksJob({ db: db() });
    await job();
    expect((await stored(virt.id)).global_rank).toBe(DEFAULTS.rank);
    const place = (await stored(real.id)).global_rank;
    expect(place).toBeLessThan(DEFAULTS.rank);
    await db().query('UPDATE profiles SET global_rank = 1 WHERE id = $1', [real.id]);
    await job();
    expect((await stored(real.id)).global_rank).toBe(1);
    const back = await kit.app.inject({ method: 'PATCH', url: '/api/auth/user', headers: virt.headers, payload: { account_type: 'real' } });
    expect(back.statusCode).toBe(200);
    await job();
    expect((await stored(real.id)).global_rank).toBe(place + 1);
    expect((await stored(virt.id)).global_rank).toBeLessThanOrEqual(place);

    const anonymous = await board(null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error?.message).toBe(AUTH.signInRequired);
    expect((await board(null, '?game=nope')).status).toBe(401);
    for (const [query, message] of [
      ['?game=nope', PROFILE.unknownBoard],
      ['?page=0', PROFILE.badPage],
      ['?page=1.5', PROFILE.badPage],
      ['?pageSize=51', PROFILE.badPageSize],
      ['?pageSize=abc', PROFILE.badPageSize],
    ] as const) {
      const r = await board(real, query);
      expect(r.status, query).toBe(400);
      expect(r.body.error?.message, query).toContain(message);
    }
  });
});
