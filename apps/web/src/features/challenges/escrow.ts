// The escrow dialog's four steps (SPEC §4) over the real calls (docs/decisions.md, "The escrow
// dialog shows the real call"); dependencies passed in, so it is tested without a browser.
import { CHALLENGE, WIZARD, type Currency } from '@versus/domain';
import { currencySymbol, formatMinor, toMinor } from '@versus/domain/money';

export const ESCROW_STEP_IDS = ['auth', 'balance', 'lock', 'update'] as const;
export type EscrowStepId = (typeof ESCROW_STEP_IDS)[number];
export type EscrowStepStatus = 'pending' | 'processing' | 'completed' | 'failed';

export const ESCROW_STEP_LABELS: Record<EscrowStepId, string> = WIZARD.escrowSteps;

export interface EscrowProgress {
  steps: Record<EscrowStepId, EscrowStepStatus>;
  /** The failed step's message, shown as it is. */
  error: string | null;
  /** A short title for the failure toast ("Insufficient Credits", "Error creating challenge"). */
  errorTitle: string | null;
  done: boolean;
}

export const initialProgress = (): EscrowProgress => ({
  steps: { auth: 'pending', balance: 'pending', lock: 'pending', update: 'pending' },
  error: null,
  errorTitle: null,
  done: false,
});

/** The step being worked on or the one that failed; null before the start and when done. */
export function currentStep(progress: EscrowProgress): EscrowStepId | null {
  return ESCROW_STEP_IDS.find((id) => progress.steps[id] === 'processing' || progress.steps[id] === 'failed') ?? null;
}

export class StepFailure extends Error {
  constructor(
    message: string,
    readonly title: string,
  ) {
    super(message);
  }
}

export interface EscrowDeps<R> {
  /** A session is present (the access token is good, refreshing it if need be). */
  checkSession(): Promise<boolean>;
  /** The player's available balance in the currency they stake, in minor units, read now. */
  readBalance(): Promise<{ availableMinor: number; currency: Currency }>;
  /** POST /api/challenges with the Idempotency-Key; throws the server's refusal. */
  lock(): Promise<R>;
  /** Refetch what the new challenge changed (lists, balance). Its failure does not undo the lock. */
  refresh(): Promise<void>;
  onProgress(progress: EscrowProgress): void;
  /** Each step shows as processing at least this long. */
  minStepMs: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export interface EscrowInput {
  /** Whole units. */
  stake: number;
}

export type EscrowResult<R> = { ok: true; result: R } | { ok: false; step: EscrowStepId; message: string; title: string };

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Turns a thrown value into the step's message: StepFailure and server refusals keep their words. */
export function failureOf(error: unknown, fallbackTitle: string): { message: string; title: string } {
  if (error instanceof StepFailure) return { message: error.message, title: error.title };
  if (error instanceof Error && error.message) return { message: error.message, title: fallbackTitle };
  return { message: CHALLENGE.createFailed, title: fallbackTitle };
}

/** The SPEC §8 escrow-dialog text when the balance is below the stake. */
export function insufficientForEscrow(stake: number, currency: Currency): string {
  return CHALLENGE.escrowDialogInsufficient(currencySymbol(currency), formatMinor(toMinor(stake)));
}

/** Stops at the first failure; a retry runs it all again, the Idempotency-Key keeping the lock single. */
export async function runEscrow<R>(input: EscrowInput, deps: EscrowDeps<R>): Promise<EscrowResult<R>> {
  const sleep = deps.sleep ?? realSleep;
  const now = deps.now ?? (() => Date.now());
  let progress = initialProgress();
  const set = (id: EscrowStepId, status: EscrowStepStatus, failure?: { message: string; title: string }) => {
    progress = {
      ...progress,
      steps: { ...progress.steps, [id]: status },
      error: failure?.message ?? null,
      errorTitle: failure?.title ?? null,
    };
    deps.onProgress(progress);
  };

  const step = async <T>(
    id: EscrowStepId,
    work: () => Promise<T>,
    fallbackTitle: string,
  ): Promise<{ ok: true; value: T } | { ok: false; failure: { message: string; title: string } }> => {
    set(id, 'processing');
    const started = now();
    let outcome: { ok: true; value: T } | { ok: false; failure: { message: string; title: string } };
    try {
      outcome = { ok: true, value: await work() };
    } catch (error) {
      outcome = { ok: false, failure: failureOf(error, fallbackTitle) };
    }
    const left = deps.minStepMs - (now() - started);
    if (left > 0) await sleep(left);
    if (outcome.ok) set(id, 'completed');
    else set(id, 'failed', outcome.failure);
    return outcome;
  };

  const auth = await step(
    'auth',
    async () => {
      if (!(await deps.checkSession())) throw new StepFailure(CHALLENGE.signInToCreate, CHALLENGE.authRequiredTitle);
    },
    CHALLENGE.authRequiredTitle,
  );
  if (!auth.ok) return { ok: false, step: 'auth', ...auth.failure };

  const balance = await step(
    'balance',
    async () => {
      const { availableMinor, currency } = await deps.readBalance();
      if (availableMinor < toMinor(input.stake)) throw new StepFailure(insufficientForEscrow(input.stake, currency), CHALLENGE.errorTitle);
    },
    CHALLENGE.errorTitle,
  );
  if (!balance.ok) return { ok: false, step: 'balance', ...balance.failure };

  const lock = await step('lock', deps.lock, CHALLENGE.createErrorTitle);
  if (!lock.ok) return { ok: false, step: 'lock', ...lock.failure };

  await step(
    'update',
    async () => {
      try {
        await deps.refresh();
      } catch (error) {
        // The challenge exists and the stake is locked; stale lists catch up on their own.
        console.warn('Refreshing after the escrow lock failed', error);
      }
    },
    CHALLENGE.errorTitle,
  );
  progress = { ...progress, done: true };
  deps.onProgress(progress);
  return { ok: true, result: lock.value };
}
