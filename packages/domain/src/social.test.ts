import { describe, expect, it } from 'vitest';
import { SOCIAL_LIMITS, SOCIAL_TEXT, cameOnline, challengeFriendPath, checkAnswer, isOnline, normalizeSearch } from './social.ts';

const link = { fromId: 'a', toId: 'b', status: 'pending' as const };

describe('checkAnswer', () => {
  it('lets only the addressee accept or decline and only the sender cancel', () => {
    expect(checkAnswer(link, 'b', 'accept')).toEqual({ ok: true });
    expect(checkAnswer(link, 'b', 'decline')).toEqual({ ok: true });
    expect(checkAnswer(link, 'a', 'cancel')).toEqual({ ok: true });
    expect(checkAnswer(link, 'a', 'accept')).toEqual({ ok: false, status: 403, message: SOCIAL_TEXT.notYours });
    expect(checkAnswer(link, 'a', 'decline')).toEqual({ ok: false, status: 403, message: SOCIAL_TEXT.notYours });
    expect(checkAnswer(link, 'b', 'cancel')).toEqual({ ok: false, status: 403, message: SOCIAL_TEXT.notSender });
  });
  it('tells anyone else the request does not exist, and refuses answering twice', () => {
    for (const answer of ['accept', 'decline', 'cancel'] as const) {
      expect(checkAnswer(link, 'c', answer)).toEqual({ ok: false, status: 404, message: SOCIAL_TEXT.requestNotFound });
    }
    expect(checkAnswer({ ...link, status: 'accepted' }, 'b', 'accept')).toEqual({
      ok: false,
      status: 409,
      message: SOCIAL_TEXT.alreadyAnswered,
    });
  });
});

describe('presence', () => {
  const now = new Date('2026-01-01T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  it('is online within the window only', () => {
    expect(isOnline(null, now)).toBe(false);
    expect(isOnline(ago(0), now)).toBe(true);
    expect(isOnline(ago(SOCIAL_LIMITS.onlineWindowMs), now)).toBe(true);
    expect(isOnline(ago(SOCIAL_LIMITS.onlineWindowMs + 1), now)).toBe(false);
    expect(isOnline(ago(5000).toISOString(), now)).toBe(true);
  });
  it('counts as coming online for the first time or after a long absence, not after a reload', () => {
    expect(cameOnline(null, now)).toBe(true);
    expect(cameOnline(ago(60_000), now)).toBe(false);
    expect(cameOnline(ago(SOCIAL_LIMITS.onlineNotifyAfterMs + 1), now)).toBe(true);
  });
});

describe('normalizeSearch', () => {
  it('trims, drops a leading @, needs 2 characters and caps the length', () => {
    expect(normalizeSearch('  @ab ')).toEqual({ ok: true, q: 'ab' });
    expect(normalizeSearch('a')).toEqual({ ok: false, message: SOCIAL_TEXT.searchTooShort });
    expect(normalizeSearch('x'.repeat(40))).toEqual({ ok: true, q: 'x'.repeat(SOCIAL_LIMITS.searchMax) });
  });
});

it('challenges a friend through the wizard with the rematch prefill', () => {
  expect(challengeFriendPath('6f1c0f8e-0000-4000-8000-000000000001')).toBe(
    '/create-challenge?opponent=6f1c0f8e-0000-4000-8000-000000000001',
  );
});
