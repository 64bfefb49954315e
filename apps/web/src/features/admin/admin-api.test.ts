import { describe, expect, it } from 'vitest';
import { disputeQuery, playedIn } from './admin-api.ts';

describe('disputeQuery', () => {
  it('keeps only the filters set', () => {
    expect(disputeQuery({})).toBe('');
    expect(disputeQuery({ game: 'fifa-24', minAgeMinutes: 5, minStake: Number.NaN, maxStake: undefined })).toBe(
      '?game=fifa-24&minAgeMinutes=5',
    );
    expect(disputeQuery({ game: '', status: 'all', maxStake: 100 })).toBe('?status=all&maxStake=100');
  });
});

describe('playedIn', () => {
  it('is true only for the two players of the disputed match', () => {
    const dispute = { player1: { id: 'p1', username: 'a' }, player2: { id: 'p2', username: 'b' } };
    expect(playedIn(dispute, 'p1')).toBe(true);
    expect(playedIn(dispute, 'p2')).toBe(true);
    expect(playedIn(dispute, 'admin')).toBe(false);
    expect(playedIn(dispute, undefined)).toBe(false);
  });
});
