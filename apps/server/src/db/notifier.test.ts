import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { batchedNotifier } from './database.ts';

describe('batchedNotifier', () => {
  function recorder() {
    const batches: string[][] = [];
    let release: (() => void) | undefined;
    const send = vi.fn(async (_channels: string[], payloads: string[]) => {
      batches.push(payloads);
      await new Promise<void>((resolve) => (release = resolve));
    });
    return { batches, notify: batchedNotifier(send), finish: () => release?.() };
  }

  it('sends at once, and gathers what comes while a batch is on its way into the next, in order', async () => {
    const { notify, ...r } = recorder();
    notify('c', '1');
    notify('c', '2');
    notify('c', '3', 50);
    expect(r.batches).toEqual([['1']]);
    r.finish();
    await vi.waitFor(() => expect(r.batches).toEqual([['1'], ['2', '3']]));
    r.finish();
  });

  describe('with a clock', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    it('lets a notification with gatherMs wait that long for company, and sends it then', async () => {
      const { notify, ...r } = recorder();
      notify('c', 'a', 20);
      await vi.advanceTimersByTimeAsync(10);
      notify('c', 'b', 20);
      expect(r.batches).toEqual([]);
      await vi.advanceTimersByTimeAsync(10);
      expect(r.batches).toEqual([['a', 'b']]);
      r.finish();
    });

    it('sends gathering notifications along with the next one that may not wait', async () => {
      const { notify, ...r } = recorder();
      notify('c', 'hint', 20);
      notify('c', 'event');
      expect(r.batches).toEqual([['hint', 'event']]);
      r.finish();
      await vi.advanceTimersByTimeAsync(50);
      expect(r.batches).toHaveLength(1);
    });

    it('keeps a gathering notification waiting when it arrives while a batch is on its way', async () => {
      const { notify, ...r } = recorder();
      notify('c', 'event');
      notify('c', 'hint', 20);
      r.finish();
      await vi.advanceTimersByTimeAsync(5);
      expect(r.batches).toEqual([['event']]);
      await vi.advanceTimersByTimeAsync(15);
      expect(r.batches).toEqual([['event'], ['hint']]);
      r.finish();
    });

    it('gives a hint that comes after a batch took the earlier ones its whole window', async () => {
      const { notify, ...r } = recorder();
      notify('c', 'e1');
      notify('c', 'e2');
      notify('c', 'h1', 20);
      r.finish();
      await vi.advanceTimersByTimeAsync(1);
      expect(r.batches).toEqual([['e1'], ['e2', 'h1']]);
      r.finish();
      await vi.advanceTimersByTimeAsync(10);
      notify('c', 'h2', 20);
      await vi.advanceTimersByTimeAsync(15);
      expect(r.batches).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(5);
      expect(r.batches).toEqual([['e1'], ['e2', 'h1'], ['h2']]);
      r.finish();
    });
  });
});
