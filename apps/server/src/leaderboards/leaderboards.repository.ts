// The leaderboards' SQL: real accounts only (SPEC §6); equal ratings share a place, listed in id order
// so pages never overlap.
import type { GameId } from '@versus/domain/catalogue';
import { DEFAULTS } from '@versus/domain';
import type { Queryable } from '../db/database.ts';

export interface BoardRow {
  position: number;
  id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  level: number;
  rating: number;
  /** The lowest rating deviation of the player's games (the board's): provisional above 110. */
  rd: number;
  games: number;
  wins: number;
  losses: number;
  streak: number;
}

const PROFILE_COLUMNS = 'p.id, p.username, p.display_name, p.avatar_url, p.level, p.streak';

// --- Global: profiles.global_rating, kept by the ratings trigger (014) --------------------

const GLOBAL_ROW = `${PROFILE_COLUMNS}, p.global_rating AS rating, p.wins, p.losses,
  (SELECT min(r.rd) FROM ratings r WHERE r.user_id = p.id) AS rd,
  (SELECT coalesce(sum(r.games), 0)::int FROM ratings r WHERE r.user_id = p.id) AS games`;

/** The live global place of profile `p` (1 + the real accounts rated above it). */
const GLOBAL_PLACE = `(SELECT count(*)::int + 1 FROM profiles o
   WHERE o.account_type = 'real' AND o.global_rating > p.global_rating)`;

export async function globalPage(db: Queryable, limit: number, offset: number): Promise<BoardRow[]> {
  return db.query<BoardRow>(
    `SELECT b.position, ${GLOBAL_ROW}
       FROM (SELECT id, (rank() OVER (ORDER BY global_rating DESC))::int AS position
               FROM profiles
              WHERE account_type = 'real' AND global_rating IS NOT NULL
              ORDER BY global_rating DESC, id
              LIMIT $1 OFFSET $2) b
       JOIN profiles p ON p.id = b.id
      ORDER BY p.global_rating DESC, p.id`,
    [limit, offset],
  );
}

export async function globalTotal(db: Queryable): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM profiles WHERE account_type = 'real' AND global_rating IS NOT NULL`,
  );
  return row!.n;
}

/** The player's own global row, with its place; null when they are not on the board. */
export async function globalRowOf(db: Queryable, userId: string): Promise<BoardRow | null> {
  const [row] = await db.query<BoardRow>(
    `SELECT ${GLOBAL_PLACE} AS position, ${GLOBAL_ROW}
       FROM profiles p
      WHERE p.id = $1 AND p.account_type = 'real' AND p.global_rating IS NOT NULL`,
    [userId],
  );
  return row ?? null;
}

// --- One game: ratings ---------------------------------------------------------------------

const GAME_ROW = `${PROFILE_COLUMNS}, r.rating, r.rd, r.games, r.wins, r.losses`;

/** The live place of rating `r` on its game's board (1 + the real accounts rated above it). */
const GAME_PLACE = `(SELECT count(*)::int + 1 FROM ratings o JOIN profiles op ON op.id = o.user_id
   WHERE o.game = r.game AND op.account_type = 'real' AND o.rating > r.rating)`;

export async function gamePage(db: Queryable, game: GameId, limit: number, offset: number): Promise<BoardRow[]> {
  return db.query<BoardRow>(
    `SELECT (rank() OVER (ORDER BY r.rating DESC))::int AS position, ${GAME_ROW}
       FROM ratings r JOIN profiles p ON p.id = r.user_id
      WHERE r.game = $1 AND p.account_type = 'real'
      ORDER BY r.rating DESC, r.user_id
      LIMIT $2 OFFSET $3`,
    [game, limit, offset],
  );
}

export async function gameTotal(db: Queryable, game: GameId): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ratings r JOIN profiles p ON p.id = r.user_id WHERE r.game = $1 AND p.account_type = 'real'`,
    [game],
  );
  return row!.n;
}

export async function gameRowOf(db: Queryable, game: GameId, userId: string): Promise<BoardRow | null> {
  const [row] = await db.query<BoardRow>(
    `SELECT ${GAME_PLACE} AS position, ${GAME_ROW}
       FROM ratings r JOIN profiles p ON p.id = r.user_id
      WHERE r.game = $1 AND r.user_id = $2 AND p.account_type = 'real'`,
    [game, userId],
  );
  return row ?? null;
}

// --- A player's ratings, with their place on each game's board ------------------------------

export interface RatingRow {
  game: GameId;
  rating: number;
  rd: number;
  games: number;
  wins: number;
  losses: number;
  draws: number;
  /** Null for a virtual account (not on the boards). */
  position: number | null;
}

export async function ratingsOf(db: Queryable, userId: string): Promise<RatingRow[]> {
  return db.query<RatingRow>(
    `SELECT r.game, r.rating, r.rd, r.games, r.wins, r.losses, r.draws,
            CASE WHEN p.account_type = 'real' THEN ${GAME_PLACE} END AS position
       FROM ratings r JOIN profiles p ON p.id = r.user_id
      WHERE r.user_id = $1
      ORDER BY r.games DESC, r.game`,
    [userId],
  );
}

export interface RecordRow {
  account_type: 'real' | 'virtual';
  level: number;
  wins: number;
  losses: number;
  streak: number;
  global_rating: number | null;
  /** Live place on the global board; null when not on it. */
  position: number | null;
}

export async function recordOf(db: Queryable, userId: string): Promise<RecordRow | null> {
  const [row] = await db.query<RecordRow>(
    `SELECT p.account_type, p.level, p.wins, p.losses, p.streak, p.global_rating,
            CASE WHEN p.account_type = 'real' AND p.global_rating IS NOT NULL THEN ${GLOBAL_PLACE} END AS position
       FROM profiles p WHERE p.id = $1`,
    [userId],
  );
  return row ?? null;
}

export async function accountTypeOf(db: Queryable, userId: string): Promise<'real' | 'virtual' | null> {
  const [row] = await db.query<{ account_type: 'real' | 'virtual' }>('SELECT account_type FROM profiles WHERE id = $1', [userId]);
  return row?.account_type ?? null;
}

// --- The stored places (SPEC §3 rank / global_rank) ------------------------------------------

/** Only rows whose place moved; those a finishing match holds are skipped, so it never deadlocks with one (a later run writes them). */
export async function recomputeRanks(db: Queryable): Promise<{ wanted: number; written: number }> {
  const [row] = await db.query<{ wanted: number; written: number }>(
    `WITH ranked AS (
       SELECT id, (rank() OVER (ORDER BY global_rating DESC))::int AS pos
         FROM profiles WHERE account_type = 'real' AND global_rating IS NOT NULL
     ), target AS (
       SELECT p.id, coalesce(r.pos, $1::int) AS pos
         FROM profiles p LEFT JOIN ranked r ON r.id = p.id
        WHERE p.global_rank <> coalesce(r.pos, $1::int) OR p.rank <> coalesce(r.pos, $1::int)
     ), locked AS (
       SELECT p.id, t.pos FROM profiles p JOIN target t ON t.id = p.id ORDER BY p.id FOR UPDATE OF p SKIP LOCKED
     ), written AS (
       UPDATE profiles p SET rank = l.pos, global_rank = l.pos FROM locked l WHERE p.id = l.id RETURNING p.id
     )
     SELECT (SELECT count(*)::int FROM target) AS wanted, (SELECT count(*)::int FROM written) AS written`,
    [DEFAULTS.rank],
  );
  return row!;
}

/** What places depend on, so the ranks job can skip; not a timestamp, as a late commit carries an older now(). */
export async function placesFingerprint(db: Queryable): Promise<string> {
  const [row] = await db.query<{ games: string | null; profiles: number; virtual: string | null }>(
    `SELECT (SELECT sum(games)::text FROM ratings) AS games,
            count(*)::int AS profiles,
            sum(hashtext(id::text)::bigint) FILTER (WHERE account_type = 'virtual')::text AS virtual
       FROM profiles`,
  );
  return `${row!.games}/${row!.profiles}/${row!.virtual}`;
}
