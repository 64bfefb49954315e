// The only place with the arena's SQL: matches as the referee sees them, their moves, ratings,
// and the batched write of many matches' changes in one statement (arena.writer.ts).
import type { AccountType, Currency } from '@versus/domain';
import type { MatchResult } from '@versus/domain/arena';
import type { MatchStatus, SkillLevel } from '@versus/domain/challenges';
import type { GameId, Platform } from '@versus/domain/catalogue';
import type { Database, Queryable } from '../db/database.ts';
import type { ArenaState } from './arena.state.ts';

/** The columns the referee reads and writes. */
export interface MatchCoreRow {
  id: string;
  challenge_id: string | null;
  player1_id: string;
  player2_id: string;
  game_type: GameId;
  status: MatchStatus;
  stake: number;
  currency: Currency;
  is_private: boolean;
  scheduled_time: Date | null;
  created_at: Date;
  version: number;
  state: ArenaState | null;
  player1_ready_at: Date | null;
  player2_ready_at: Date | null;
  started_at: Date | null;
}

const CORE = `m.id, m.challenge_id, m.player1_id, m.player2_id, m.game_type, m.status, m.stake, m.currency, m.is_private,
  m.scheduled_time, m.created_at, m.version, m.state, m.player1_ready_at, m.player2_ready_at, m.started_at`;

export async function findCore(db: Queryable, id: string): Promise<MatchCoreRow | null> {
  const [row] = await db.query<MatchCoreRow>(`SELECT ${CORE} FROM matches m WHERE m.id = $1`, [id]);
  return row ?? null;
}

/** Locks the match row for a finishing transaction; answers its current version and status. */
export async function lockMatch(tx: Queryable, id: string): Promise<{ version: number; status: MatchStatus } | null> {
  const [row] = await tx.query<{ version: number; status: MatchStatus }>('SELECT version, status FROM matches WHERE id = $1 FOR UPDATE', [id]);
  return row ?? null;
}

export interface PlayerInfo {
  id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  account_type: AccountType;
  level: number;
  wins: number;
  losses: number;
  streak: number;
  rating: number | null;
  rd: number | null;
  games: number | null;
}

/** A match with everything a view shows besides the state: both players, their ratings in this game. */
export interface MatchViewRow extends MatchCoreRow {
  platform: Platform;
  bet_amount: number;
  winner_id: string | null;
  match_format: string;
  skill_level: SkillLevel;
  player1_gamertag: string | null;
  player2_gamertag: string | null;
  room_code: string | null;
  completed_at: Date | null;
  result: MatchResult | null;
  players: [PlayerInfo, PlayerInfo];
}

const PLAYER_JSON = (alias: string, rating: string) => `json_build_object(
  'id', ${alias}.id, 'username', ${alias}.username, 'display_name', ${alias}.display_name, 'avatar_url', ${alias}.avatar_url,
  'account_type', ${alias}.account_type, 'level', ${alias}.level, 'wins', ${alias}.wins, 'losses', ${alias}.losses,
  'streak', ${alias}.streak, 'rating', ${rating}.rating, 'rd', ${rating}.rd, 'games', ${rating}.games)`;

const VIEW_SELECT = `SELECT ${CORE}, m.platform, m.bet_amount, m.winner_id, m.match_format, m.skill_level, m.player1_gamertag,
         m.player2_gamertag, m.room_code, m.completed_at, m.result,
         json_build_array(${PLAYER_JSON('p1', 'r1')}, ${PLAYER_JSON('p2', 'r2')}) AS players
    FROM matches m
    JOIN profiles p1 ON p1.id = m.player1_id
    JOIN profiles p2 ON p2.id = m.player2_id
    LEFT JOIN ratings r1 ON r1.user_id = m.player1_id AND r1.game = m.game_type
    LEFT JOIN ratings r2 ON r2.user_id = m.player2_id AND r2.game = m.game_type`;

export async function findForView(db: Queryable, id: string): Promise<MatchViewRow | null> {
  const [row] = await db.query<MatchViewRow>(`${VIEW_SELECT} WHERE m.id = $1`, [id]);
  return row ?? null;
}

/** A player's matches still to play or being played, soonest first. */
export async function listActive(db: Queryable, userId: string, limit = 50): Promise<MatchViewRow[]> {
  return db.query<MatchViewRow>(
    `${VIEW_SELECT}
      WHERE (m.player1_id = $1 OR m.player2_id = $1) AND m.status IN ('pending', 'accepted', 'in_progress')
      ORDER BY coalesce(m.scheduled_time, m.created_at), m.id LIMIT $2`,
    [userId, limit],
  );
}

export interface MoveRow {
  seq: number;
  game_index: number;
  seat: 0 | 1;
  move: unknown;
  notation: string;
  created_at: Date;
  remaining_ms: [number, number];
  elapsed_ms: number;
}

export async function listMoves(db: Queryable, matchId: string, { withMoves = false } = {}): Promise<MoveRow[]> {
  return db.query<MoveRow>(
    `SELECT seq, game_index, seat, ${withMoves ? 'move' : 'NULL AS move'}, notation, created_at, remaining_ms, elapsed_ms
       FROM match_moves WHERE match_id = $1 ORDER BY seq`,
    [matchId],
  );
}

/** Who may follow `match:{id}`: its players always, anyone signed in when the match is public. */
export async function topicAccess(db: Queryable, id: string): Promise<{ player1_id: string; player2_id: string; is_private: boolean } | null> {
  const [row] = await db.query<{ player1_id: string; player2_id: string; is_private: boolean }>(
    'SELECT player1_id, player2_id, is_private FROM matches WHERE id = $1',
    [id],
  );
  return row ?? null;
}

// ---------------------------------------------------------------------------------------
// Sweeping: overdue clocks and no-shows

export async function overdueClocks(db: Queryable, now: Date, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM matches WHERE status = 'in_progress' AND deadline_at <= $1 ORDER BY deadline_at LIMIT $2`,
    [now, limit],
  );
  return rows.map((r) => r.id);
}

export async function overdueArrivals(db: Queryable, startedBefore: Date, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM matches
      WHERE status IN ('pending', 'accepted') AND coalesce(scheduled_time, created_at) <= $1
        AND game_type IN ('tic-tac-toe', 'rock-paper-scissors', 'chess', 'checkers', 'ludo', 'ai-rock-paper-scissors')
      ORDER BY coalesce(scheduled_time, created_at) LIMIT $2`,
    [startedBefore, limit],
  );
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------
// Finishing

export async function closeChallenge(tx: Queryable, challengeId: string, status: 'completed' | 'cancelled', now: Date): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE challenges SET status = $2, closed_at = $3, updated_at = $3 WHERE id = $1 AND status = 'accepted' RETURNING id`,
    [challengeId, status, now],
  );
  return rows.length > 0;
}

export async function heldStakes(tx: Queryable, matchId: string): Promise<{ user_id: string; amount: number }[]> {
  return tx.query<{ user_id: string; amount: number }>(
    `SELECT user_id, amount FROM escrow_holds WHERE match_id = $1 AND status = 'held' ORDER BY id`,
    [matchId],
  );
}

export interface ProfileStats {
  id: string;
  wins: number;
  losses: number;
  streak: number;
}

/** Locks both players' profiles in id order (no deadlock with another match of the same players). */
export async function lockProfiles(tx: Queryable, ids: string[]): Promise<ProfileStats[]> {
  return tx.query<ProfileStats>('SELECT id, wins, losses, streak FROM profiles WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE', [ids]);
}

export async function updateProfileStats(
  tx: Queryable,
  rows: { id: string; wins: number; losses: number; streak: number; level: number; result: 'win' | 'loss' | 'draw' }[],
  virtual: boolean,
): Promise<void> {
  await tx.query(
    `UPDATE profiles p SET wins = u.wins, losses = u.losses, streak = u.streak, level = u.level, updated_at = now(),
            virtual_games_played = p.virtual_games_played + CASE WHEN $6 THEN 1 ELSE 0 END,
            virtual_wins = p.virtual_wins + CASE WHEN $6 AND u.result = 'win' THEN 1 ELSE 0 END,
            virtual_losses = p.virtual_losses + CASE WHEN $6 AND u.result = 'loss' THEN 1 ELSE 0 END
       FROM unnest($1::uuid[], $2::int[], $3::int[], $4::int[], $5::int[], $7::text[]) AS u (id, wins, losses, streak, level, result)
      WHERE p.id = u.id`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.wins),
      rows.map((r) => r.losses),
      rows.map((r) => r.streak),
      rows.map((r) => r.level),
      virtual,
      rows.map((r) => r.result),
    ],
  );
}

export interface RatingRow {
  user_id: string;
  rating: number;
  rd: number;
  volatility: number;
  games: number;
}

export async function lockRatings(tx: Queryable, ids: string[], game: string): Promise<RatingRow[]> {
  return tx.query<RatingRow>(
    'SELECT user_id, rating, rd, volatility, games FROM ratings WHERE user_id = ANY($1::uuid[]) AND game = $2 ORDER BY user_id FOR UPDATE',
    [ids, game],
  );
}

export async function saveRatings(
  tx: Queryable,
  game: string,
  rows: { userId: string; rating: number; rd: number; volatility: number; result: 'win' | 'loss' | 'draw' }[],
): Promise<void> {
  const sorted = [...rows].sort((a, b) => (a.userId < b.userId ? -1 : 1));
  await tx.query(
    `INSERT INTO ratings (user_id, game, rating, rd, volatility, games, wins, losses, draws)
     SELECT u.id, $2, u.rating, u.rd, u.volatility, 1,
            (u.result = 'win')::int, (u.result = 'loss')::int, (u.result = 'draw')::int
       FROM unnest($1::uuid[], $3::float8[], $4::float8[], $5::float8[], $6::text[]) AS u (id, rating, rd, volatility, result)
     ON CONFLICT (user_id, game) DO UPDATE SET
       rating = EXCLUDED.rating, rd = EXCLUDED.rd, volatility = EXCLUDED.volatility, games = ratings.games + 1,
       wins = ratings.wins + EXCLUDED.wins, losses = ratings.losses + EXCLUDED.losses, draws = ratings.draws + EXCLUDED.draws,
       updated_at = now()`,
    [
      sorted.map((r) => r.userId),
      game,
      sorted.map((r) => r.rating),
      sorted.map((r) => r.rd),
      sorted.map((r) => r.volatility),
      sorted.map((r) => r.result),
    ],
  );
}

export interface FinishedRow {
  status: 'completed' | 'cancelled';
  winnerId: string | null;
  endReason: string;
  completedAt: Date;
  state: string | null;
  result: MatchResult;
  version: number;
}

export async function markFinished(tx: Queryable, id: string, row: FinishedRow): Promise<void> {
  await tx.query(
    `UPDATE matches SET status = $2, winner_id = $3, end_reason = $4, completed_at = $5, state = coalesce($6::jsonb, state),
            result = $7::jsonb, version = $8, deadline_at = NULL, updated_at = $5
      WHERE id = $1`,
    [id, row.status, row.winnerId, row.endReason, row.completedAt, row.state, JSON.stringify(row.result), row.version],
  );
}

// ---------------------------------------------------------------------------------------
// The batched write: many matches' changes, their moves and their events in ONE statement

export interface RowChange {
  id: string;
  fromVersion: number;
  toVersion: number;
  status: MatchStatus;
  /** JSON text of the new ArenaState (null: unchanged). */
  state: string | null;
  readyAt: [Date | null, Date | null];
  startedAt: Date | null;
  deadlineAt: Date | null;
  /** SPEC's game_data: { moveCount, lastMoveBy }. */
  gameData: string | null;
}

export interface MoveInsert {
  matchId: string;
  seq: number;
  gameIndex: number;
  seat: 0 | 1;
  /** JSON text of the canonical move. */
  move: string;
  notation: string;
  at: Date;
  remainingMs: [number, number];
  elapsedMs: number;
}

export interface EventInsert {
  matchId: string;
  topic: string;
  type: string;
  /** JSON text. */
  payload: string;
}

// NOTIFY payloads are capped at 8000 bytes; larger events travel by reference (as publish() does).
const INLINE_LIMIT = 7000;

// Each data-modifying CTE runs exactly once and all see one snapshot; only the changes whose
// version still matched (`u`) get their moves and events. Topic versions are counted per topic
// (several events on one topic in a batch get consecutive versions); the NOTIFY payloads come
// back in the order the events were given, to be sent after the commit (notifyAfterCommit).
export const BATCH_SQL = `
WITH u AS (
  UPDATE matches m
     SET status = x.status, state = coalesce(x.state::jsonb, m.state), version = x.to_version,
         player1_ready_at = x.ready1, player2_ready_at = x.ready2, started_at = x.started_at,
         deadline_at = x.deadline_at, game_data = coalesce(x.game_data::jsonb, m.game_data), updated_at = now()
    FROM unnest($1::uuid[], $2::int[], $3::int[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[],
                $8::timestamptz[], $9::timestamptz[], $10::text[])
         AS x (id, from_version, to_version, status, state, ready1, ready2, started_at, deadline_at, game_data)
   WHERE m.id = x.id AND m.version = x.from_version
  RETURNING m.id
),
mv AS (
  INSERT INTO match_moves (match_id, seq, game_index, seat, move, notation, created_at, remaining_ms, elapsed_ms)
  SELECT x.match_id, x.seq, x.game_index, x.seat, x.move::jsonb, x.notation, x.created_at, ARRAY[x.r0, x.r1], x.elapsed
    FROM unnest($11::uuid[], $12::int[], $13::int[], $14::smallint[], $15::text[], $16::text[], $17::timestamptz[],
                $18::int[], $19::int[], $20::int[])
         AS x (match_id, seq, game_index, seat, move, notation, created_at, r0, r1, elapsed)
   WHERE x.match_id IN (SELECT id FROM u)
),
ev AS MATERIALIZED (
  SELECT x.ord, x.topic, x.type, x.payload
    FROM unnest($21::uuid[], $22::text[], $23::text[], $24::text[]) WITH ORDINALITY AS x (match_id, topic, type, payload, ord)
   WHERE x.match_id IN (SELECT id FROM u)
),
counts AS (SELECT topic, count(*)::bigint AS n FROM ev GROUP BY topic),
t AS (
  INSERT INTO realtime_topics (topic, version)
  SELECT topic, n FROM counts ORDER BY topic
  ON CONFLICT (topic) DO UPDATE SET version = realtime_topics.version + EXCLUDED.version
  RETURNING topic, version
),
numbered AS MATERIALIZED (
  SELECT ev.ord, ev.topic, ev.type, ev.payload,
         t.version - c.n + row_number() OVER (PARTITION BY ev.topic ORDER BY ev.ord) AS version
    FROM ev JOIN t USING (topic) JOIN counts c USING (topic)
),
ins AS (
  INSERT INTO realtime_events (topic, version, type, payload)
  SELECT topic, version, type, payload::jsonb FROM numbered
)
SELECT coalesce((SELECT array_agg(id) FROM u), '{}') AS applied,
       coalesce((SELECT array_agg(
                   CASE WHEN octet_length(s.inline) < ${INLINE_LIMIT} THEN s.inline
                        ELSE json_build_object('topic', s.topic, 'version', s.version, 'ref', true)::text END
                   ORDER BY s.ord)
                   FROM (SELECT n.ord, n.topic, n.version,
                                json_build_object('topic', n.topic, 'version', n.version, 'type', n.type, 'payload', n.payload::json)::text AS inline
                           FROM numbered n) s), '{}') AS notes`;

export interface BatchResult {
  /** The matches whose change was applied (their version still matched). */
  applied: Set<string>;
  /** The NOTIFY payloads of their events, in order: to send once the statement has committed. */
  notes: string[];
}

/** Applies the changes whose version still matches, with their moves and events; answers the ids applied. */
export async function writeBatch(db: Queryable, changes: RowChange[], moves: MoveInsert[], events: EventInsert[]): Promise<BatchResult> {
  const [row] = await db.query<{ applied: string[]; notes: string[] }>(BATCH_SQL, [
    changes.map((c) => c.id),
    changes.map((c) => c.fromVersion),
    changes.map((c) => c.toVersion),
    changes.map((c) => c.status),
    changes.map((c) => c.state),
    changes.map((c) => c.readyAt[0]),
    changes.map((c) => c.readyAt[1]),
    changes.map((c) => c.startedAt),
    changes.map((c) => c.deadlineAt),
    changes.map((c) => c.gameData),
    moves.map((m) => m.matchId),
    moves.map((m) => m.seq),
    moves.map((m) => m.gameIndex),
    moves.map((m) => m.seat),
    moves.map((m) => m.move),
    moves.map((m) => m.notation),
    moves.map((m) => m.at),
    moves.map((m) => m.remainingMs[0]),
    moves.map((m) => m.remainingMs[1]),
    moves.map((m) => m.elapsedMs),
    events.map((e) => e.matchId),
    events.map((e) => e.topic),
    events.map((e) => e.type),
    events.map((e) => e.payload),
  ]);
  return { applied: new Set(row?.applied ?? []), notes: row?.notes ?? [] };
}

export type { Database };
