// What the benches that run in rounds share: how many, and the median of a round's figures; and percentiles.

/** BENCH_ROUNDS (default 3), a whole number of at least 1. */
export function benchRounds(): number {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error(`BENCH_ROUNDS must be a whole number of at least 1, not ${process.env.BENCH_ROUNDS}`);
  return rounds;
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The p-th percentile of values sorted ascending (NaN for none). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
