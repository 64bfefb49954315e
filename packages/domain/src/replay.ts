// Replaying a finished match: its games rebuilt from their revealed seeds and stored moves with
// the same rules the server refereed them with, one spectator's view per position.
import { matchRules, type Replay } from './arena.ts';
import { isWebGame } from './games/index.ts';

export interface ReplayedGame {
  index: number;
  /** Position 0 is the start; position k is after the k-th move. */
  views: unknown[];
}

/** Throws if a stored move no longer applies: a replay that cannot be rebuilt must not be shown as if it could. */
export function replayPositions(replay: Pick<Replay, 'match' | 'games'>): ReplayedGame[] {
  const game = replay.match.gameType;
  if (!isWebGame(game)) return [];
  const rules = matchRules(game);
  let previous: unknown;
  return replay.games.map((played) => {
    if (played.seed === null) throw new Error(`replay: game ${played.index + 1} has no revealed seed`);
    let state = rules.setup({ seed: played.seed, firstSeat: played.firstSeat, ...(previous === undefined ? {} : { previous }) });
    const views = [rules.viewFor(state, 'spectator')];
    for (const entry of played.moves) {
      const result = rules.applyMove(state, entry.seat, entry.move);
      if (!result.ok) throw new Error(`replay: game ${played.index + 1}, move ${entry.seq} (${entry.notation}): ${result.error}`);
      state = result.state;
      views.push(rules.viewFor(state, 'spectator'));
    }
    previous = state;
    return { index: played.index, views };
  });
}
