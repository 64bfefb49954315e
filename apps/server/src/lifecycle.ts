// A process's phases: serving, draining (/api/ready 503, still serving), closing (503 and Retry-After).
// docs/operations.md, "Scaling out behind HAProxy".

export type Phase = 'serving' | 'draining' | 'closing';

export class Lifecycle {
  #phase: Phase = 'serving';
  #since = performance.now();

  get phase(): Phase {
    return this.#phase;
  }

  /** Milliseconds since the phase began. */
  get inPhaseMs(): number {
    return performance.now() - this.#since;
  }

  /** Readiness fails from now on; requests are still served. */
  drain(): void {
    if (this.#phase === 'serving') this.#enter('draining');
  }

  /** New requests are refused (503, Retry-After) while the ones in flight finish. */
  close(): void {
    this.#enter('closing');
  }

  #enter(phase: Phase): void {
    if (this.#phase === phase) return;
    this.#phase = phase;
    this.#since = performance.now();
  }
}
