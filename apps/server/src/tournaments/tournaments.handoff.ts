// How a tournament hears that one of its games ended: finishMatch (the one way a match ends)
// names the tournament on this channel after its commit, and every process's tournaments feature
// then runs that tournament (the row lock makes the run happen once; the job catches up any
// notification lost to a crash).
import type { Queryable } from '../db/database.ts';

export const TOURNAMENT_GAME_ENDED = 'versus_tournament_game';

/** After `tx` commits: the tournament has a result to apply. */
export function handToTournament(tx: Queryable, tournamentId: string): void {
  tx.notifyAfterCommit(TOURNAMENT_GAME_ENDED, tournamentId);
}
