import { describe, expect, it } from 'vitest';
import { splashHideAt, splashLoadedAt } from './splash.ts';

describe('splash timing', () => {
  it('stays at least 2000 ms when the fonts are ready early, then hides 200 ms later', () => {
    expect(splashLoadedAt({ startedAt: 0, fontsReadyAt: 100 })).toBe(2000);
    expect(splashHideAt({ startedAt: 0, fontsReadyAt: 100 })).toBe(2200);
  });

  it('waits for the fonts plus 500 ms when they are late', () => {
    expect(splashLoadedAt({ startedAt: 0, fontsReadyAt: 1800 })).toBe(2300);
    expect(splashHideAt({ startedAt: 0, fontsReadyAt: 1800 })).toBe(2500);
  });

  it('counts the minimum from the page start', () => {
    expect(splashHideAt({ startedAt: 300, fontsReadyAt: 0 })).toBe(2500);
  });
});
