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
  /** Every move in order (public columns; `move` only when asked for). */
  moves?: MoveRow[];
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

/** A match with its players and every move (the canonical moves too when `withMoves`): one query. */
export async function findForView(db: Queryable, id: string, { withMoves = false } = {}): Promise<(MatchViewRow & { moves: MoveRow[] }) | null> {
  const [row] = await db.query<MatchViewRow & { moves: MoveRow[] }>(
    `${VIEW_SELECT.replace(
      'AS players',
      `AS players,
         (SELECT coalesce(json_agg(json_build_object('seq', mm.seq, 'game_index', mm.game_index, 'seat', mm.seat,
                   'move', ${withMoves ? 'mm.move' : 'NULL'}, 'notation', mm.notation, 'created_at', mm.created_at,
                   'remaining_ms', mm.remaining_ms, 'elapsed_ms', mm.elapsed_ms) ORDER BY mm.seq), '[]')
            FROM match_moves mm WHERE mm.match_id = m.id) AS moves`,
    )} WHERE m.id = $1`,
    [id],
  );
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
  /** A Date from a column, an ISO text from JSON. */
  created_at: Date | string;
  remaining_ms: [number, number];
  elapsed_ms: number;
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
// Finishing: three statements besides the ledger's (every round trip counts under load)

export interface FinishLock {
  version: number;
  status: MatchStatus;
  challenge_id: string | null;
  /** The stakes held for the match, oldest first. */
  holds: { user_id: string; amount: number }[];
}

/** Locks the match row (the finisher's version check) and reads the stakes held for it (by owner: the ledger's index). */
export async function lockForFinish(tx: Queryable, id: string): Promise<FinishLock | null> {
  const [row] = await tx.query<FinishLock>(
    `SELECT m.version, m.status, m.challenge_id,
            (SELECT coalesce(json_agg(json_build_object('user_id', h.user_id, 'amount', h.amount) ORDER BY h.id), '[]')
               FROM escrow_holds h WHERE h.owner_id = m.id AND h.status = 'held') AS holds
       FROM matches m WHERE m.id = $1 FOR UPDATE OF m`,
    [id],
  );
  return row ?? null;
}

export interface PlayerRecord {
  id: string;
  wins: number;
  losses: number;
  streak: number;
  rating: number | null;
  rd: number | null;
  volatility: number | null;
}

/**
 * Locks both players' profiles in id order (no deadlock with another match of the same
 * players) and reads their records and ratings in this game. Every rating change happens under
 * its player's profile lock.
 */
export async function lockRecords(tx: Queryable, ids: string[], game: string): Promise<PlayerRecord[]> {
  return tx.query<PlayerRecord>(
    `SELECT p.id, p.wins, p.losses, p.streak, r.rating, r.rd, r.volatility
       FROM profiles p LEFT JOIN ratings r ON r.user_id = p.id AND r.game = $2
      WHERE p.id = ANY ($1::uuid[]) ORDER BY p.id FOR UPDATE OF p`,
    [ids, game],
  );
}

export interface FinishWrite {
  id: string;
  status: 'completed' | 'cancelled';
  winnerId: string | null;
  endReason: string;
  completedAt: Date;
  /** JSON text of the final ArenaState (null: unchanged). */
  state: string | null;
  result: MatchResult;
  version: number;
  /** SPEC's game_data after the last move, when a move ended the match. */
  gameData: string | null;
  challenge: { id: string; status: 'completed' | 'cancelled' } | null;
  profiles: { id: string; wins: number; losses: number; streak: number; level: number; result: 'win' | 'loss' | 'draw' }[];
  virtual: boolean;
  game: string;
  ratings: { userId: string; rating: number; rd: number; volatility: number; result: 'win' | 'loss' | 'draw' }[];
  /** The move that ended the match, if one did. */
  move: MoveInsert | null;
  events: { topic: string; type: string; payload: string }[];
}

/**
 * Records the ending in one statement: the challenge closed, both records and ratings, the
 * final move, the match itself, and the events (whose versions it answers, in order).
 */
export async function writeFinish(tx: Queryable, w: FinishWrite): Promise<number[]> {
  const ratings = [...w.ratings].sort((a, b) => (a.userId < b.userId ? -1 : 1));
  const move = w.move;
  const [row] = await tx.query<{ versions: (string | number)[] }>(
    `WITH c AS (
       UPDATE challenges SET status = $2, closed_at = $3, updated_at = $3 WHERE id = $1 AND status = 'accepted'
     ),
     p AS (
       UPDATE profiles p SET wins = u.wins, losses = u.losses, streak = u.streak, level = u.level, updated_at = now(),
              virtual_games_played = p.virtual_games_played + CASE WHEN $10 THEN 1 ELSE 0 END,
              virtual_wins = p.virtual_wins + CASE WHEN $10 AND u.result = 'win' THEN 1 ELSE 0 END,
              virtual_losses = p.virtual_losses + CASE WHEN $10 AND u.result = 'loss' THEN 1 ELSE 0 END
         FROM unnest($4::uuid[], $5::int[], $6::int[], $7::int[], $8::int[], $9::text[]) AS u (id, wins, losses, streak, level, result)
        WHERE p.id = ANY ($4::uuid[]) AND p.id = u.id
     ),
     r AS (
       INSERT INTO ratings (user_id, game, rating, rd, volatility, games, wins, losses, draws)
       SELECT u.id, $11, u.rating, u.rd, u.volatility, 1, (u.result = 'win')::int, (u.result = 'loss')::int, (u.result = 'draw')::int
         FROM unnest($12::uuid[], $13::float8[], $14::float8[], $15::float8[], $16::text[]) AS u (id, rating, rd, volatility, result)
       ON CONFLICT (user_id, game) DO UPDATE SET
         rating = EXCLUDED.rating, rd = EXCLUDED.rd, volatility = EXCLUDED.volatility, games = ratings.games + 1,
         wins = ratings.wins + EXCLUDED.wins, losses = ratings.losses + EXCLUDED.losses, draws = ratings.draws + EXCLUDED.draws,
         updated_at = now()
     ),
     mv AS (
       INSERT INTO match_moves (match_id, seq, game_index, seat, move, notation, created_at, remaining_ms, elapsed_ms)
       SELECT $17::uuid, $27::int, $28::int, $29::smallint, $30::jsonb, $31::text, $32::timestamptz, ARRAY[$33::int, $34::int], $35::int
        WHERE $27::int IS NOT NULL
     ),
     m AS (
       UPDATE matches SET status = $18, winner_id = $19, end_reason = $20, completed_at = $21, state = coalesce($22::jsonb, state),
              result = $23::jsonb, version = $24, deadline_at = NULL, game_data = coalesce($36::jsonb, game_data), updated_at = $21
        WHERE id = $17
     )
     SELECT realtime_publish_many($25::text[], $26::text[], $37::text[]) AS versions`,
    [
      w.challenge?.id ?? null,
      w.challenge?.status ?? null,
      w.completedAt,
      w.profiles.map((p) => p.id),
      w.profiles.map((p) => p.wins),
      w.profiles.map((p) => p.losses),
      w.profiles.map((p) => p.streak),
      w.profiles.map((p) => p.level),
      w.profiles.map((p) => p.result),
      w.virtual,
      w.game,
      ratings.map((r) => r.userId),
      ratings.map((r) => r.rating),
      ratings.map((r) => r.rd),
      ratings.map((r) => r.volatility),
      ratings.map((r) => r.result),
      w.id,
      w.status,
      w.winnerId,
      w.endReason,
      w.completedAt,
      w.state,
      JSON.stringify(w.result),
      w.version,
      w.events.map((e) => e.topic),
      w.events.map((e) => e.type),
      move?.seq ?? null,
      move?.gameIndex ?? null,
      move?.seat ?? null,
      move?.move ?? null,
      move?.notation ?? null,
      move?.at ?? null,
      move?.remainingMs[0] ?? null,
      move?.remainingMs[1] ?? null,
      move?.elapsedMs ?? null,
      w.gameData,
      w.events.map((e) => e.payload),
    ],
  );
  return (row?.versions ?? []).map(Number);
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

export interface BatchResult {
  /** The matches whose change was applied (their version still matched). */
  applied: Set<string>;
  /** Each event's topic version, in the order given; null when its match was not applied. */
  versions: (number | null)[];
}

const jsonDate = (d: Date | null) => (d ? `"${d.toISOString()}"` : 'null');

/**
 * Applies the changes whose version still matches, with their moves and events, in one
 * statement (arena_write, 010_arena_write_jsonb.sql): one round trip and one commit per
 * batch. The batch travels as one JSON text, the already serialised states, moves and payloads
 * embedded as they are.
 */
export async function writeBatch(db: Queryable, changes: RowChange[], moves: MoveInsert[], events: EventInsert[]): Promise<BatchResult> {
  const c = changes.map(
    (x) =>
      `{"id":"${x.id}","from":${x.fromVersion},"to":${x.toVersion},"status":"${x.status}","state":${x.state ?? 'null'},` +
      `"ready1":${jsonDate(x.readyAt[0])},"ready2":${jsonDate(x.readyAt[1])},"started":${jsonDate(x.startedAt)},` +
      `"deadline":${jsonDate(x.deadlineAt)},"gameData":${x.gameData ?? 'null'}}`,
  );
  const m = moves.map(
    (x) =>
      `{"match":"${x.matchId}","seq":${x.seq},"game":${x.gameIndex},"seat":${x.seat},"move":${x.move},` +
      `"notation":${JSON.stringify(x.notation)},"at":${jsonDate(x.at)},"r0":${Math.round(x.remainingMs[0])},` +
      `"r1":${Math.round(x.remainingMs[1])},"elapsed":${x.elapsedMs}}`,
  );
  const e = events.map((x) => `{"match":"${x.matchId}","topic":${JSON.stringify(x.topic)},"type":${JSON.stringify(x.type)},"payload":${x.payload}}`);
  const batch = `{"changes":[${c.join(',')}],"moves":[${m.join(',')}],"events":[${e.join(',')}]}`;
  const [row] = await db.query<{ applied: string[]; versions: (string | number | null)[] }>(
    'SELECT applied, versions FROM arena_write($1::jsonb)',
    [batch],
  );
  return {
    applied: new Set(row?.applied ?? []),
    versions: (row?.versions ?? []).map((v) => (v === null ? null : Number(v))),
  };
}

export type { Database };
