import { describe, expect, it } from 'vitest';
import type { RealtimeUpdate } from './client.ts';
import { refetchesOn, topicRefetchListener, type RefetchOn } from './use-topic-refetch.ts';

const topic = 'user:u1';
const event = (type: string): RealtimeUpdate => ({ kind: 'event', topic, v: 1, type, payload: {} });
const hint = (type: string): RealtimeUpdate => ({ kind: 'hint', topic, type, payload: {} });
const gap: RealtimeUpdate = { kind: 'gap', topic };
const resumed: RealtimeUpdate = { kind: 'resumed', topic };
const subscribed: RealtimeUpdate = { kind: 'subscribed', topic };
const refused: RealtimeUpdate = { kind: 'error', topic, code: 'forbidden_topic', message: 'no' };

/** How many times the listener refetched over `updates`. */
function refetches(on: RefetchOn, updates: RealtimeUpdate[]): number {
  let count = 0;
  const listener = topicRefetchListener(on, () => count++);
  for (const update of updates) listener(update);
  return count;
}

describe('topicRefetchListener', () => {
  it('refetches on an event of a named type, by list, set, pattern or test', () => {
    expect(refetches({ types: ['social.changed'] }, [event('social.changed')])).toBe(1);
    expect(refetches({ types: new Set(['balance']) }, [event('balance')])).toBe(1);
    expect(refetches({ types: /^(match|profile)\./ }, [event('match.finished'), event('profile.updated')])).toBe(2);
    expect(refetches({ types: (t) => t.startsWith('feedback.') }, [event('feedback.created')])).toBe(1);
  });

  it('does not refetch on an unrelated event type', () => {
    expect(refetches({ types: ['social.changed'] }, [event('match.finished'), event('social.changed.x')])).toBe(0);
    expect(refetches({ types: /^(match|profile)\./ }, [event('notification.created'), event('rematch.offered')])).toBe(0);
  });

  it('refetches on a gap whatever the types', () => {
    expect(refetches({ types: ['social.changed'] }, [gap])).toBe(1);
    expect(refetches({ types: [] }, [gap, gap])).toBe(2);
  });

  it('refetches when the topic starts being followed: the snapshot may predate the subscription', () => {
    expect(refetches({ types: ['social.changed'] }, [subscribed])).toBe(1);
    expect(refetches({ types: [] }, [subscribed, event('x')])).toBe(1);
  });

  it('refetches after a reconnect only when asked to', () => {
    expect(refetches({ types: ['balance'], resumed: true }, [resumed])).toBe(1);
    expect(refetches({ types: ['balance'] }, [resumed])).toBe(0);
  });

  it('takes hints of the named types only when asked to', () => {
    expect(refetches({ types: ['balance'], hints: true }, [hint('balance'), hint('other')])).toBe(1);
    expect(refetches({ types: ['balance'] }, [hint('balance')])).toBe(0);
  });

  it('never refetches on a refused subscription', () => {
    expect(refetchesOn(refused, { types: () => true, hints: true, resumed: true })).toBe(false);
  });
});
