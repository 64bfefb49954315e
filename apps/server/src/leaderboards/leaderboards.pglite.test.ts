// The embedded database runs the same leaderboard SQL: the ratings trigger, the boards with
// shared places, my row, and the ranks recompute (with its SKIP LOCKED).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { openMigratedPglite } from '../test/pglite-app.ts';
import * as repo from './leaderboards.repository.ts';

describe('leaderboards on PGlite', () => {
  let db: Database;
  const ids: string[] = [];
  beforeAll(async () => {
    db = await openMigratedPglite();
    for (let i = 0; i < 4; i++) {
      const [row] = await db.query<{ id: string }>(`INSERT INTO users (email, password_hash) VALUES ($1, 'x') RETURNING id`, [
        `p${i}@x.io`,
      ]);
      ids.push(row!.id);
      await db.query(
        `INSERT INTO profiles (id, username, display_name, full_name, phone, date_of_birth, age_verified)
         VALUES ($1, $2, $2, 'F', '+1555', '1990-01-01', true)`,
        [row!.id, `player${i}`],
      );
    }
    const rate = (id: string, game: string, rating: number, games: number) =>
      db.query(`INSERT INTO ratings (user_id, game, rating, rd, volatility, games) VALUES ($1, $2, $3, 80, 0.06, $4)`, [
        id,
        game,
        rating,
        games,
      ]);
    await rate(ids[0]!, 'chess', 1600, 1);
    await rate(ids[0]!, 'ludo', 1400, 3);
    await rate(ids[1]!, 'chess', 1700, 2);
    await rate(ids[2]!, 'chess', 1700, 2);
  }, 60_000);
  afterAll(() => db.close());

  it('keeps the global rating, lists boards with shared places and recomputes the stored places', async () => {
    expect(
      (await db.query<{ global_rating: number }>('SELECT global_rating FROM profiles WHERE id = $1', [ids[0]]))[0]!.global_rating,
    ).toBe(1450);
    const chess = await repo.gamePage(db, 'chess', 10, 0);
    expect(chess.map((r) => r.position)).toEqual([1, 1, 3]);
    expect(await repo.gameTotal(db, 'chess')).toBe(3);
    expect((await repo.gameRowOf(db, 'chess', ids[0]!))?.position).toBe(3);
    const global = await repo.globalPage(db, 2, 0);
    expect(global.map((r) => [r.position, r.games])).toEqual([
      [1, 2],
      [1, 2],
    ]);
    expect(await repo.globalRowOf(db, ids[0]!)).toMatchObject({ position: 3, games: 4, rd: 80 });
    expect(await repo.globalRowOf(db, ids[3]!)).toBeNull();
    expect(await repo.recomputeRanks(db)).toEqual({ wanted: 3, written: 3 });
    expect(await repo.recomputeRanks(db)).toEqual({ wanted: 0, written: 0 });
    const places = await db.query<{ id: string; rank: number }>('SELECT id, rank FROM profiles ORDER BY rank');
    expect(places.find((p) => p.id === ids[3])!.rank).toBe(5000);
    expect(typeof (await repo.placesFingerprint(db))).toBe('string');
  });
});
