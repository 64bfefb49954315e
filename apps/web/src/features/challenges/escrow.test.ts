import { describe, expect, it } from 'vitest';
import { CHALLENGE } from '@versus/domain';
import { currentStep, runEscrow, type EscrowDeps, type EscrowProgress } from './escrow.ts';

function harness(overrides: Partial<EscrowDeps<string>> = {}) {
  const seen: EscrowProgress[] = [];
  const calls: string[] = [];
  let clock = 0;
  const slept: number[] = [];
  const deps: EscrowDeps<string> = {
    checkSession: async () => {
      calls.push('auth');
      return true;
    },
    readBalance: async () => {
      calls.push('balance');
      return { availableMinor: 100_000, currency: 'credits' };
    },
    lock: async () => {
      calls.push('lock');
      clock += 50; // the server took 50 ms
      return 'challenge-1';
    },
    refresh: async () => {
      calls.push('update');
    },
    onProgress: (p) => seen.push(p),
    minStepMs: 300,
    sleep: async (ms) => {
      slept.push(ms);
      clock += ms;
    },
    now: () => clock,
    ...overrides,
  };
  return { deps, seen, calls, slept };
}

describe('escrow dialog runner', () => {
  it('runs the four real steps in order, each processing then completed, holding each for the minimum', async () => {
    const { deps, seen, calls, slept } = harness();
    const result = await runEscrow({ stake: 25 }, deps);
    expect(result).toEqual({ ok: true, result: 'challenge-1' });
    expect(calls).toEqual(['auth', 'balance', 'lock', 'update']);
    const trail = seen.map((p) => Object.values(p.steps).join(','));
    expect(trail).toEqual([
      'processing,pending,pending,pending',
      'completed,pending,pending,pending',
      'completed,processing,pending,pending',
      'completed,completed,pending,pending',
      'completed,completed,processing,pending',
      'completed,completed,completed,pending',
      'completed,completed,completed,processing',
      'completed,completed,completed,completed',
      'completed,completed,completed,completed',
    ]);
    expect(seen.at(-1)!.done).toBe(true);
    // The lock took 50 ms of its 300 ms minimum: only the rest is waited.
    expect(slept).toEqual([300, 300, 250, 300]);
  });

  it('fails at the balance check when the credits are below the stake, and never locks', async () => {
    const { deps, seen, calls } = harness({ readBalance: async () => ({ availableMinor: 2499, currency: 'credits' }) });
    const result = await runEscrow({ stake: 25 }, deps);
    expect(result).toEqual({
      ok: false,
      step: 'balance',
      message: 'Insufficient credits for escrow lock. You need $25.00 to continue.',
      title: CHALLENGE.errorTitle,
    });
    expect(calls).toEqual(['auth']);
    const last = seen.at(-1)!;
    expect(last.steps).toEqual({ auth: 'completed', balance: 'failed', lock: 'pending', update: 'pending' });
    expect(last.error).toBe(result.ok ? null : result.message);
    expect(currentStep(last)).toBe('balance');
  });

  it('writes VTokens with their symbol', async () => {
    const { deps } = harness({ readBalance: async () => ({ availableMinor: 0, currency: 'vtokens' }) });
    const result = await runEscrow({ stake: 10 }, deps);
    expect(result.ok ? '' : result.message).toBe(CHALLENGE.escrowDialogInsufficient('VT', '10.00'));
  });

  it('fails at authentication without a session', async () => {
    const { deps, calls } = harness({ checkSession: async () => false });
    const result = await runEscrow({ stake: 25 }, deps);
    expect(result).toMatchObject({ ok: false, step: 'auth', message: CHALLENGE.signInToCreate, title: CHALLENGE.authRequiredTitle });
    expect(calls).toEqual([]);
  });

  it("shows the server's refusal of the lock as it is", async () => {
    const refusal = 'Insufficient Credits: Need $25.00 but only have $3.00. Please add more credits to create this challenge.';
    const { deps, seen } = harness({
      lock: async () => {
        throw new Error(refusal);
      },
    });
    const result = await runEscrow({ stake: 25 }, deps);
    expect(result).toMatchObject({ ok: false, step: 'lock', message: refusal, title: CHALLENGE.createErrorTitle });
    expect(seen.at(-1)!.steps).toEqual({ auth: 'completed', balance: 'completed', lock: 'failed', update: 'pending' });
  });

  it('completes even when the refetch after the lock fails (the challenge exists)', async () => {
    const { deps, seen } = harness({
      refresh: async () => {
        throw new Error('offline');
      },
    });
    const result = await runEscrow({ stake: 25 }, deps);
    expect(result.ok).toBe(true);
    expect(seen.at(-1)!.steps.update).toBe('completed');
  });
});
