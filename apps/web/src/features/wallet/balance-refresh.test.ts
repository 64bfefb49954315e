import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/index.ts';
import { BALANCE_REFRESH, balanceRetryDelay, createRefreshScheduler, shouldRetryBalance, type Timers } from './balance-refresh.ts';

/** A hand-driven clock: advance(ms) runs every timer that falls due, in order. */
function fakeTimers() {
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  const api: Timers = {
    now: () => now,
    setTimeout: (run, ms) => {
      const id = nextId++;
      timers.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
  };
  return {
    timers: api,
    get now() {
      return now;
    },
    advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].run();
      }
      now = until;
    },
  };
}

function scheduler() {
  const clock = fakeTimers();
  const runs: number[] = [];
  const s = createRefreshScheduler(() => runs.push(clock.now), { timers: clock.timers });
  return { clock, runs, s };
}

describe('balance refresh scheduler (SPEC §9: 500 ms after a change, throttled to 1 s)', () => {
  it('refreshes 500 ms after a change', () => {
    const { clock, runs, s } = scheduler();
    clock.advance(10_000);
    s.request();
    expect(s.pending).toBe(true);
    clock.advance(499);
    expect(runs).toEqual([]);
    clock.advance(1);
    expect(runs).toEqual([10_500]);
    expect(s.pending).toBe(false);
  });

  it('reads a burst of changes once', () => {
    const { clock, runs, s } = scheduler();
    for (let i = 0; i < 10; i++) {
      s.request();
      clock.advance(40);
    }
    clock.advance(2000);
    expect(runs).toEqual([500]);
  });

  it('never refreshes twice within a second, however often changes arrive', () => {
    const { clock, runs, s } = scheduler();
    for (let t = 0; t < 5000; t += 50) {
      s.request();
      clock.advance(50);
    }
    clock.advance(2000);
    for (let i = 1; i < runs.length; i++) expect(runs[i]! - runs[i - 1]!).toBeGreaterThanOrEqual(BALANCE_REFRESH.throttleMs);
    // ...and it keeps up: roughly one refresh a second, the last change included.
    expect(runs.length).toBeGreaterThanOrEqual(5);
    expect(runs.at(-1)).toBeGreaterThanOrEqual(4950 + BALANCE_REFRESH.delayMs);
  });

  it('waits for the throttle when a change follows a refresh closely', () => {
    const { clock, runs, s } = scheduler();
    s.request();
    clock.advance(600); // refreshed at 500
    s.request(); // at 600: 500 ms would be 1100, the throttle allows 1500
    clock.advance(2000);
    expect(runs).toEqual([500, 1500]);
  });

  it('drops a waiting refresh when disposed', () => {
    const { clock, runs, s } = scheduler();
    s.request();
    s.dispose();
    clock.advance(5000);
    expect(runs).toEqual([]);
    expect(s.pending).toBe(false);
  });
});

describe('balance load retries (SPEC §8: 1 s, 2 s, 4 s, at most 3)', () => {
  const network = new ApiError(0, 'network', 'offline');

  it('retries three times with delays 1 s, 2 s and 4 s', () => {
    const delays: number[] = [];
    let failures = 0;
    while (shouldRetryBalance(failures, network)) {
      delays.push(balanceRetryDelay(failures));
      failures += 1;
    }
    expect(delays).toEqual([1000, 2000, 4000]);
  });

  it('retries server errors, timeouts and rate limits, not refusals', () => {
    expect(shouldRetryBalance(0, new ApiError(500, 'internal', 'boom'))).toBe(true);
    expect(shouldRetryBalance(0, new ApiError(0, 'timeout', 'slow'))).toBe(true);
    expect(shouldRetryBalance(0, new ApiError(429, 'rate_limited', 'slow down'))).toBe(true);
    expect(shouldRetryBalance(0, new TypeError('bad shape'))).toBe(true);
    expect(shouldRetryBalance(0, new ApiError(401, 'unauthorized', 'sign in'))).toBe(false);
    expect(shouldRetryBalance(0, new ApiError(404, 'not_found', 'gone'))).toBe(false);
  });
});
