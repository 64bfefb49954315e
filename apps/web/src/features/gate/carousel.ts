// Pure carousel rules for the gate page (SPEC §4): index arithmetic and the swipe decision.

/** Wraps any integer index onto 0..count-1 (so -1 is the last slide). */
export function wrapIndex(index: number, count: number): number {
  if (!Number.isInteger(count) || count <= 0) return 0;
  if (!Number.isFinite(index)) return 0;
  const i = Math.trunc(index);
  return ((i % count) + count) % count;
}

export function nextIndex(current: number, count: number): number {
  return wrapIndex(current + 1, count);
}

export function previousIndex(current: number, count: number): number {
  return wrapIndex(current - 1, count);
}

/** +1 moves to the next slide, -1 to the previous one, 0 stays. */
export type SwipeStep = -1 | 0 | 1;

/** Horizontal travel must exceed the vertical, so a vertical scroll never flips slides. */
export function swipeStep(dx: number, dy: number, thresholdPx: number): SwipeStep {
  if (!Number.isFinite(dx) || !Number.isFinite(dy)) return 0;
  if (Math.abs(dx) <= thresholdPx || Math.abs(dx) <= Math.abs(dy)) return 0;
  return dx < 0 ? 1 : -1;
}

/** The slide shown after a swipe of (dx, dy) from `current`. */
export function indexAfterSwipe(current: number, count: number, dx: number, dy: number, thresholdPx: number): number {
  return wrapIndex(current + swipeStep(dx, dy, thresholdPx), count);
}
