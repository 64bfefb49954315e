export const RECONNECT = {
  minMs: 500,
  maxMs: 30_000,
} as const;

/**
 * Delay before reconnect attempt `attempt` (0-based): the ceiling doubles from `minMs` up to
 * `maxMs`, and the delay is a random point in its upper half, so a server restart does not
 * bring every client back in the same instant. Always within [minMs, maxMs].
 */
export function backoffDelay(attempt: number, random: number, minMs: number = RECONNECT.minMs, maxMs: number = RECONNECT.maxMs): number {
  const ceiling = Math.min(maxMs, minMs * 2 ** Math.max(0, attempt));
  const jittered = ceiling * (0.5 + Math.min(1, Math.max(0, random)) / 2);
  return Math.round(Math.min(maxMs, Math.max(minMs, jittered)));
}

export type VersionVerdict = 'next' | 'duplicate' | 'gap';

/**
 * Where an event of version `v` stands against the last version seen on its topic: the next
 * one, one already seen, or one after a gap (something in between was missed).
 */
export function checkVersion(last: number | undefined, v: number): VersionVerdict {
  if (last === undefined) return 'next';
  if (v <= last) return 'duplicate';
  return v === last + 1 ? 'next' : 'gap';
}
