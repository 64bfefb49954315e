import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPending, OptimisticChanges, runOptimistic, type WalletFigures } from './optimistic.ts';

const credits = (availableMinor: number, escrowMinor = 0): WalletFigures => ({ availableMinor, escrowMinor, currency: 'credits' });

describe('applyPending', () => {
  it('shows a stake locked at once: available down, escrow up', () => {
    const changes = new OptimisticChanges();
    changes.add({ availableMinor: -2500, escrowMinor: 2500 }, 'credits');
    expect(applyPending(credits(100_000), changes.getSnapshot())).toEqual(credits(97_500, 2500));
  });

  it('never takes a balance below 0 (SPEC §5)', () => {
    const changes = new OptimisticChanges();
    changes.add({ availableMinor: -5000 }, 'credits');
    changes.add({ escrowMinor: -1 }, 'credits');
    expect(applyPending(credits(1200), changes.getSnapshot())).toEqual(credits(0, 0));
  });

  it('leaves other currencies alone', () => {
    const changes = new OptimisticChanges();
    changes.add({ availableMinor: -100, currency: 'vtokens' }, 'credits');
    expect(applyPending(credits(1000), changes.getSnapshot())).toEqual(credits(1000));
    expect(applyPending({ availableMinor: 1000, escrowMinor: 0, currency: 'vtokens' }, changes.getSnapshot()).availableMinor).toBe(900);
  });

  it('refuses amounts that are not whole minor units', () => {
    const changes = new OptimisticChanges();
    expect(() => changes.add({ availableMinor: 0.5 }, 'credits')).toThrow(RangeError);
    expect(changes.getSnapshot()).toEqual([]);
  });

  it('a rollback restores the exact figures, whatever else is pending and whatever the server sends meanwhile', () => {
    const delta = fc.record({
      availableMinor: fc.integer({ min: -200_000, max: 200_000 }),
      escrowMinor: fc.integer({ min: -200_000, max: 200_000 }),
    });
    fc.assert(
      fc.property(
        fc.nat({ max: 1_000_000 }),
        fc.nat({ max: 1_000_000 }),
        fc.array(delta, { maxLength: 6 }),
        fc.array(fc.boolean(), { maxLength: 6 }),
        fc.nat({ max: 1_000_000 }),
        (available, escrow, deltas, fails, refetched) => {
          const changes = new OptimisticChanges();
          const ids = deltas.map((d) => changes.add(d, 'credits'));
          // Always at or above 0 while pending.
          const shown = applyPending(credits(available, escrow), changes.getSnapshot());
          expect(shown.availableMinor).toBeGreaterThanOrEqual(0);
          expect(shown.escrowMinor).toBeGreaterThanOrEqual(0);
          // The failed ones roll back; the figures equal the server's plus the survivors only.
          const survivors = deltas.filter((_, i) => !fails[i]);
          ids.forEach((id, i) => fails[i] && changes.remove(id));
          const base = credits(refetched, escrow);
          const expected = survivors.reduce((acc, d) => ({ a: acc.a + d.availableMinor, e: acc.e + d.escrowMinor }), {
            a: base.availableMinor,
            e: base.escrowMinor,
          });
          expect(applyPending(base, changes.getSnapshot())).toEqual(credits(Math.max(0, expected.a), Math.max(0, expected.e)));
          // Everything removed: back to the server's figures exactly.
          ids.forEach((id) => changes.remove(id));
          expect(applyPending(base, changes.getSnapshot())).toEqual(base);
        },
      ),
    );
  });
});

describe('OptimisticChanges', () => {
  it('tells subscribers about every change and keeps one snapshot between them', () => {
    const changes = new OptimisticChanges();
    let calls = 0;
    const stop = changes.subscribe(() => (calls += 1));
    const first = changes.getSnapshot();
    expect(changes.getSnapshot()).toBe(first);
    const id = changes.add({ availableMinor: -1 }, 'credits');
    changes.remove(id);
    changes.remove(id); // already gone: no news
    changes.clear(); // nothing pending: no news
    expect(calls).toBe(2);
    stop();
    changes.add({ availableMinor: -1 }, 'credits');
    expect(calls).toBe(2);
  });
});

describe('runOptimistic', () => {
  it('rolls back and rethrows when the operation fails (SPEC §8)', async () => {
    const changes = new OptimisticChanges();
    const seen: number[] = [];
    const failure = new Error('Failed to add credits');
    const run = runOptimistic(
      changes,
      { availableMinor: 5000 },
      'credits',
      async () => {
        seen.push(applyPending(credits(1000), changes.getSnapshot()).availableMinor);
        throw failure;
      },
      async () => undefined,
    );
    await expect(run).rejects.toBe(failure);
    expect(seen).toEqual([6000]);
    expect(applyPending(credits(1000), changes.getSnapshot())).toEqual(credits(1000));
  });

  it('keeps the change until the refetch settles, then drops it', async () => {
    const changes = new OptimisticChanges();
    const during: number[] = [];
    const result = await runOptimistic(
      changes,
      { availableMinor: -2500, escrowMinor: 2500 },
      'credits',
      async () => 'locked',
      async () => {
        during.push(changes.getSnapshot().length);
      },
    );
    expect(result).toBe('locked');
    expect(during).toEqual([1]);
    expect(changes.getSnapshot()).toEqual([]);
  });

  it('still succeeds when only the refetch fails', async () => {
    const changes = new OptimisticChanges();
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      const result = await runOptimistic(
        changes,
        { availableMinor: -1 },
        'credits',
        async () => 42,
        async () => {
          throw new Error('offline');
        },
      );
      expect(result).toBe(42);
      expect(changes.getSnapshot()).toEqual([]);
    } finally {
      console.warn = warn;
    }
  });
});
