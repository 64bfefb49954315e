import { ARENA_RULES } from '@versus/domain/arena';
import type { AppContext } from '../context.ts';
import * as repo from './arena.repository.ts';

export interface SweepResult {
  flagged: number;
  noShows: number;
  failed: number;
}

/** What the sweep asks of the arena: to end one match's fallen flag, or its no-show. */
export interface SweepTarget {
  flag(id: string, now: number, options: { fresh: boolean; graceMs: number }): Promise<boolean>;
  noShow(id: string, now: number, graceMs: number): Promise<boolean>;
}

/** Ends every overdue clock and no-show, each alone; the grace lets a ready or move that arrived in time elsewhere commit first. */
export async function sweepOverdue(
  arena: SweepTarget,
  ctx: Pick<AppContext, 'db' | 'log'>,
  now: number,
  batch: number,
): Promise<SweepResult> {
  let flagged = 0;
  let noShows = 0;
  let failed = 0;
  const graceMs = ARENA_RULES.sweepGraceMs;
  const clocks = await repo.overdueClocks(ctx.db, new Date(now - graceMs), batch);
  const arrivals = await repo.overdueArrivals(ctx.db, new Date(now - graceMs - ARENA_RULES.noShowMs), new Date(now - graceMs), batch);
  const settle = async (work: Promise<boolean>) => {
    try {
      return await work;
    } catch (error) {
      failed++;
      ctx.log.error({ err: error }, 'arena: sweeping a match failed');
      return false;
    }
  };
  const results = await Promise.all([
    ...clocks.map((id) => settle(arena.flag(id, now, { fresh: true, graceMs }))),
    ...arrivals.map((id) => settle(arena.noShow(id, now, graceMs))),
  ]);
  results.forEach((done, i) => {
    if (!done) return;
    if (i < clocks.length) flagged++;
    else noShows++;
  });
  return { flagged, noShows, failed };
}
