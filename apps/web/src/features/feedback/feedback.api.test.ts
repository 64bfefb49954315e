import { describe, expect, it } from 'vitest';
import type { RealtimeUpdate } from '../../realtime/client.ts';
import { refetchesOn } from '../../realtime/use-topic-refetch.ts';
import { ADMIN_FEEDBACK_REFETCH } from './feedback.api.ts';

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
