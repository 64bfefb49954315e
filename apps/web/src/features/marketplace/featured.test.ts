import { describe, expect, it } from 'vitest';
import { makeChallenge } from './challenge.fixture.ts';
import { featuredFrom, pickFeatured, toFeatured } from './featured.ts';

describe('featured challenges', () => {
  it('keeps the samples when nothing is open', () => {
    expect(featuredFrom(undefined)).toBeUndefined();
    expect(featuredFrom([])).toBeUndefined();
  });

  it('shows the biggest open stakes, at most four, in the landing card shape', () => {
    const list = [10, 500, 25, 100, 75, 5].map((stake) => makeChallenge({ stake }));
    expect(pickFeatured(list).map((c) => c.stake)).toEqual([500, 100, 75, 25]);
    const fortnite = makeChallenge({ game: 'fortnite', platform: 'playstation', stake: 50, title: 'Zone Wars' });
    expect(toFeatured(fortnite)).toEqual({ id: fortnite.id, game: 'Fortnite', title: 'Zone Wars', platform: 'PlayStation', stake: 5000 });
    expect(featuredFrom([fortnite])).toHaveLength(1);
  });
});
