import { describe, expect, it } from 'vitest';
import { makeChallenge } from './challenge.fixture.ts';
import { NO_FILTERS } from './filters.ts';
import { addToList, liveChange, removeFromList, replaceInList } from './live.ts';

describe('live marketplace updates', () => {
  it('adds a created public challenge that matches the filters', () => {
    const challenge = makeChallenge({ game: 'chess' });
    expect(liveChange('challenge.created', { challengeId: challenge.id, status: 'open', challenge }, NO_FILTERS)).toEqual({
      kind: 'add',
      challenge,
    });
    expect(liveChange('challenge.created', { challenge }, { ...NO_FILTERS, game: 'ludo' })).toEqual({ kind: 'none' });
    expect(liveChange('challenge.created', { challenge: { ...challenge, isPrivate: true, code: 'ABC234' } }, NO_FILTERS)).toEqual({
      kind: 'none',
    });
  });

  it('refetches when a created event carries no usable challenge', () => {
    expect(liveChange('challenge.created', { challengeId: 'x', status: 'open' }, NO_FILTERS)).toEqual({ kind: 'refetch' });
    expect(liveChange('challenge.created', null, NO_FILTERS)).toEqual({ kind: 'refetch' });
  });

  it('removes accepted, cancelled and expired challenges', () => {
    for (const type of ['challenge.accepted', 'challenge.cancelled', 'challenge.expired']) {
      expect(liveChange(type, { challengeId: 'abc', status: 'x' }, NO_FILTERS)).toEqual({ kind: 'remove', id: 'abc' });
    }
    expect(liveChange('challenge.accepted', {}, NO_FILTERS)).toEqual({ kind: 'refetch' });
    expect(liveChange('challenge.joined', { challengeId: 'abc' }, NO_FILTERS)).toEqual({ kind: 'refetch' });
    expect(liveChange('something.else', {}, NO_FILTERS)).toEqual({ kind: 'none' });
  });

  it('adds once, newest first, capped at 50; removes and replaces by id', () => {
    const list = Array.from({ length: 50 }, (_, i) => makeChallenge({ createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString() }));
    const fresh = makeChallenge({ createdAt: '2025-02-01T00:00:00.000Z' });
    const added = addToList(list, fresh)!;
    expect(added).toHaveLength(50);
    expect(added[0]!.id).toBe(fresh.id);
    expect(addToList(added, fresh)).toHaveLength(50);
    expect(addToList(undefined, fresh)).toBeUndefined();
    expect(removeFromList(added, fresh.id)!.some((c) => c.id === fresh.id)).toBe(false);
    expect(replaceInList(added, { ...fresh, views: 9 })![0]!.views).toBe(9);
  });
});
