// The referee's copy of a match (its row with the state brought up to its last stored move),
// and the small helpers the arena's commands and reads share.
import { CHALLENGE, TOURNAMENT_VIEW } from '@versus/domain';
import type { MatchStatus } from '@versus/domain/challenges';
import type { Seat } from '@versus/domain/games/index';
import type { KnockoutMatchFormat } from '@versus/domain/tournaments';
import { notFound } from '../http/errors.ts';
import { UUID } from '../http/validation.ts';
import type * as repo from './arena.repository.ts';
import { replayMoves, type ArenaState, type MoveEntryRecord, type StoredMove } from './arena.state.ts';

/** A match as the referee holds it between operations. */
export interface MatchRecord {
  id: string;
  challengeId: string | null;
  players: [string, string];
  game: string;
  status: MatchStatus;
  currency: repo.MatchCoreRow['currency'];
  isPrivate: boolean;
  scheduledTime: Date | null;
  createdAt: Date;
  version: number;
  state: ArenaState | null;
  readyAt: [Date | null, Date | null];
  startedAt: Date | null;
  /** The match length the creator chose (minutes); null: the game's standard clock. */
  duration: number | null;
  /** What decides it: best of 3 (SPEC), or a tournament's single game. */
  matchFormat: KnockoutMatchFormat;
  /** A tournament's match: no stake of its own; its ending is handed to the tournament. */
  tournamentId: string | null;
  /** Its own no-show deadline (a tournament's), else null: 5 minutes after its start. */
  readyBy: Date | null;
  /** Who starts game 1 when that is not drawn (a tournament's deciding game). */
  firstSeat: Seat | null;
  /** The seq of the state snapshot stored in the database (null: none); the moves after it are replayed on a read. */
  storedSeq: number | null;
}

/** The moves stored after a snapshot, as replayMoves takes them. */
const storedMoves = (rows: readonly repo.ReplayMoveRow[], after: number): StoredMove[] =>
  rows
    .filter((r) => r.seq > after)
    .map((r) => ({
      seq: r.seq,
      seat: r.seat,
      move: r.move,
      at: new Date(r.created_at).getTime(),
      remainingMs: [r.remaining_ms[0], r.remaining_ms[1]],
      lagMs: r.lag_ms,
      premove: r.premove,
    }));

/** The stored state: the snapshot with the moves stored after it replayed (functions/arena_write.sql). */
export const currentState = (snapshot: ArenaState | null, rows: readonly repo.ReplayMoveRow[]): ArenaState | null =>
  snapshot && replayMoves(snapshot, storedMoves(rows, snapshot.seq));

const dateOf = (iso: string | null): Date | null => (iso === null ? null : new Date(iso));

export const toRecord = (row: repo.MatchCoreJson & { later: repo.ReplayMoveRow[] }): MatchRecord => ({
  id: row.id,
  challengeId: row.challenge_id,
  players: [row.player1_id, row.player2_id],
  game: row.game_type,
  status: row.status,
  currency: row.currency,
  isPrivate: row.is_private,
  scheduledTime: dateOf(row.scheduled_time),
  createdAt: new Date(row.created_at),
  version: row.version,
  state: currentState(row.state, row.later),
  readyAt: [dateOf(row.player1_ready_at), dateOf(row.player2_ready_at)],
  startedAt: dateOf(row.started_at),
  duration: row.duration,
  matchFormat: refereedFormat(row.match_format),
  tournamentId: row.tournament_id,
  readyBy: dateOf(row.ready_by),
  firstSeat: row.first_seat,
  storedSeq: row.state?.seq ?? null,
});

/** The stored match format (SPEC's 'Best of 3'; a tournament's 'Best of 1'), as the referee plays it. */
export const refereedFormat = (matchFormat: string): KnockoutMatchFormat =>
  matchFormat === TOURNAMENT_VIEW.matchFormats['best-of-1'] ? 'best-of-1' : 'best-of-3';

export const WAITING: readonly MatchStatus[] = ['pending', 'accepted'];

/** The match's id, or a 404: a malformed id names no match. */
export function matchId(id: string): string {
  if (!UUID.test(id)) throw notFound(CHALLENGE.matchNotFound);
  return id.toLowerCase();
}

/** A version-checked write that found the match moved on: the operation runs again on a fresh read. */
export type Stale = { stale: true };
export const STALE: Stale = { stale: true };
export const isStale = (value: unknown): value is Stale => value === STALE;

export const moveInsert = (matchId: string, move: MoveEntryRecord): repo.MoveInsert => ({
  matchId,
  seq: move.seq,
  gameIndex: move.gameIndex,
  seat: move.seat,
  move: JSON.stringify(move.move),
  notation: move.notation,
  at: new Date(move.at),
  remainingMs: move.remainingMs,
  elapsedMs: move.elapsedMs,
  lagMs: move.lagMs,
  premove: move.premove,
});
