import { describe, expect, it } from 'vitest';
import { dismiss, dropExpired, markRead, readAll, upsert, withCounts, type ListedNotification } from './list-state.ts';

let seq = 0;
function note(overrides: Partial<ListedNotification> = {}): ListedNotification {
  seq += 1;
  return {
    id: `n${seq}`,
    status: 'unread',
    read: false,
    readAt: null,
    urgent: false,
    persistent: false,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, seq)).toISOString(),
    expiresAt: null,
    version: 1,
    ...overrides,
  };
}

const AT = '2026-01-02T00:00:00.000Z';

describe('notification list state', () => {
  it('counts unread and urgent unread', () => {
    const list = withCounts([note(), note({ urgent: true }), note({ read: true, status: 'read', urgent: true })]);
    expect(list.unread).toBe(2);
    expect(list.urgentUnread).toBe(1);
  });

  it('a realtime insert goes first and raises the counts; the same one twice is added once', () => {
    const old = note();
    const fresh = note({ urgent: true });
    let list = upsert(withCounts([old]), fresh);
    list = upsert(list, fresh);
    expect(list.notifications.map((n) => n.id)).toEqual([fresh.id, old.id]);
    expect(list.unread).toBe(2);
    expect(list.urgentUnread).toBe(1);
  });

  it('an update replaces the row unless ours is newer; archived or dismissed leave the list', () => {
    const n = note();
    const list = withCounts([n]);
    const read = upsert(list, { ...n, read: true, readAt: AT, status: 'read', version: 2 });
    expect(read.unread).toBe(0);
    expect(upsert(read, { ...n, version: 1 })).toBe(read); // a stale event changes nothing
    expect(upsert(read, { ...n, status: 'dismissed', version: 3 }).notifications).toEqual([]);
    expect(upsert(read, { ...n, status: 'archived', version: 3 }).notifications).toEqual([]);
  });

  it('read all marks every unread one read', () => {
    const list = readAll(withCounts([note(), note({ urgent: true }), note()]), AT);
    expect(list.unread).toBe(0);
    expect(list.urgentUnread).toBe(0);
    expect(list.notifications.every((n) => n.read && n.readAt === AT && n.status === 'read')).toBe(true);
  });

  it('a read-all event leaves the ones made after it unread', () => {
    const early = note();
    const late = note();
    const list = readAll(withCounts([early, late]), AT, early.createdAt);
    expect(list.notifications.find((n) => n.id === early.id)?.read).toBe(true);
    expect(list.notifications.find((n) => n.id === late.id)?.read).toBe(false);
    expect(list.unread).toBe(1);
  });

  it('mark read changes only that one', () => {
    const a = note();
    const b = note();
    const list = markRead(withCounts([a, b]), a.id, AT);
    expect(list.notifications.find((n) => n.id === a.id)?.read).toBe(true);
    expect(list.notifications.find((n) => n.id === b.id)?.read).toBe(false);
    expect(list.unread).toBe(1);
  });

  it('dismiss removes a normal one and only marks a persistent one read', () => {
    const normal = note();
    const persistent = note({ persistent: true });
    const list = withCounts([normal, persistent]);
    const afterNormal = dismiss(list, normal.id, AT);
    expect(afterNormal.notifications.map((n) => n.id)).toEqual([persistent.id]);
    const afterPersistent = dismiss(list, persistent.id, AT);
    expect(afterPersistent.notifications).toHaveLength(2);
    expect(afterPersistent.notifications.find((n) => n.id === persistent.id)?.read).toBe(true);
    expect(afterPersistent.unread).toBe(1);
  });

  it('drops expired ones', () => {
    const now = Date.parse(AT);
    const expired = note({ expiresAt: new Date(now - 1).toISOString() });
    const later = note({ expiresAt: new Date(now + 60_000).toISOString() });
    const forever = note();
    const list = withCounts([expired, later, forever]);
    expect(dropExpired(list, now).notifications.map((n) => n.id)).toEqual([later.id, forever.id]);
    const clean = withCounts([later]);
    expect(dropExpired(clean, now)).toBe(clean);
  });
});
