export const RECONNECT = {
  minMs: 500,
  maxMs: 30_000,
} as const;

/** A random point in the doubling ceiling's upper half, so a restart does not bring every client back at once. */
export function backoffDelay(attempt: number, random: number, minMs: number = RECONNECT.minMs, maxMs: number = RECONNECT.maxMs): number {
  const ceiling = Math.min(maxMs, minMs * 2 ** Math.max(0, attempt));
  const jittered = ceiling * (0.5 + Math.min(1, Math.max(0, random)) / 2);
  return Math.round(Math.min(maxMs, Math.max(minMs, jittered)));
}

export type VersionVerdict = 'next' | 'duplicate' | 'gap';

/** Where version `v` stands against the last seen on its topic: next, already seen, or after a gap. */
export function checkVersion(last: number | undefined, v: number): VersionVerdict {
  if (last === undefined) return 'next';
  if (v <= last) return 'duplicate';
  return v === last + 1 ? 'next' : 'gap';
}
