import { describe, expect, it } from 'vitest';
import { disputeQuery } from './admin-api.ts';

describe('disputeQuery', () => {
  it('keeps only the filters set', () => {
    expect(disputeQuery({})).toBe('');
    expect(disputeQuery({ game: 'fifa-24', minAgeMinutes: 5, minStake: Number.NaN, maxStake: undefined })).toBe('?game=fifa-24&minAgeMinutes=5');
    expect(disputeQuery({ game: '', status: 'all', maxStake: 100 })).toBe('?status=all&maxStake=100');
  });
});
