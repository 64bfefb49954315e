// Premoves (chess, checkers): one queued move, played when the turn arrives if still legal, else dropped.

export type PremoveDecision<M> =
  /** Nothing queued, or not our turn yet: keep waiting. */
  | { kind: 'wait' }
  /** Our turn and the queued move is legal: play this (its canonical form). */
  | { kind: 'play'; move: M }
  /** Our turn, but the queued move is no longer legal: forget it. */
  | { kind: 'drop' };

/** `resolve` gives the legal move the queued one names in the current position, or null. */
export function decidePremove<Q, M>(queued: Q | null, myTurn: boolean, resolve: (queued: Q) => M | null): PremoveDecision<M> {
  if (queued === null || !myTurn) return { kind: 'wait' };
  const move = resolve(queued);
  return move === null ? { kind: 'drop' } : { kind: 'play', move };
}

/** The one-slot queue: a new premove replaces the old one; the same one again cancels it. */
export function queuePremove<Q>(current: Q | null, next: Q, same: (a: Q, b: Q) => boolean): Q | null {
  return current !== null && same(current, next) ? null : next;
}
