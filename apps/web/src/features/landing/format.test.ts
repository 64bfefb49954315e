import { describe, expect, it } from 'vitest';
import { formatCount, formatCredits, payoutFor } from './format.ts';
import { SAMPLE_FEATURED_CHALLENGES } from './landing.content.ts';

describe('landing formatting', () => {
  it('shows credits at 2 decimals with grouping', () => {
    expect(formatCredits(50_000)).toBe('$500.00');
    expect(formatCredits(100_000)).toBe('$1,000.00');
    expect(formatCredits(1234)).toBe('$12.34');
  });

  it('pays out twice the stake', () => {
    expect(payoutFor(30_000)).toBe(60_000);
  });

  it('groups whole counts', () => {
    expect(formatCount(1247)).toBe('1,247');
    expect(formatCount(89_420)).toBe('89,420');
  });

  it('has the two SPEC samples: Fortnite at 500 and Valorant at 300 credits', () => {
    expect(SAMPLE_FEATURED_CHALLENGES.map((c) => [c.game, formatCredits(c.stake), formatCredits(payoutFor(c.stake))])).toEqual([
      ['Fortnite', '$500.00', '$1,000.00'],
      ['Valorant', '$300.00', '$600.00'],
    ]);
  });
});
