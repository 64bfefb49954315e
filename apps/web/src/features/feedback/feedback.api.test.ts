import { describe, expect, it } from 'vitest';
import type { RealtimeUpdate } from '../../realtime/client.ts';
import { refetchesOn } from '../../realtime/use-topic-refetch.ts';
import { ADMIN_FEEDBACK_REFETCH, MY_FEEDBACK_REFETCH } from './feedback.api.ts';

const event = (type: string): RealtimeUpdate => ({ kind: 'event', topic: 'admin', v: 1, type, payload: {} });

describe('admin feedback realtime refetch', () => {
  it('refreshes the admin list on any feedback.* event or a gap', () => {
    expect(refetchesOn(event('feedback.created'), ADMIN_FEEDBACK_REFETCH)).toBe(true);
    expect(refetchesOn(event('feedback.answered'), ADMIN_FEEDBACK_REFETCH)).toBe(true);
    expect(refetchesOn({ kind: 'gap', topic: 'admin' }, ADMIN_FEEDBACK_REFETCH)).toBe(true);
    expect(refetchesOn(event('verification.updated'), ADMIN_FEEDBACK_REFETCH)).toBe(false);
    expect(refetchesOn({ kind: 'resumed', topic: 'admin' }, ADMIN_FEEDBACK_REFETCH)).toBe(false);
  });
});

describe("a player's own feedback realtime refetch", () => {
  it('refreshes my messages when one is answered, and after a gap (an answer missed while offline)', () => {
    const mine = (type: string): RealtimeUpdate => ({ kind: 'event', topic: 'user:u1', v: 1, type, payload: {} });
    expect(refetchesOn(mine('feedback.answered'), MY_FEEDBACK_REFETCH)).toBe(true);
    expect(refetchesOn({ kind: 'gap', topic: 'user:u1' }, MY_FEEDBACK_REFETCH)).toBe(true);
    expect(refetchesOn(mine('feedback.created'), MY_FEEDBACK_REFETCH)).toBe(false);
    expect(refetchesOn(mine('balance'), MY_FEEDBACK_REFETCH)).toBe(false);
  });
});
