// The arena's reads: always from the database (what is stored is what is shown).
import { ARENA, CHALLENGE } from '@versus/domain';
import type { ArenaMatchSummary, MatchView, Replay } from '@versus/domain/arena';
import type { AccessClaims } from '../auth/claims.ts';
import type { AppContext } from '../context.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';
import { currentState } from './arena.record.ts';
import * as repo from './arena.repository.ts';
import type { ArenaState } from './arena.state.ts';
import { buildMatchView, buildReplay, buildSummary, seatOf } from './arena.views.ts';

type ReadContext = Pick<AppContext, 'db' | 'log'>;

/** The row with its state brought up to its last move; a running match that does not replay throws, one over shows its snapshot. */
const withCurrentState = <R extends repo.MatchViewRow & { moves: repo.MoveRow[] }>(row: R, log: AppContext['log']): R => {
  let state: ArenaState | null;
  try {
    state = currentState(row.state, row.moves);
  } catch (error) {
    if (row.status === 'in_progress') throw error;
    log.warn({ err: error, matchId: row.id }, 'arena: a finished match whose moves do not replay is shown at its last snapshot');
    return row;
  }
  return state === row.state ? row : { ...row, state };
};

/** The match as `user` sees it: a player's own seat view. Strangers are refused. */
export async function viewMatch(ctx: ReadContext, user: AccessClaims, id: string, now: number): Promise<MatchView> {
  const row = await repo.findForView(ctx.db, id);
  if (!row) throw notFound(CHALLENGE.matchNotFound);
  const seat = seatOf(row, user.userId);
  if (seat === null) throw forbidden(CHALLENGE.matchForbidden);
  return buildMatchView(withCurrentState(row, ctx.log), row.moves, seat, now);
}

/** Read-only, no secrets: any signed-in player for a public match, its players for a private one. */
export async function spectateMatch(ctx: ReadContext, user: AccessClaims, id: string, now: number): Promise<MatchView> {
  const row = await repo.findForView(ctx.db, id);
  if (!row) throw notFound(CHALLENGE.matchNotFound);
  if (row.is_private && seatOf(row, user.userId) === null) throw forbidden(ARENA.privateMatch);
  return buildMatchView(withCurrentState(row, ctx.log), row.moves, 'spectator', now);
}

export async function replayMatch(ctx: ReadContext, user: AccessClaims, id: string): Promise<Replay> {
  const row = await repo.findForView(ctx.db, id, { withMoves: true });
  if (!row) throw notFound(CHALLENGE.matchNotFound);
  if (row.is_private && seatOf(row, user.userId) === null) throw forbidden(ARENA.privateMatch);
  if (row.status !== 'completed' && row.status !== 'cancelled') throw conflict('not_finished', ARENA.replayNotFinished);
  return buildReplay(row, row.moves);
}

export async function activeMatches(ctx: ReadContext, user: AccessClaims): Promise<ArenaMatchSummary[]> {
  const rows = await repo.listActive(ctx.db, user.userId);
  return rows.map((row) => buildSummary(row, user.userId));
}
