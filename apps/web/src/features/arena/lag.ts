// The lag a move reports (lagMs): half a running round-trip estimate, as one-way delay cannot be seen.
import { ARENA_RULES } from '@versus/domain/arena';

export interface LagEstimatorOptions {
  /** Weight of a new sample in the running average (0–1). */
  alpha?: number;
  /** A sample above this is an outlier (a stalled tab, a server pause) and counts as this much. */
  maxSampleMs?: number;
}

export class LagEstimator {
  private rtt: number | null = null;
  private readonly alpha: number;
  private readonly maxSampleMs: number;

  constructor({ alpha = 0.3, maxSampleMs = 5_000 }: LagEstimatorOptions = {}) {
    this.alpha = Math.min(1, Math.max(0.01, alpha));
    this.maxSampleMs = maxSampleMs;
  }

  /** One measured round trip (request sent → answer received), in ms. */
  sample(rttMs: number): void {
    if (!Number.isFinite(rttMs) || rttMs < 0) return;
    const value = Math.min(rttMs, this.maxSampleMs);
    this.rtt = this.rtt === null ? value : this.rtt + this.alpha * (value - this.rtt);
  }

  /** The running round-trip estimate; null before the first sample. */
  roundTripMs(): number | null {
    return this.rtt === null ? null : Math.round(this.rtt);
  }

  /** What a move sent now reports as lag: half the round trip, within what the server accepts. */
  lagMs(): number {
    if (this.rtt === null) return 0;
    return Math.min(ARENA_RULES.maxReportedLagMs, Math.max(0, Math.round(this.rtt / 2)));
  }
}

/** Times one exchange for the lag estimate; its `serverNow` also feeds the clock sync. */
export async function timed<T>(exchange: () => Promise<T>, onSample: (sentAt: number, receivedAt: number, answer: T) => void): Promise<T> {
  const sentAt = Date.now();
  const answer = await exchange();
  onSample(sentAt, Date.now(), answer);
  return answer;
}
