// How a tournament hears that one of its games ended: finishMatch names it here after its commit and every process runs it
// (the row lock makes the run happen once; the job catches up a notification lost to a crash).
import type { Queryable } from '../db/database.ts';

export const TOURNAMENT_GAME_ENDED = 'versus_tournament_game';

/** After `tx` commits: the tournament has a result to apply. */
export function handToTournament(tx: Queryable, tournamentId: string): void {
  tx.notifyAfterCommit(TOURNAMENT_GAME_ENDED, tournamentId);
}
