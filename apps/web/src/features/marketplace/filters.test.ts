import { describe, expect, it } from 'vitest';
import { makeChallenge } from './challenge.fixture.ts';
import {
  NO_FILTERS,
  filtersFromParams,
  hasFilters,
  matchesFilters,
  newestFirst,
  toListQuery,
  visibleChallenges,
  withFilters,
  type MarketFilters,
} from './filters.ts';

describe('marketplace filters', () => {
  it('reads the filters from the address, ignoring unknown values', () => {
    expect(filtersFromParams(new URLSearchParams('game=Chess&platform=PC&stake=pro&q=rapid'))).toEqual({
      game: 'chess',
      platform: 'pc',
      stake: 'pro',
      search: 'rapid',
    });
    expect(filtersFromParams(new URLSearchParams('game=snake&platform=amiga&stake=huge'))).toEqual(NO_FILTERS);
    expect(filtersFromParams(new URLSearchParams(`q=${'x'.repeat(300)}`)).search).toHaveLength(100);
  });

  it('writes them back, keeping other parameters and dropping defaults', () => {
    const base = new URLSearchParams('highlight=abc&game=chess&q=old');
    const next = withFilters(base, { game: null, platform: 'xbox', stake: 'any', search: '  ' });
    expect(next.get('highlight')).toBe('abc');
    expect(next.has('game')).toBe(false);
    expect(next.get('platform')).toBe('xbox');
    expect(next.has('stake')).toBe(false);
    expect(next.has('q')).toBe(false);
    // A round trip gives the same filters.
    const filters: MarketFilters = { game: 'fifa-24', platform: 'playstation', stake: 'elite', search: 'cup' };
    expect(filtersFromParams(withFilters(new URLSearchParams(), filters))).toEqual(filters);
  });

  it('turns the stake tier into the server range', () => {
    expect(toListQuery(NO_FILTERS)).toEqual({});
    expect(toListQuery({ game: 'chess', platform: null, stake: 'casual', search: ' rapid ' })).toEqual({
      game: 'chess',
      minStake: 1,
      maxStake: 25,
      search: 'rapid',
    });
    expect(toListQuery({ ...NO_FILTERS, stake: 'pro' })).toMatchObject({ minStake: 26, maxStake: 50 });
    expect(toListQuery({ ...NO_FILTERS, stake: 'elite' })).toMatchObject({ minStake: 51, maxStake: 1000 });
    expect(hasFilters(NO_FILTERS)).toBe(false);
    expect(hasFilters({ ...NO_FILTERS, search: 'a' })).toBe(true);
  });

  it('matches a live challenge like the server would', () => {
    const c = makeChallenge({ game: 'fortnite', stake: 50, platform: 'xbox', description: 'Zero build warm-up' });
    expect(matchesFilters(c, NO_FILTERS)).toBe(true);
    expect(matchesFilters(c, { ...NO_FILTERS, game: 'fortnite', platform: 'xbox', stake: 'pro' })).toBe(true);
    expect(matchesFilters(c, { ...NO_FILTERS, game: 'chess' })).toBe(false);
    expect(matchesFilters(c, { ...NO_FILTERS, platform: 'pc' })).toBe(false);
    expect(matchesFilters(c, { ...NO_FILTERS, stake: 'casual' })).toBe(false);
    expect(matchesFilters(c, { ...NO_FILTERS, stake: 'elite' })).toBe(false);
    for (const search of ['ZERO', 'fortn', 'ALICE', 'challenge']) expect(matchesFilters(c, { ...NO_FILTERS, search })).toBe(true);
    expect(matchesFilters(c, { ...NO_FILTERS, search: 'valorant' })).toBe(false);
  });

  it('sorts newest first and hides what is no longer open', () => {
    const old = makeChallenge({ createdAt: '2025-01-01T10:00:00.000Z' });
    const fresh = makeChallenge({ createdAt: '2025-01-01T11:00:00.000Z' });
    expect(newestFirst([old, fresh]).map((c) => c.id)).toEqual([fresh.id, old.id]);

    const now = new Date('2025-01-01T12:00:00.000Z');
    const expired = makeChallenge({ expiresAt: '2025-01-01T11:59:59.000Z' });
    const later = makeChallenge({ expiresAt: '2025-01-01T13:00:00.000Z' });
    const accepted = makeChallenge({ status: 'accepted', acceptedBy: 'x', matchId: 'm' });
    const gone = makeChallenge();
    const shown = visibleChallenges([old, expired, later, accepted, gone], new Set([gone.id]), now);
    expect(shown.map((c) => c.id)).toEqual([old.id, later.id]);
  });
});
