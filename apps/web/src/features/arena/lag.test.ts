import { describe, expect, it } from 'vitest';
import { ARENA_RULES } from '@versus/domain/arena';
import { LagEstimator, timed } from './lag.ts';

describe('LagEstimator', () => {
  it('reports no lag before it has measured anything', () => {
    const lag = new LagEstimator();
    expect(lag.lagMs()).toBe(0);
    expect(lag.roundTripMs()).toBeNull();
  });

  it('reports half the round trip of the first sample', () => {
    const lag = new LagEstimator();
    lag.sample(120);
    expect(lag.roundTripMs()).toBe(120);
    expect(lag.lagMs()).toBe(60);
  });

  it('moves towards new samples by a running average, not at once', () => {
    const lag = new LagEstimator({ alpha: 0.5 });
    lag.sample(100);
    lag.sample(300);
    expect(lag.roundTripMs()).toBe(200);
    lag.sample(300);
    expect(lag.roundTripMs()).toBe(250);
    expect(lag.lagMs()).toBe(125);
  });

  it('caps an outlier and ignores nonsense', () => {
    const lag = new LagEstimator({ alpha: 1, maxSampleMs: 2_000 });
    lag.sample(50_000);
    expect(lag.roundTripMs()).toBe(2_000);
    lag.sample(-1);
    lag.sample(Number.NaN);
    expect(lag.roundTripMs()).toBe(2_000);
  });

  it('never reports more than the server accepts', () => {
    const lag = new LagEstimator({ alpha: 1, maxSampleMs: Number.POSITIVE_INFINITY });
    lag.sample(10 * ARENA_RULES.maxReportedLagMs);
    expect(lag.lagMs()).toBe(ARENA_RULES.maxReportedLagMs);
  });
});

describe('timed', () => {
  it('reports when the exchange was sent and answered, with the answer', async () => {
    const seen: [number, number, string][] = [];
    const answer = await timed(
      () => new Promise<string>((resolve) => setTimeout(() => resolve('ok'), 20)),
      (sentAt, receivedAt, a) => seen.push([sentAt, receivedAt, a]),
    );
    expect(answer).toBe('ok');
    expect(seen).toHaveLength(1);
    const [sentAt, receivedAt] = seen[0]!;
    expect(receivedAt - sentAt).toBeGreaterThanOrEqual(15);
  });

  it('reports nothing when the exchange fails', async () => {
    let calls = 0;
    await expect(
      timed(
        () => Promise.reject(new Error('down')),
        () => (calls += 1),
      ),
    ).rejects.toThrow('down');
    expect(calls).toBe(0);
  });
});
