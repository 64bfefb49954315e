import { describe, expect, it } from 'vitest';
import { TOAST_DEDUPE } from '@versus/domain/notifications';
import { ToastDeduper } from './toast-dedupe.ts';

describe('toast duplicate window (SPEC §9: 5 s, up to 3 repeats)', () => {
  it('shows the first toast and 3 repeats within 5 s, then drops the rest', () => {
    const dedupe = new ToastDeduper();
    const shown = [0, 100, 200, 300, 400, 4_999].map((t) => dedupe.allow('a', t));
    expect(shown).toEqual([true, true, true, true, false, false]);
  });

  it('starts a new window once 5 s have passed since the first', () => {
    const dedupe = new ToastDeduper();
    for (let i = 0; i < 4; i += 1) dedupe.allow('a', i);
    expect(dedupe.allow('a', 10)).toBe(false);
    expect(dedupe.allow('a', TOAST_DEDUPE.windowMs)).toBe(true);
  });

  it('counts each key on its own', () => {
    const dedupe = new ToastDeduper();
    for (let i = 0; i < 4; i += 1) dedupe.allow('a', i);
    expect(dedupe.allow('a', 5)).toBe(false);
    expect(dedupe.allow('b', 5)).toBe(true);
  });

  it('cleans up passed windows every 30 s', () => {
    const dedupe = new ToastDeduper();
    dedupe.allow('a', 0);
    dedupe.allow('b', 1_000);
    expect(dedupe.size).toBe(2);
    dedupe.allow('c', 29_000); // first call was the cleanup at 0; the next is due at 30 s
    expect(dedupe.size).toBe(3);
    dedupe.allow('c', 30_000);
    expect(dedupe.size).toBe(1);
  });
});
