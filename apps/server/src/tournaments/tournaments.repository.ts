// The only place with the tournaments' SQL: tournaments, their entries, their games (each a
// match of the arena) and what the runs and the views read.
import type { Currency } from '@versus/domain';
import type {
  KnockoutBracket,
  KnockoutMatchFormat,
  TournamentFormat,
  TournamentGame,
  TournamentListQuery,
  TournamentStatus,
} from '@versus/domain/tournaments';
import type { DecidedOutcome, Seat } from '@versus/domain/games/index';
import type { Queryable } from '../db/database.ts';

/** Why a tournament was cancelled: too few players at the start, or cancelled by an admin or (before the start) its creator. */
export type CancelReason = 'too_few' | 'admin' | 'creator';

export interface TournamentRow {
  id: string;
  creator_id: string;
  name: string;
  game: TournamentGame;
  format: TournamentFormat;
  currency: Currency;
  entry_stake: number;
  sponsored_prize: number;
  sponsor_currency: Currency | null;
  min_players: number;
  max_players: number;
  starts_at: Date;
  match_minutes: number;
  match_format: KnockoutMatchFormat | null;
  arena_minutes: number | null;
  ends_at: Date | null;
  status: TournamentStatus;
  bracket: KnockoutBracket | null;
  prize_pool: number | null;
  starting_soon_sent_at: Date | null;
  started_at: Date | null;
  finished_at: Date | null;
  cancelled_at: Date | null;
  cancel_reason: CancelReason | null;
  created_at: Date;
  /** Entries now (list and views). */
  players: number;
}

const TOURNAMENT = `t.*, (SELECT count(*)::int FROM tournament_entries e WHERE e.tournament_id = t.id) AS players`;

export type NewTournamentRow = Pick<
  TournamentRow,
  | 'id'
  | 'creator_id'
  | 'name'
  | 'game'
  | 'format'
  | 'currency'
  | 'entry_stake'
  | 'sponsored_prize'
  | 'sponsor_currency'
  | 'min_players'
  | 'max_players'
  | 'starts_at'
  | 'match_minutes'
  | 'match_format'
  | 'arena_minutes'
  | 'ends_at'
>;

/** `idempotency`: the creation's Idempotency-Key and its request's hash, kept for replays. */
export async function insertTournament(
  tx: Queryable,
  t: NewTournamentRow,
  now: Date,
  idempotency: { key: string; hash: string } | null = null,
): Promise<void> {
  await tx.query(
    `INSERT INTO tournaments (id, creator_id, name, game, format, currency, entry_stake, sponsored_prize, sponsor_currency,
       min_players, max_players, starts_at, match_minutes, match_format, arena_minutes, ends_at, created_at, updated_at,
       idempotency_key, request_hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17, $18, $19)`,
    [
      t.id,
      t.creator_id,
      t.name,
      t.game,
      t.format,
      t.currency,
      t.entry_stake,
      t.sponsored_prize,
      t.sponsor_currency,
      t.min_players,
      t.max_players,
      t.starts_at,
      t.match_minutes,
      t.match_format,
      t.arena_minutes,
      t.ends_at,
      now,
      idempotency?.key ?? null,
      idempotency?.hash ?? null,
    ],
  );
}

/** The tournament this creator made under this Idempotency-Key, with its request's hash; the key locked until the transaction ends. */
export async function lockCreationKey(tx: Queryable, creatorId: string, key: string): Promise<{ id: string; request_hash: string } | null> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 4))`, [`tournament-create:${creatorId}:${key}`]);
  const [row] = await tx.query<{ id: string; request_hash: string }>(
    'SELECT id, request_hash FROM tournaments WHERE creator_id = $1 AND idempotency_key = $2',
    [creatorId, key],
  );
  return row ?? null;
}

export async function findTournament(db: Queryable, id: string): Promise<TournamentRow | null> {
  const [row] = await db.query<TournamentRow>(`SELECT ${TOURNAMENT} FROM tournaments t WHERE t.id = $1`, [id]);
  return row ?? null;
}

/** The row lock every change of a tournament takes first, without the entries' count (a run counts the entries it reads). */
export async function lockTournamentRow(tx: Queryable, id: string): Promise<Omit<TournamentRow, 'players'> | null> {
  const [row] = await tx.query<Omit<TournamentRow, 'players'>>('SELECT * FROM tournaments WHERE id = $1 FOR UPDATE', [id]);
  return row ?? null;
}

/** The row lock every change of a tournament takes first; entries are counted after it is held, not as they were before the wait. */
export async function lockTournament(tx: Queryable, id: string): Promise<TournamentRow | null> {
  const row = await lockTournamentRow(tx, id);
  if (!row) return null;
  // Counted after the lock, in a statement of its own: its snapshot sees every entry committed before the lock was ours.
  const [count] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM tournament_entries WHERE tournament_id = $1', [id]);
  return { ...row, players: count?.n ?? 0 };
}

const TAB_STATUSES: Record<NonNullable<TournamentListQuery['status']>, TournamentStatus[]> = {
  upcoming: ['scheduled'],
  live: ['running'],
  finished: ['finished', 'cancelled'],
};

/** Upcoming and live soonest first; finished most recent first. */
export function listTournaments(db: Queryable, query: TournamentListQuery): Promise<TournamentRow[]> {
  const statuses = query.status ? TAB_STATUSES[query.status] : ['scheduled', 'running', 'finished', 'cancelled'];
  const newestFirst = query.status === 'finished';
  return db.query<TournamentRow>(
    `SELECT ${TOURNAMENT} FROM tournaments t
      WHERE t.status = ANY ($1::text[]) AND ($2::text IS NULL OR t.game = $2)
        AND ($3::text IS NULL OR ($3 = 'stake') = (t.entry_stake > 0))
      ORDER BY t.starts_at ${newestFirst ? 'DESC' : 'ASC'}, t.id LIMIT $4`,
    [statuses, query.game ?? null, query.entry ?? null, query.limit],
  );
}

export async function setStatus(
  tx: Queryable,
  id: string,
  change: {
    status: TournamentStatus;
    now: Date;
    bracket?: KnockoutBracket;
    prizePool?: number;
    cancelReason?: CancelReason;
  },
): Promise<void> {
  const { status, now } = change;
  await tx.query(
    `UPDATE tournaments
        SET status = $2, updated_at = $3,
            started_at = CASE WHEN $2 = 'running' THEN $3 ELSE started_at END,
            finished_at = CASE WHEN $2 = 'finished' THEN $3 ELSE finished_at END,
            cancelled_at = CASE WHEN $2 = 'cancelled' THEN $3 ELSE cancelled_at END,
            cancel_reason = coalesce($6, cancel_reason),
            bracket = coalesce($4::jsonb, bracket),
            prize_pool = coalesce($5, prize_pool)
      WHERE id = $1`,
    [id, status, now, change.bracket ? JSON.stringify(change.bracket) : null, change.prizePool ?? null, change.cancelReason ?? null],
  );
}

export async function saveBracket(tx: Queryable, id: string, bracket: KnockoutBracket, now: Date): Promise<void> {
  await tx.query('UPDATE tournaments SET bracket = $2, updated_at = $3 WHERE id = $1', [id, JSON.stringify(bracket), now]);
}

export async function markStartingSoonSent(tx: Queryable, id: string, now: Date): Promise<void> {
  await tx.query('UPDATE tournaments SET starting_soon_sent_at = $2 WHERE id = $1', [id, now]);
}

// ---------------------------------------------------------------------------------------
// Entries

export interface EntryRow {
  tournament_id: string;
  user_id: string;
  entry_key: string;
  rating: number;
  seed: number | null;
  paused: boolean;
  withdrawn: boolean;
  score: number;
  win_streak: number;
  games: number;
  wins: number;
  waiting_since: Date | null;
  last_opponent: string | null;
  current_match_id: string | null;
  eliminated_round: number | null;
  place: number | null;
  prize: number;
  joined_at: Date;
  username: string;
  display_name: string;
  avatar_url: string | null;
}

const ENTRY = `e.*, p.username, p.display_name, p.avatar_url`;

/** Every entry, in the order they came. */
export function entries(db: Queryable, tournamentId: string): Promise<EntryRow[]> {
  return db.query<EntryRow>(
    `SELECT ${ENTRY} FROM tournament_entries e JOIN profiles p ON p.id = e.user_id
      WHERE e.tournament_id = $1 ORDER BY e.joined_at, e.user_id`,
    [tournamentId],
  );
}

export async function findEntry(db: Queryable, tournamentId: string, userId: string): Promise<EntryRow | null> {
  const [row] = await db.query<EntryRow>(
    `SELECT ${ENTRY} FROM tournament_entries e JOIN profiles p ON p.id = e.user_id WHERE e.tournament_id = $1 AND e.user_id = $2`,
    [tournamentId, userId],
  );
  return row ?? null;
}

/** The tournaments (of these) the user has entered. */
export async function enteredAmong(db: Queryable, userId: string, tournamentIds: string[]): Promise<Set<string>> {
  const rows = await db.query<{ tournament_id: string }>(
    'SELECT tournament_id FROM tournament_entries WHERE user_id = $1 AND tournament_id = ANY ($2::uuid[])',
    [userId, tournamentIds],
  );
  return new Set(rows.map((r) => r.tournament_id));
}

export async function insertEntry(
  tx: Queryable,
  e: { tournamentId: string; userId: string; entryKey: string; rating: number; now: Date },
): Promise<void> {
  await tx.query(`INSERT INTO tournament_entries (tournament_id, user_id, entry_key, rating, joined_at) VALUES ($1, $2, $3, $4, $5)`, [
    e.tournamentId,
    e.userId,
    e.entryKey,
    e.rating,
    e.now,
  ]);
}

export async function deleteEntry(tx: Queryable, tournamentId: string, userId: string): Promise<void> {
  await tx.query('DELETE FROM tournament_entries WHERE tournament_id = $1 AND user_id = $2', [tournamentId, userId]);
}

/** The player's rating in the game, rounded; null for a player who has not played it. */
export async function ratingOf(db: Queryable, userId: string, game: string): Promise<number | null> {
  const [row] = await db.query<{ rating: number }>('SELECT rating FROM ratings WHERE user_id = $1 AND game = $2', [userId, game]);
  return row ? Math.round(row.rating) : null;
}

export type EntryChange = Partial<
  Pick<
    EntryRow,
    | 'seed'
    | 'paused'
    | 'withdrawn'
    | 'score'
    | 'win_streak'
    | 'games'
    | 'wins'
    | 'waiting_since'
    | 'last_opponent'
    | 'current_match_id'
    | 'eliminated_round'
    | 'place'
    | 'prize'
  >
>;

const ENTRY_COLUMNS: readonly (keyof EntryChange)[] = [
  'seed',
  'paused',
  'withdrawn',
  'score',
  'win_streak',
  'games',
  'wins',
  'waiting_since',
  'last_opponent',
  'current_match_id',
  'eliminated_round',
  'place',
  'prize',
];

/** Sets the given columns of one entry (the names come from the list above, never from input). */
export async function updateEntry(tx: Queryable, tournamentId: string, userId: string, change: EntryChange): Promise<void> {
  const columns = ENTRY_COLUMNS.filter((c) => c in change);
  if (columns.length === 0) return;
  await tx.query(
    `UPDATE tournament_entries SET ${columns.map((c, i) => `${c} = $${i + 3}`).join(', ')} WHERE tournament_id = $1 AND user_id = $2`,
    [tournamentId, userId, ...columns.map((c) => change[c])],
  );
}

/** Writes these entries' changeable columns as they are in memory, in one statement (a run's entries, read under its lock). */
export async function writeEntries(tx: Queryable, tournamentId: string, rows: readonly EntryRow[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <K extends keyof EntryRow>(k: K) => rows.map((r) => r[k]);
  await tx.query(
    `UPDATE tournament_entries e
        SET seed = v.seed, paused = v.paused, withdrawn = v.withdrawn, score = v.score, win_streak = v.win_streak, games = v.games,
            wins = v.wins, waiting_since = v.waiting_since, last_opponent = v.last_opponent, current_match_id = v.current_match_id,
            eliminated_round = v.eliminated_round, place = v.place, prize = v.prize
       FROM unnest($2::uuid[], $3::int[], $4::bool[], $5::bool[], $6::int[], $7::int[], $8::int[], $9::int[], $10::timestamptz[],
                   $11::uuid[], $12::uuid[], $13::int[], $14::int[], $15::bigint[])
            AS v (user_id, seed, paused, withdrawn, score, win_streak, games, wins, waiting_since, last_opponent, current_match_id,
                  eliminated_round, place, prize)
      WHERE e.tournament_id = $1 AND e.user_id = v.user_id`,
    [tournamentId, column('user_id'), ...ENTRY_COLUMNS.map((c) => column(c))],
  );
}

/** Every entry waits to be paired from `now` (an arena's start). */
export async function startWaiting(tx: Queryable, tournamentId: string, now: Date): Promise<void> {
  await tx.query('UPDATE tournament_entries SET waiting_since = $2 WHERE tournament_id = $1 AND NOT paused', [tournamentId, now]);
}

// ---------------------------------------------------------------------------------------
// Games

export interface NewGame {
  matchId: string;
  tournamentId: string;
  game: TournamentGame;
  currency: Currency;
  players: [{ id: string; rating: number }, { id: string; rating: number }];
  /** 'Best of 1' or 'Best of 3' (the match's own text). */
  matchFormat: string;
  duration: number;
  readyBy: Date;
  firstSeat: Seat | null;
  round: number | null;
  slot: number | null;
  decider: number;
}

/** The matches (no stake: the pool is the tournament's; public, so anyone may watch) and their places in the tournament: two statements. */
export async function insertGames(tx: Queryable, games: readonly NewGame[]): Promise<void> {
  if (games.length === 0) return;
  const column = <T>(f: (g: NewGame) => T) => games.map(f);
  // One statement: the matches in a CTE, their places after them (a CTE's insert is done before the outer one checks its keys).
  await tx.query(
    `WITH made AS (
       INSERT INTO matches (id, challenge_id, player1_id, player2_id, game_type, platform, stake, bet_amount, currency, status,
         match_format, skill_level, scheduled_time, is_private, duration, tournament_id, ready_by, first_seat, created_at, updated_at)
       SELECT id, NULL, p1, p2, game, 'web', 0, 0, currency, 'pending', format, 'any', NULL, false, duration, tid, ready_by, first_seat,
              now(), now()
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::int[], $8::uuid[], $9::timestamptz[],
                     $10::int[])
              AS v (id, p1, p2, game, currency, format, duration, tid, ready_by, first_seat)
       RETURNING id
     )
     INSERT INTO tournament_games (match_id, tournament_id, round, slot, decider, player1_id, player2_id, player1_rating, player2_rating)
     SELECT g.* FROM unnest($1::uuid[], $8::uuid[], $11::int[], $12::int[], $13::int[], $2::uuid[], $3::uuid[], $14::int[], $15::int[])
            AS g (match_id, tournament_id, round, slot, decider, player1_id, player2_id, player1_rating, player2_rating)
       JOIN made ON made.id = g.match_id`,
    [
      column((g) => g.matchId),
      column((g) => g.players[0].id),
      column((g) => g.players[1].id),
      column((g) => g.game),
      column((g) => g.currency),
      column((g) => g.matchFormat),
      column((g) => g.duration),
      column((g) => g.tournamentId),
      column((g) => g.readyBy),
      column((g) => g.firstSeat),
      column((g) => g.round),
      column((g) => g.slot),
      column((g) => g.decider),
      column((g) => g.players[0].rating),
      column((g) => g.players[1].rating),
    ],
  );
}

export interface GameRow {
  match_id: string;
  round: number | null;
  slot: number | null;
  decider: number;
  player1_id: string;
  player2_id: string;
  player1_rating: number;
  player2_rating: number;
  result: 'player1' | 'player2' | 'draw' | 'void' | null;
  created_at: Date;
  applied_at: Date | null;
  /** The order results were taken in (arena scores fold in it). */
  applied_order: number | null;
  /** The match as it ended (or stands). */
  status: string;
  winner_id: string | null;
  end_reason: string | null;
  ready: [boolean, boolean];
  started: boolean;
  /** Who started game 1 (null before the match started). */
  first_seat: Seat | null;
  /** How its last game ended (a deciding game's draw is settled by it). */
  last_outcome: DecidedOutcome | null;
  completed_at: Date | null;
}

const GAME = `g.match_id, g.round, g.slot, g.decider, g.player1_id, g.player2_id, g.player1_rating, g.player2_rating, g.result,
  g.created_at, g.applied_at, g.applied_order, m.status, m.winner_id, m.end_reason,
  ARRAY[m.player1_ready_at IS NOT NULL, m.player2_ready_at IS NOT NULL] AS ready, m.started_at IS NOT NULL AS started,
  coalesce(m.first_seat, (m.state -> 'series' ->> 'firstSeat')::smallint) AS first_seat,
  m.state -> 'games' -> -1 -> 'outcome' AS last_outcome, m.completed_at`;

/** Every game of the tournament, in the order made. */
export function games(db: Queryable, tournamentId: string): Promise<GameRow[]> {
  return db.query<GameRow>(
    `SELECT ${GAME} FROM tournament_games g JOIN matches m ON m.id = g.match_id
      WHERE g.tournament_id = $1 ORDER BY g.created_at, g.match_id`,
    [tournamentId],
  );
}

/** Games whose match has ended and whose result the tournament has not taken yet, in the order they ended. */
export function endedUnapplied(tx: Queryable, tournamentId: string): Promise<GameRow[]> {
  return tx.query<GameRow>(
    `SELECT ${GAME} FROM tournament_games g JOIN matches m ON m.id = g.match_id
      WHERE g.tournament_id = $1 AND g.applied_at IS NULL AND m.status IN ('completed', 'cancelled')
      ORDER BY m.completed_at, g.match_id`,
    [tournamentId],
  );
}

/** These games' results taken, in this order (applied_order follows it), in one statement. */
export async function markApplied(
  tx: Queryable,
  games: readonly { matchId: string; result: NonNullable<GameRow['result']> }[],
  now: Date,
): Promise<void> {
  if (games.length === 0) return;
  // unnest yields the rows in array order and the CTE is evaluated once: the sequence's numbers follow the games' order.
  await tx.query(
    `WITH v AS MATERIALIZED (
       SELECT x.match_id, x.result, nextval('tournament_games_applied_order') AS n FROM unnest($1::uuid[], $2::text[]) AS x (match_id, result)
     )
     UPDATE tournament_games g SET result = v.result, applied_at = $3, applied_order = v.n FROM v WHERE g.match_id = v.match_id`,
    [games.map((g) => g.matchId), games.map((g) => g.result), now],
    'tournament_mark_applied',
  );
}

/** The ids of the games still waiting for their players or being played. */
export async function liveGameIds(tx: Queryable, tournamentId: string): Promise<string[]> {
  const rows = await tx.query<{ match_id: string }>(
    `SELECT g.match_id FROM tournament_games g JOIN matches m ON m.id = g.match_id
      WHERE g.tournament_id = $1 AND m.status IN ('pending', 'accepted', 'in_progress') ORDER BY g.match_id`,
    [tournamentId],
  );
  return rows.map((r) => r.match_id);
}

/** Games still waiting for their players or being played. */
export async function liveGames(tx: Queryable, tournamentId: string): Promise<number> {
  const [row] = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM tournament_games g JOIN matches m ON m.id = g.match_id
      WHERE g.tournament_id = $1 AND m.status IN ('pending', 'accepted', 'in_progress')`,
    [tournamentId],
  );
  return row?.n ?? 0;
}

/** Whether any stake (or a sponsor's prize) is still held for the tournament. */
export async function holdsEscrow(tx: Queryable, tournamentId: string): Promise<boolean> {
  const rows = await tx.query(`SELECT 1 FROM escrow_holds WHERE owner_id = $1 AND status = 'held' LIMIT 1`, [tournamentId]);
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------
// What the job runs

/** Tournaments with something to do at `now`: to start (or be told it starts soon), a game to apply, an arena to end or pair. */
export async function due(db: Queryable, now: Date, soonMs: number, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM tournaments
      WHERE status = 'scheduled'
        AND (starts_at <= $1 OR (starting_soon_sent_at IS NULL AND starts_at <= $1 + make_interval(secs => $2 / 1000.0)))
     UNION
     SELECT t.id FROM tournaments t
      WHERE t.status = 'running' AND (
        (t.format = 'arena' AND t.ends_at <= $1)
        OR EXISTS (SELECT 1 FROM tournament_games g JOIN matches m ON m.id = g.match_id
                    WHERE g.tournament_id = t.id AND g.applied_at IS NULL AND m.status IN ('completed', 'cancelled'))
        OR (t.format = 'arena'
            AND (SELECT count(*) FROM tournament_entries e WHERE e.tournament_id = t.id AND e.waiting_since IS NOT NULL) >= 2))
     LIMIT $3`,
    [now, soonMs, limit],
  );
  return rows.map((r) => r.id);
}
