import argon2 from 'argon2';
import { LIMITS } from '@versus/domain';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { RetryLaterError } from '../http/rate-limit.ts';

/**
 * argon2id with the library's defaults (64 MiB, 3 passes, 4 lanes) in production.
 * ARGON2_MEMORY_COST_KIB lowers the memory cost for test runs only, where hundreds of
 * sign-ups would otherwise spend most of the suite's time hashing. Never set it in production.
 */
function options(): argon2.HashOptions {
  const memoryCost = Number(process.env.ARGON2_MEMORY_COST_KIB);
  return Number.isInteger(memoryCost) && memoryCost >= 1024 ? { type: argon2.argon2id, memoryCost } : { type: argon2.argon2id };
}

/**
 * At most `concurrency` jobs at once and `queue` more waiting; any further one is refused at
 * once with a 503 rather than waiting unboundedly (or holding its memory).
 */
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

/**
 * Every hash and verification (64 MiB each) goes through this gate: 4 at once (libuv's default
 * thread pool runs no more anyway), so a burst of sign-ups or sign-ins holds 256 MiB at most.
 */
// Per process on purpose, not per app: it bounds the memory and threads of the whole process.
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

// A hash of nothing anyone knows: checking an unknown email against it costs the same time as
// checking a real account, so response times do not reveal which emails are registered.
// Module-level on purpose: one constant per process, made on first use.
let decoy: Promise<string> | undefined;
export async function spendVerifyTime(password: string): Promise<void> {
  decoy ??= hashPassword(`decoy-${Math.random()}`);
  const hash = await decoy;
  await passwordWork.run(() => argon2.verify(hash, password));
}

// Loaded on first use: building the ranked dictionaries takes ~120 ms the startup need not pay.
// Only the first 32 characters are judged (a longer password is not a common one, and the
// estimate's cost grows with the length: ~13 ms at 32, ~56 ms at 100).
let estimator: Promise<ZxcvbnFactory> | undefined;
function loadEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(
    ([core, common]) => new core.ZxcvbnFactory({ dictionary: common.dictionary, graphs: common.adjacencyGraphs, maxLength: 32 }),
  );
  return estimator;
}

/**
 * True for a password among the most common ones, or a trivial variant of one (zxcvbn-ts with its
 * common-password dictionary: score 0, under 1,000 guesses), or one made of the user's own
 * email or username. SPEC's minimum length is checked before this.
 */
export async function isCommonPassword(password: string, userInputs: string[] = []): Promise<boolean> {
  const result = (await loadEstimator()).check(password, userInputs);
  return result.score === 0;
}
