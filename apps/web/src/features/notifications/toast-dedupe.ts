// SPEC §9: the same toast shown again within 5 s counts as a repeat; up to 3 repeats are
// allowed, the rest are dropped; old entries are cleaned up every 30 s.
import { TOAST_DEDUPE } from '@versus/domain/notifications';

interface Seen {
  firstAt: number;
  /** Shows after the first one inside the window. */
  repeats: number;
}

/** Decides whether a toast with a given key may show now. Time is passed in. */
export class ToastDeduper {
  private readonly seen = new Map<string, Seen>();
  private lastCleanup = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: { windowMs: number; maxRepeats: number; cleanupMs: number } = TOAST_DEDUPE) {}

  /** True (and counted) when the toast may show; false when it is one repeat too many. */
  allow(key: string, now: number): boolean {
    if (now - this.lastCleanup >= this.options.cleanupMs) this.cleanup(now);
    const entry = this.seen.get(key);
    if (!entry || now - entry.firstAt >= this.options.windowMs) {
      this.seen.set(key, { firstAt: now, repeats: 0 });
      return true;
    }
    if (entry.repeats >= this.options.maxRepeats) return false;
    entry.repeats += 1;
    return true;
  }

  /** Drops the keys whose window has passed. */
  cleanup(now: number): void {
    this.lastCleanup = now;
    for (const [key, entry] of this.seen) if (now - entry.firstAt >= this.options.windowMs) this.seen.delete(key);
  }

  get size(): number {
    return this.seen.size;
  }
}
