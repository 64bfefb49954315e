import { describe, expect, it } from 'vitest';
import { TOAST_LATE_MS, createFromTemplate, type Notification } from '@versus/domain/notifications';
import { callToActionSubject, isLate, shouldToast, type StatusReader } from './still-current.ts';

const NOW = Date.parse('2026-11-27T12:00:00Z');

function note(type: Parameters<typeof createFromTemplate>[0], metadata: Record<string, unknown>, createdAt = new Date(NOW)): Notification {
  const draft = createFromTemplate(type, metadata, { now: createdAt });
  const at = createdAt.toISOString();
  return {
    ...draft,
    id: 'n1',
    userId: 'u1',
    status: 'unread',
    read: false,
    readAt: null,
    createdAt: at,
    timestamp: at,
    expiresAt: null,
    matchId: typeof metadata['matchId'] === 'string' ? metadata['matchId'] : null,
    challengeId: null,
    creatorId: null,
    version: 1,
  };
}

const statuses = (match: string, challenge = 'open'): StatusReader => ({
  match: async () => match,
  challenge: async () => challenge,
});

describe('whether a notification still toasts', () => {
  const ready = note('match_ready', { matchId: 'm1', gameType: 'chess', opponentName: 'Bob' });

  it('finds the subject of a call to action (join, play), and none for a plain notice', () => {
    expect(callToActionSubject(ready)).toEqual({ kind: 'match', id: 'm1' });
    expect(callToActionSubject(note('system_announcement', { message: 'Hello' }))).toBeNull();
  });

  it('drops a toast past its moment', () => {
    expect(isLate(ready, NOW + TOAST_LATE_MS)).toBe(false);
    expect(isLate(ready, NOW + TOAST_LATE_MS + 1)).toBe(true);
  });

  it('toasts a call to action only while its match still takes it', async () => {
    expect(await shouldToast(ready, NOW, statuses('pending'))).toBe(true);
    expect(await shouldToast(ready, NOW, statuses('in_progress'))).toBe(true);
    for (const over of ['completed', 'cancelled', 'disputed']) expect(await shouldToast(ready, NOW, statuses(over))).toBe(false);
    expect(await shouldToast(ready, NOW + TOAST_LATE_MS + 1, statuses('pending'))).toBe(false);
  });

  it('toasts a plain notice without asking, and a call to action whose match cannot be read', async () => {
    const asked: string[] = [];
    const reader: StatusReader = { match: async (id) => (asked.push(id), 'completed'), challenge: async () => 'open' };
    expect(await shouldToast(note('system_announcement', { message: 'Hello' }), NOW, reader)).toBe(true);
    expect(asked).toEqual([]);
    const failing: StatusReader = {
      match: () => Promise.reject(new Error('offline')),
      challenge: () => Promise.reject(new Error('offline')),
    };
    expect(await shouldToast(ready, NOW, failing)).toBe(true);
  });
});
