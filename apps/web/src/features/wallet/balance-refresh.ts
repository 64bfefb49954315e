// When the wallet refetches its balance (SPEC §8, §9): 500 ms after a realtime change, at most
// once a second; a failed load is retried after 1 s, 2 s and 4 s before the error shows.
import { ApiError } from '../../api/index.ts';

export const BALANCE_REFRESH = {
  /** A change is fetched this long after its event, so a burst of events reads once. */
  delayMs: 500,
  /** SPEC §9 balance refresh throttle. */
  throttleMs: 1000,
} as const;

/** SPEC §8: "Failed to load balance" is retried up to 3 times, after 1 s, 2 s and 4 s. */
export const BALANCE_RETRY_DELAYS_MS = [1000, 2000, 4000] as const;

/** TanStack Query's `retry`: `failures` is how many attempts failed before this one. */
export function shouldRetryBalance(failures: number, error: unknown): boolean {
  if (failures >= BALANCE_RETRY_DELAYS_MS.length) return false;
  // A refusal (signed out, forbidden) will not change by asking again; a timeout or a busy server may.
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429) {
    return false;
  }
  return true;
}

/** TanStack Query's `retryDelay`: 1 s after the first failure, then 2 s, then 4 s. */
export function balanceRetryDelay(failures: number): number {
  const index = Math.min(Math.max(0, failures), BALANCE_RETRY_DELAYS_MS.length - 1);
  return BALANCE_RETRY_DELAYS_MS[index]!;
}

export interface Timers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface RefreshScheduler {
  /** Something changed: refresh `delayMs` from now, or later if the last refresh was under `throttleMs` ago. */
  request(): void;
  /** Whether a refresh is waiting to run. */
  readonly pending: boolean;
  /** Drops a waiting refresh (sign-out, unmount). */
  dispose(): void;
}

/** One `refresh` for any number of requests while one waits, `delayMs` after the first, `throttleMs` apart. */
export function createRefreshScheduler(
  refresh: () => void,
  { delayMs = BALANCE_REFRESH.delayMs, throttleMs = BALANCE_REFRESH.throttleMs, timers = realTimers } = {},
): RefreshScheduler {
  let handle: unknown = null;
  let lastRun = Number.NEGATIVE_INFINITY;
  return {
    request() {
      if (handle !== null) return;
      const now = timers.now();
      const at = Math.max(now + delayMs, lastRun + throttleMs);
      handle = timers.setTimeout(() => {
        handle = null;
        lastRun = timers.now();
        refresh();
      }, at - now);
    },
    get pending() {
      return handle !== null;
    },
    dispose() {
      if (handle !== null) timers.clearTimeout(handle);
      handle = null;
    },
  };
}
