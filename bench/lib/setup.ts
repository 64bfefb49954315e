// What every bench does before it measures: a fresh database of its own, migrated; players in
// it; their access tokens; and a helper to do many things a few at a time.
import crypto from 'node:crypto';
import { openPostgres, type Database } from '../../apps/server/src/db/database.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { signAccessToken } from '../../apps/server/src/auth/tokens.ts';
import { admin, urlFor } from './postgres.ts';
import { SecretCache } from '../../apps/server/src/db/secrets.ts';
import { recomputeRanks } from '../../apps/server/src/leaderboards/leaderboards.repository.ts';

/**
 * Drops and creates `name` (with `settings`, as ALTER DATABASE … SET, for every session), migrates
 * it and opens a pool of `max` connections to it.
 */
export async function freshDatabase(name: string, max: number, settings: Record<string, string> = {}): Promise<Database> {
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  for (const [setting, value] of Object.entries(settings)) await admin(`ALTER DATABASE ${name} SET ${setting} = ${value}`);
  const db = openPostgres(urlFor(name), { max });
  await migrate(db);
  return db;
}

/**
 * Users with these ids and age-verified profiles named `${prefix}_${n}` (n from 1); `profile`
 * sets or adds profile columns, as `{column: sql expression over n}`.
 */
export async function insertPlayers(
  db: Database,
  ids: readonly string[],
  prefix: string,
  profile: Record<string, string> = {},
): Promise<void> {
  await db.query(
    `INSERT INTO users (id, email, password_hash) SELECT id, '${prefix}_' || n || '@versus.test', 'x' FROM unnest($1::uuid[]) WITH ORDINALITY AS t (id, n)`,
    [ids],
  );
  const columns: Record<string, string> = {
    username: `'${prefix}_' || n`,
    display_name: `'${prefix}_' || n`,
    full_name: `'Bench Player'`,
    phone: `'+1 555 010 0100'`,
    date_of_birth: `'1990-01-01'`,
    age_verified: 'true',
    ...profile,
  };
  await db.query(
    `INSERT INTO profiles (id, ${Object.keys(columns).join(', ')})
     SELECT id, ${Object.values(columns).join(', ')} FROM unnest($1::uuid[]) WITH ORDINALITY AS t (id, n)`,
    [ids],
  );
}

/** An access token for each of these (real, role user) players. */
export function accessTokens(db: Database, ids: readonly string[]): Promise<string[]> {
  const ctx = { db, secrets: new SecretCache(db) };
  return Promise.all(
    ids.map(
      async (userId) =>
        (await signAccessToken(ctx, { userId, role: 'user', accountType: 'real', sessionId: crypto.randomUUID() })).access_token,
    ),
  );
}

/** `work` on every item, at most `limit` at once. */
export async function inParallel<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i]!, i);
      }
    }),
  );
}

/**
 * `players` signed-up players who do not play in the run, and `matches` completed web matches of `game` between them (the
 * winner's notification of each, a rating row each, their places), as a product in use has: with only the players a run
 * needs, `users` is a few pages, and with the history tables empty the server's connections plan their key checks, record
 * locks and archive scans as sequential scans and keep those plans all run (bench/lifecycle, History). Before the server
 * starts; VACUUM ANALYZE after.
 */
export async function insertBystanders(db: Database, players: number, game: string, matches: number): Promise<void> {
  const ids = Array.from({ length: players }, () => crypto.randomUUID());
  if (players > 0) await insertPlayers(db, ids, 'dormant');
  await insertHistory(db, ids, game, matches);
}

async function insertHistory(db: Database, players: readonly string[], game: string, matches: number): Promise<void> {
  if (players.length < 2 || matches <= 0) return;
  // Each with its winner's notice, long since archived: a player's notifications are read by index too.
  await db.query(
    `WITH m AS (
       INSERT INTO matches (player1_id, player2_id, winner_id, game_type, platform, stake, bet_amount, currency, status,
         version, started_at, completed_at, end_reason, result, created_at, updated_at)
       SELECT p1, p2, p1, $3, 'web', 100, 100, 'credits', 'completed', 9, at, at + interval '2 minutes', 'games-won', '{}'::jsonb, at, at
         FROM (SELECT $1::uuid[] AS ids) AS a,
              generate_series(0, $2 - 1) AS g (n),
              LATERAL (SELECT ids[1 + n % cardinality(ids)] AS p1, ids[1 + (n + 1 + n / cardinality(ids)) % cardinality(ids)] AS p2,
                              now() - make_interval(mins => n) AS at) AS m
        WHERE p1 <> p2
       RETURNING id, winner_id, completed_at
     )
     INSERT INTO notifications (id, user_id, type, title, message, category, priority, status, created_at, archived_at, match_id)
     SELECT gen_random_uuid(), winner_id, 'match_completed', 'Match completed', 'You won.', 'match', 'normal', 'archived',
            completed_at, completed_at, id
       FROM m`,
    [players, matches, game],
  );
  await db.query(
    `INSERT INTO ratings (user_id, game, rating, rd, volatility, games, wins, losses)
     SELECT id, $2, 1400 + (hashtext(id::text) % 300), 80, 0.06, 20, 10, 10 FROM unnest($1::uuid[]) AS t (id)`,
    [players, game],
  );
  await recomputeRanks(db);
}
