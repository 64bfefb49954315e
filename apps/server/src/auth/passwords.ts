import argon2 from 'argon2';
import { LIMITS } from '@versus/domain';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { RetryLaterError } from '../http/rate-limit.ts';

/** argon2id at the library's defaults; ARGON2_MEMORY_COST_KIB lowers the memory for test runs only, never in production. */
function options(): argon2.HashOptions {
  const memoryCost = Number(process.env.ARGON2_MEMORY_COST_KIB);
  return Number.isInteger(memoryCost) && memoryCost >= 1024 ? { type: argon2.argon2id, memoryCost } : { type: argon2.argon2id };
}

/** At most `concurrency` jobs and `queue` waiting; any further is refused with a 503 rather than holding its memory. */
export class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly queue: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.concurrency) this.active++;
    else {
      if (this.waiting.length >= this.queue) throw new RetryLaterError(503, 'busy', LIMITS.busy, 1);
      // The slot is handed over by the job that ends (below), so `active` stays as it is.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  stats(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }
}

/** Every hash and check; per process, not per app, as it bounds the process's memory and threads (docs/security.md). */
export const passwordWork = new Gate(4, 32);

export function hashPassword(password: string): Promise<string> {
  return passwordWork.run(() => argon2.hash(password, options()));
}

export function verifyPassword(hash: string, password: string): Promise<boolean> {
  return passwordWork.run(() => argon2.verify(hash, password));
}

/** True when `hash` was made with other parameters than today's (then it is rehashed on sign-in). */
export function needsRehash(hash: string): boolean {
  return argon2.needsRehash(hash, options());
}

// Checking an unknown email against it takes as long as a real account; one per process, made on first use.
let decoy: Promise<string> | undefined;
export async function spendVerifyTime(password: string): Promise<void> {
  decoy ??= hashPassword(`decoy-${Math.random()}`);
  const hash = await decoy;
  await passwordWork.run(() => argon2.verify(hash, password));
}

// Loaded on first use, off the startup path; only 32 characters judged, as the cost grows with length (docs/security.md).
let estimator: Promise<ZxcvbnFactory> | undefined;
function loadEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(
    ([core, common]) => new core.ZxcvbnFactory({ dictionary: common.dictionary, graphs: common.adjacencyGraphs, maxLength: 32 }),
  );
  return estimator;
}

/** zxcvbn-ts score 0 (a common password or a trivial variant), or made of the user's own email or username; length is checked before. */
export async function isCommonPassword(password: string, userInputs: string[] = []): Promise<boolean> {
  const result = (await loadEstimator()).check(password, userInputs);
  return result.score === 0;
}
