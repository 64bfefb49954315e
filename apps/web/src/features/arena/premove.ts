// Premoves (chess and checkers): one move may be queued while the opponent is thinking. When
// the turn arrives it is played at once if it is still legal in the new position (the server
// counts its time as lag: it costs nothing), otherwise it is dropped.

export type PremoveDecision<M> =
  /** Nothing queued, or not our turn yet: keep waiting. */
  | { kind: 'wait' }
  /** Our turn and the queued move is legal: play this (its canonical form). */
  | { kind: 'play'; move: M }
  /** Our turn, but the queued move is no longer legal: forget it. */
  | { kind: 'drop' };

/**
 * What to do with the queued premove now. `resolve` turns the queued move into the legal move it
 * names in the current position, or null when there is none.
 */
export function decidePremove<Q, M>(queued: Q | null, myTurn: boolean, resolve: (queued: Q) => M | null): PremoveDecision<M> {
  if (queued === null || !myTurn) return { kind: 'wait' };
  const move = resolve(queued);
  return move === null ? { kind: 'drop' } : { kind: 'play', move };
}

/** The one-slot queue: a new premove replaces the old one; the same one again cancels it. */
export function queuePremove<Q>(current: Q | null, next: Q, same: (a: Q, b: Q) => boolean): Q | null {
  return current !== null && same(current, next) ? null : next;
}
