import { describe, expect, it } from 'vitest';
import type { RealtimeUpdate } from '../../realtime/client.ts';
import { refetchesOn } from '../../realtime/use-topic-refetch.ts';
import { MINE_REFETCH, QUEUE_REFETCH } from './verification.api.ts';

const event = (type: string): RealtimeUpdate => ({ kind: 'event', topic: 'admin', v: 1, type, payload: {} });
const gap: RealtimeUpdate = { kind: 'gap', topic: 'admin' };
const resumed: RealtimeUpdate = { kind: 'resumed', topic: 'admin' };

describe('verification realtime refetch', () => {
  it('refreshes my state on verification.updated or a gap only', () => {
    expect(refetchesOn(event('verification.updated'), MINE_REFETCH)).toBe(true);
    expect(refetchesOn(gap, MINE_REFETCH)).toBe(true);
    expect(refetchesOn(event('verification.requested'), MINE_REFETCH)).toBe(false);
    expect(refetchesOn(event('match.finished'), MINE_REFETCH)).toBe(false);
    expect(refetchesOn(resumed, MINE_REFETCH)).toBe(false);
  });

  it('refreshes the queue on any verification.* event or a gap', () => {
    expect(refetchesOn(event('verification.requested'), QUEUE_REFETCH)).toBe(true);
    expect(refetchesOn(event('verification.updated'), QUEUE_REFETCH)).toBe(true);
    expect(refetchesOn(gap, QUEUE_REFETCH)).toBe(true);
    expect(refetchesOn(event('feedback.created'), QUEUE_REFETCH)).toBe(false);
    expect(refetchesOn(event('xverification.updated'), QUEUE_REFETCH)).toBe(false);
    expect(refetchesOn(resumed, QUEUE_REFETCH)).toBe(false);
  });
});
