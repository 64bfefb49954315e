import { describe, expect, it } from 'vitest';
import { likelyNext, pages } from './pages.ts';

describe('route preloading (SPEC §2)', () => {
  it('offers a visitor the gate only', () => {
    expect(likelyNext('/marketplace', false)).toEqual(['gate']);
  });

  it('follows the path, most specific first', () => {
    expect(likelyNext('/', true)).toEqual(['marketplace', 'liveArena', 'matches']);
    expect(likelyNext('/marketplace/create', true)).toEqual(['marketplace', 'liveArena']);
    expect(likelyNext('/marketplace', true)).toEqual(['createChallenge', 'liveArena']);
    expect(likelyNext('/admin/disputes/enhanced', true)).toEqual(['admin']);
    expect(likelyNext('/spectate/abc', true)).toEqual(['liveArena']);
  });

  it('does not mistake a longer word for a screen, and falls back to the landing page', () => {
    expect(likelyNext('/matchesx', true)).toEqual(['landing', 'marketplace']);
    expect(likelyNext('/nowhere', true)).toEqual(['landing', 'marketplace']);
  });

  it('only names screens that exist', () => {
    for (const path of ['/', '/marketplace', '/live-arena', '/matches', '/leaderboards', '/profile', '/social', '/admin', '/x']) {
      for (const id of likelyNext(path, true)) expect(pages[id]).toBeDefined();
    }
  });
});
