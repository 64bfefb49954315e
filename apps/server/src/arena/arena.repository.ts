// The only place with the arena's SQL: matches as the referee sees them, their moves, ratings,
// and the batched write of many matches' changes in one statement (arena.writer.ts).
import type { AccountType, Currency } from '@versus/domain';
import type { MatchResult } from '@versus/domain/arena';
import type { MatchStatus, SkillLevel } from '@versus/domain/challenges';
import type { GameId, Platform } from '@versus/domain/catalogue';
import type { Queryable } from '../db/database.ts';
import type { Seat } from '@versus/domain/games/index';
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
  /** Whose turn it is (kept with every change, 022). */
  to_move: Seat[] | null;
  /** The match length the creator chose, minutes (026); null for a private room's match. */
  duration: number | null;
  /** 'Best of 3' (SPEC), or a tournament's 'Best of 1'. */
  match_format: string;
  /** A tournament's match (028): no stake of its own; its result goes to the tournament. */
  tournament_id: string | null;
  /** The no-show deadline when the match sets its own (a tournament's); else 5 minutes after its start. */
  ready_by: Date | null;
  /** Who moves first in game 1 when it is not drawn (a tournament's deciding game). */
  first_seat: Seat | null;
}

const CORE = `m.id, m.challenge_id, m.player1_id, m.player2_id, m.game_type, m.status, m.stake, m.currency, m.is_private,
  m.scheduled_time, m.created_at, m.version, m.state, m.player1_ready_at, m.player2_ready_at, m.started_at, m.to_move, m.duration,
  m.match_format, m.tournament_id, m.ready_by, m.first_seat`;

/** A stored move as a replay needs it (arena.state.ts replayMoves). */
export interface ReplayMoveRow {
  seq: number;
  seat: Seat;
  move: unknown;
  /** A Date from a column, an ISO text from JSON. */
  created_at: Date | string;
  remaining_ms: [number, number];
  lag_ms: number | null;
  premove: boolean;
}

type TimeColumn = 'scheduled_time' | 'created_at' | 'player1_ready_at' | 'player2_ready_at' | 'started_at' | 'ready_by';

/** The core columns as JSON carries them: times as ISO texts. */
export type MatchCoreJson = Omit<MatchCoreRow, TimeColumn> & { [K in TimeColumn]: MatchCoreRow[K] extends Date ? string : string | null };

/** The match, with the moves stored after its state snapshot (to replay on it), in order (arena_find_core, 022). */
export async function findCore(db: Queryable, id: string): Promise<(MatchCoreJson & { later: ReplayMoveRow[] }) | null> {
  const [row] = await db.query<{ core: (MatchCoreJson & { later: ReplayMoveRow[] }) | null }>(
    'SELECT arena_find_core($1) AS core',
    [id],
    'arena_find_core',
  );
  return row?.core ?? null;
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
  skill_level: SkillLevel;
  player1_gamertag: string | null;
  player2_gamertag: string | null;
  room_code: string | null;
  completed_at: Date | null;
  result: MatchResult | null;
  players: [PlayerInfo, PlayerInfo];
  /** The tournament's name, for a tournament's match (arena_match_view). */
  tournament_name?: string | null;
  /** Every move in order (public columns; `move` only when asked for). */
  moves?: MoveRow[];
}

const PLAYER_JSON = (alias: string, rating: string) => `json_build_object(
  'id', ${alias}.id, 'username', ${alias}.username, 'display_name', ${alias}.display_name, 'avatar_url', ${alias}.avatar_url,
  'account_type', ${alias}.account_type, 'level', ${alias}.level, 'wins', ${alias}.wins, 'losses', ${alias}.losses,
  'streak', ${alias}.streak, 'rating', ${rating}.rating, 'rd', ${rating}.rd, 'games', ${rating}.games)`;

const VIEW_SELECT = `SELECT ${CORE}, m.platform, m.bet_amount, m.winner_id, m.match_format, m.skill_level, m.player1_gamertag,
         m.player2_gamertag, m.room_code, m.completed_at, m.result,
         (SELECT t.name FROM tournaments t WHERE t.id = m.tournament_id) AS tournament_name,
         json_build_array(${PLAYER_JSON('p1', 'r1')}, ${PLAYER_JSON('p2', 'r2')}) AS players
    FROM matches m
    JOIN profiles p1 ON p1.id = m.player1_id
    JOIN profiles p2 ON p2.id = m.player2_id
    LEFT JOIN ratings r1 ON r1.user_id = m.player1_id AND r1.game = m.game_type
    LEFT JOIN ratings r2 ON r2.user_id = m.player2_id AND r2.game = m.game_type`;

/** A match with its players and every move (canonical too with `withMoves`): one arena_match_view call, planned once per connection. */
export async function findForView(
  db: Queryable,
  id: string,
  { withMoves = false } = {},
): Promise<(MatchViewRow & { moves: MoveRow[] }) | null> {
  const [row] = await db.query<{ view: (MatchViewRow & { moves: MoveRow[] }) | null }>(
    'SELECT arena_match_view($1, $2) AS view',
    [id, withMoves],
    'arena_match_view',
  );
  return row?.view ?? null;
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
  /** The canonical move: with `withMoves`, and for the moves after the state snapshot (to replay). */
  move: unknown;
  notation: string;
  /** A Date from a column, an ISO text from JSON. */
  created_at: Date | string;
  remaining_ms: [number, number];
  elapsed_ms: number;
  lag_ms: number | null;
  premove: boolean;
}

/** Who may follow `match:{id}`: its players always, anyone signed in when the match is public. */
export async function topicAccess(
  db: Queryable,
  id: string,
): Promise<{ player1_id: string; player2_id: string; is_private: boolean } | null> {
  const [row] = await db.query<{ player1_id: string; player2_id: string; is_private: boolean }>(
    'SELECT player1_id, player2_id, is_private FROM matches WHERE id = $1',
    [id],
    'arena_topic_access',
  );
  return row ?? null;
}

/** The match's version (its topic's), recording hub `origin` among its followers in the same statement so its events come; 0: none. */
export async function followMatch(db: Queryable, id: string, origin: string): Promise<number> {
  const [row] = await db.query<{ version: number }>(
    `WITH joined AS (
       UPDATE matches SET followers = array_append(coalesce(followers, '{}'), $2::text)
        WHERE id = $1 AND NOT ($2::text = ANY (coalesce(followers, '{}')))
       RETURNING version
     )
     SELECT version FROM joined
     UNION ALL
     SELECT version FROM matches WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM joined)`,
    [id, origin],
    'arena_follow_match',
  );
  return row?.version ?? 0;
}

/** Stores each match's state as its snapshot where the match is still at `version`; answers how many were. */
export async function storeSnapshots(db: Queryable, matches: { id: string; version: number; state: ArenaState }[]): Promise<number> {
  const rows = await db.query(
    `UPDATE matches m SET state = x.state
       FROM jsonb_to_recordset($1::jsonb) AS x (id uuid, version int, state jsonb)
      WHERE m.id = x.id AND m.version = x.version AND m.status = 'in_progress'
     RETURNING m.id`,
    [JSON.stringify(matches)],
  );
  return rows.length;
}

// ---------------------------------------------------------------------------------------
// Sweeping: overdue clocks and no-shows

/** Running matches whose next flag fell before `before`. */
export async function overdueClocks(db: Queryable, before: Date, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM matches WHERE status = 'in_progress' AND deadline_at < $1 ORDER BY deadline_at LIMIT $2`,
    [before, limit],
  );
  return rows.map((r) => r.id);
}

/** Waiting web-game matches scheduled before `startedBefore`, or whose own ready deadline (a tournament's) passed before `readyBefore`. */
export async function overdueArrivals(db: Queryable, startedBefore: Date, readyBefore: Date, limit: number): Promise<string[]> {
  const web = `game_type IN ('tic-tac-toe', 'rock-paper-scissors', 'chess', 'checkers', 'ludo', 'ai-rock-paper-scissors')`;
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM (
       SELECT id, coalesce(scheduled_time, created_at) AS due FROM matches
        WHERE status IN ('pending', 'accepted') AND coalesce(scheduled_time, created_at) < $1 AND ready_by IS NULL AND ${web}
       UNION ALL
       SELECT id, ready_by FROM matches
        WHERE status IN ('pending', 'accepted') AND ready_by IS NOT NULL AND ready_by < $2 AND ${web}
     ) due ORDER BY due LIMIT $3`,
    [startedBefore, readyBefore, limit],
  );
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------
// Finishing: three statements besides the ledger's (every round trip counts under load)

export interface FinishLock {
  version: number;
  status: MatchStatus;
  challenge_id: string | null;
  tournament_id: string | null;
  /** The stakes held for the match, oldest first. */
  holds: { user_id: string; amount: number }[];
}

/** Locks the match row (the finisher's version check) and reads the stakes held for it (by owner: the ledger's index). */
export async function lockForFinish(tx: Queryable, id: string): Promise<FinishLock | null> {
  const [row] = await tx.query<FinishLock>(
    `SELECT m.version, m.status, m.challenge_id, m.tournament_id,
            (SELECT coalesce(json_agg(json_build_object('user_id', h.user_id, 'amount', h.amount) ORDER BY h.id), '[]')
               FROM escrow_holds h WHERE h.owner_id = m.id AND h.status = 'held') AS holds
       FROM matches m WHERE m.id = $1 FOR UPDATE OF m`,
    [id],
    'arena_lock_for_finish',
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

/** Locks both players' profiles in id order (no deadlock with their other matches); every rating change happens under this lock. */
export async function lockRecords(tx: Queryable, ids: string[], game: string): Promise<PlayerRecord[]> {
  return tx.query<PlayerRecord>('SELECT * FROM arena_lock_records($1::uuid[], $2)', [ids, game], 'arena_lock_records');
}

export interface FinishWrite {
  id: string;
  status: 'completed' | 'cancelled';
  winnerId: string | null;
  endReason: string;
  completedAt: Date;
  /** The final ArenaState (null: unchanged). */
  state: unknown;
  result: MatchResult;
  version: number;
  /** SPEC's game_data after the last move, when a move ended the match. */
  gameData: unknown;
  challenge: { id: string; status: 'completed' | 'cancelled' } | null;
  profiles: { id: string; wins: number; losses: number; streak: number; level: number; result: 'win' | 'loss' | 'draw' }[];
  virtual: boolean;
  game: string;
  ratings: { userId: string; rating: number; rd: number; volatility: number; result: 'win' | 'loss' | 'draw' }[];
  /** The move that ended the match, if one did. */
  move: MoveInsert | null;
  events: { topic: string; type: string; payload: unknown }[];
}

/** Records the ending in one call (arena_finish_write): challenge, records, ratings, final move, match and events (versions answered). */
export async function writeFinish(tx: Queryable, w: FinishWrite): Promise<number[]> {
  const { move, ...rest } = w;
  const p = JSON.stringify({
    ...rest,
    move: move && {
      seq: move.seq,
      game: move.gameIndex,
      seat: move.seat,
      move: JSON.parse(move.move) as unknown,
      notation: move.notation,
      at: move.at,
      r0: Math.round(move.remainingMs[0]),
      r1: Math.round(move.remainingMs[1]),
      elapsed: move.elapsedMs,
      lag: move.lagMs,
      premove: move.premove,
    },
  });
  const [row] = await tx.query<{ versions: (string | number)[] }>(
    'SELECT arena_finish_write($1::jsonb) AS versions',
    [p],
    'arena_finish_write',
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
  /** Whose turn it is now, and since when (the clock's `since`). */
  toMove: Seat[];
  turnSince: number | null;
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
  /** What the replay needs besides: the lag the client reported, and whether it was a premove. */
  lagMs: number | null;
  premove: boolean;
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
  /** Of those, the ones another process follows (a follower other than `origin`): their events must travel whole. */
  remote: Set<string>;
  /** Each event's topic version, in the order given; null when its match was not applied. */
  versions: (number | null)[];
}

// A match's ready and start times are the same Date objects in every write of it: formatted once.
const isoTexts = new WeakMap<Date, string>();
function jsonDate(d: Date | null): string {
  if (!d) return 'null';
  let text = isoTexts.get(d);
  if (text === undefined) {
    text = `"${d.toISOString()}"`;
    isoTexts.set(d, text);
  }
  return text;
}

/** The changes whose version still matches, with moves and events, in one statement (arena_write.sql): one round trip, one commit. */
export async function writeBatch(
  db: Queryable,
  origin: string | undefined,
  changes: RowChange[],
  moves: MoveInsert[],
  events: EventInsert[],
): Promise<BatchResult> {
  const c = changes.map(
    (x) =>
      `{"id":"${x.id}","from":${x.fromVersion},"to":${x.toVersion},"status":"${x.status}","state":${x.state ?? 'null'},` +
      `"ready1":${jsonDate(x.readyAt[0])},"ready2":${jsonDate(x.readyAt[1])},"started":${jsonDate(x.startedAt)},` +
      `"deadline":${jsonDate(x.deadlineAt)},"gameData":${x.gameData ?? 'null'},` +
      `"toMove":[${x.toMove.join(',')}],"since":${x.turnSince ?? 'null'}}`,
  );
  const m = moves.map(
    (x) =>
      `{"match":"${x.matchId}","seq":${x.seq},"game":${x.gameIndex},"seat":${x.seat},"move":${x.move},` +
      `"notation":${JSON.stringify(x.notation)},"at":${jsonDate(x.at)},"r0":${Math.round(x.remainingMs[0])},` +
      `"r1":${Math.round(x.remainingMs[1])},"elapsed":${x.elapsedMs},"lag":${x.lagMs ?? 'null'},"premove":${x.premove}}`,
  );
  const e = events.map(
    (x) => `{"match":"${x.matchId}","topic":${JSON.stringify(x.topic)},"type":${JSON.stringify(x.type)},"payload":${x.payload}}`,
  );
  const lists = `"changes":[${c.join(',')}],"moves":[${m.join(',')}],"events":[${e.join(',')}]`;
  const batch = `{"origin":${JSON.stringify(origin ?? null)},${lists}}`;
  const [row] = await db.query<{ applied: string[]; versions: (string | number | null)[]; remote: string[] }>(
    'SELECT applied, versions, remote FROM arena_write($1::jsonb)',
    [batch],
    'arena_write',
  );
  return {
    applied: new Set(row?.applied ?? []),
    remote: new Set(row?.remote ?? []),
    versions: (row?.versions ?? []).map((v) => (v === null ? null : Number(v))),
  };
}

/** A player's finished matches (completed, cancelled, disputed), newest first. */
export async function finishedMatchIds(db: Queryable, userId: string, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM matches
      WHERE (player1_id = $1 OR player2_id = $1) AND status IN ('completed', 'cancelled', 'disputed')
      ORDER BY coalesce(completed_at, scheduled_time, created_at) DESC, id LIMIT $2`,
    [userId, limit],
  );
  return rows.map((row) => row.id);
}
