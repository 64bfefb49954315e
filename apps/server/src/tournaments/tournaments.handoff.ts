// How a tournament hears that one of its games ended: finishMatch names it here after its commit and every process runs it
// (the row lock makes the run happen once; the job catches up a notification lost to a crash). The arena's own finishes run
// it at once in their process (Arena.tournamentGameEnded), which then skips its own notification.
import crypto from 'node:crypto';
import type { Queryable } from '../db/database.ts';

export const TOURNAMENT_GAME_ENDED = 'versus_tournament_game';

/** This process's mark on the hand-offs it runs itself. */
const ORIGIN = crypto.randomUUID();

/** After `tx` commits: the tournament has a result to apply (`runHere`: this process runs it itself, the others need not). */
export function handToTournament(tx: Queryable, tournamentId: string, runHere = false): void {
  tx.notifyAfterCommit(TOURNAMENT_GAME_ENDED, runHere ? `${tournamentId} ${ORIGIN}` : tournamentId);
}

/** The tournament a hand-off names, or null when this process ran it itself (or it names none). */
export function handedTournament(payload: string): string | null {
  const [id, origin] = payload.split(' ');
  return origin === ORIGIN || !id ? null : id;
}
