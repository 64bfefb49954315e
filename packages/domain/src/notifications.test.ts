import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NOTIFICATIONS } from './messages.ts';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_PRIORITIES,
  NOTIFICATION_TEMPLATES,
  NOTIFICATION_TYPES,
  NotificationTemplateError,
  badgeText,
  channelAllowed,
  createFromTemplate,
  filterByCategory,
  groupNotifications,
  isMinuteInQuietWindow,
  isQuietHours,
  isUrgent,
  missingFields,
  notificationPreferencesSchema,
  readPreferences,
  reminderDueAt,
  retentionMs,
  searchNotifications,
  shortMessage,
  timerPriority,
  tryCreateFromTemplate,
  visibleNotifications,
  type Groupable,
  type NotificationType,
} from './notifications.ts';

/** Metadata that satisfies every template. */
const FULL = {
  matchId: 'm1',
  challengeId: 'c1',
  gameType: 'chess',
  opponentName: 'Bob',
  betAmount: 10,
  currency: 'credits',
  minutesUntil: 15,
  reminderKind: 'at_start',
  result: 'win',
  amount: 20,
  username: 'carol',
  roomCode: 'ABC234',
  message: 'Servers restart at noon.',
  tournamentId: 't1',
  tournamentName: 'Friday Blitz',
  place: 2,
};

describe('templates', () => {
  it("cover all 34 types of SPEC §3 and the tournaments' 6, each with a category and a priority", () => {
    expect(NOTIFICATION_TYPES).toHaveLength(40);
    expect(new Set(NOTIFICATION_TYPES).size).toBe(40);
    expect(Object.keys(NOTIFICATION_TEMPLATES).sort()).toEqual([...NOTIFICATION_TYPES].sort());
    for (const type of NOTIFICATION_TYPES) {
      const t = NOTIFICATION_TEMPLATES[type];
      expect(NOTIFICATION_CATEGORIES).toContain(t.category);
      expect(NOTIFICATION_PRIORITIES).toContain(t.priority);
      const draft = createFromTemplate(type, FULL, { now: new Date(0) });
      expect(draft.title.length, type).toBeGreaterThan(0);
      expect(draft.message.length, type).toBeGreaterThan(0);
      expect(draft.message, type).not.toMatch(/undefined|null|NaN|\[object/);
      for (const action of draft.actions) expect(action.url, type).toMatch(/^\//);
    }
  });

  it('refuse missing metadata with "Missing required fields: ..."', () => {
    expect(() => createFromTemplate('match_invitation', { gameType: 'chess' })).toThrow(
      new NotificationTemplateError('match_invitation', ['opponentName', 'betAmount']),
    );
    expect(() => createFromTemplate('match_invitation', {})).toThrow('Missing required fields: gameType, opponentName, betAmount');
    expect(
      tryCreateFromTemplate('challenge_accepted', { matchId: 'm', challengeId: '', gameType: null, opponentName: 'x', betAmount: 0 }),
    ).toEqual({
      ok: false,
      missing: ['challengeId', 'gameType'],
      message: NOTIFICATIONS.missingFields(['challengeId', 'gameType']),
    });
    // 0 is a value, not a hole.
    expect(missingFields('match_invitation', { gameType: 'chess', opponentName: 'Bob', betAmount: 0 })).toEqual([]);
    for (const type of NOTIFICATION_TYPES) {
      if (NOTIFICATION_TEMPLATES[type].requiredFields.length === 0) continue;
      expect(tryCreateFromTemplate(type, null).ok, type).toBe(false);
    }
  });

  it('challenge accepted names the opponent, the stake and opens /matches?highlight={matchId}', () => {
    const now = new Date('2026-01-01T12:00:00Z');
    const draft = createFromTemplate('challenge_accepted', { ...FULL, matchId: 'abc' }, { now });
    expect(draft).toMatchObject({
      title: 'Challenge Accepted',
      message: 'Bob accepted your Chess challenge for $10.00.',
      category: 'challenge',
      priority: 'high',
      urgent: true,
      targetUrl: '/matches?highlight=abc',
      actions: [{ label: 'View Match', url: '/matches?highlight=abc', type: 'view' }],
      expiresAt: new Date('2026-01-01T12:30:00Z'),
    });
  });

  it('expire per SPEC §9 and persist where dismiss must only mark read', () => {
    const expiry: Partial<Record<NotificationType, number>> = {
      match_invitation: 30,
      match_confirmed: 60,
      match_starting_soon: 15,
      match_ready: 10,
      match_in_progress: 30,
      match_move_made: 120,
      challenge_accepted: 30,
    };
    for (const [type, minutes] of Object.entries(expiry))
      expect(NOTIFICATION_TEMPLATES[type as NotificationType].expiresInMinutes).toBe(minutes);
    expect(createFromTemplate('match_started', FULL).expiresAt).toBeNull();
    expect(NOTIFICATION_TEMPLATES.security_alert).toMatchObject({ persistent: true, priority: 'critical' });
  });

  it('match results: win, draw and loss', () => {
    expect(createFromTemplate('match_completed', { ...FULL, result: 'win' }).title).toBe('You Won!');
    expect(createFromTemplate('match_completed', { ...FULL, result: 'draw' }).title).toBe('Match Drawn');
    expect(createFromTemplate('match_completed', { ...FULL, result: 'loss' }).title).toBe('Match Lost');
    expect(createFromTemplate('match_started', FULL).title).toBe('Match Started');
    // Web games open in the arena, others in /matches.
    expect(createFromTemplate('match_started', FULL).targetUrl).toBe('/live-arena?match=m1');
    expect(createFromTemplate('match_started', { ...FULL, gameType: 'fortnite' }).targetUrl).toBe('/matches?highlight=m1');
  });

  it('urgent reminders (at start, window closing) are critical; a priority can be given', () => {
    expect(createFromTemplate('match_reminder', { ...FULL, reminderKind: 'at_start' }).priority).toBe('critical');
    expect(createFromTemplate('match_reminder', { ...FULL, reminderKind: 'before_1h' }).priority).toBe('normal');
    expect(createFromTemplate('match_reminder', { ...FULL, reminderKind: 'before_1h' }, { priority: 'high' }).urgent).toBe(true);
  });

  it('an external game is played on the players’ platform and reported: no "Join now", no "Join Match"', () => {
    const fifa = { ...FULL, gameType: 'fifa-24' };
    for (const kind of ['at_start', 'closing_5m']) {
      const n = createFromTemplate('match_reminder', { ...fifa, reminderKind: kind });
      expect(n.message).toContain(NOTIFICATIONS.playOnPlatform);
      expect(n.message).not.toContain('Join now');
      expect(n.actions).toEqual([{ label: NOTIFICATIONS.reportAction, url: '/matches?highlight=m1', type: 'view' }]);
    }
    expect(createFromTemplate('match_reminder', { ...fifa, reminderKind: 'at_start' }).title).toBe('Match Starting Now');
    expect(createFromTemplate('match_reminder', { ...fifa, reminderKind: 'closing_5m' }).title).toBe('Match in Progress');
    expect(createFromTemplate('match_reminder', { ...FULL, reminderKind: 'closing_5m' }).title).toBe('Join Window Closing');
    for (const type of ['match_starting_soon', 'match_ready', 'match_started'] as const) {
      expect(createFromTemplate(type, fifa).actions.map((a) => a.label)).not.toContain('Join Match');
    }
    // A web game is still joined in the arena.
    const chess = createFromTemplate('match_reminder', { ...FULL, reminderKind: 'at_start' });
    expect(chess.message).toContain('Join now!');
    expect(chess.actions).toEqual([{ label: 'Join Match', url: '/live-arena?match=m1', type: 'join' }]);
  });

  it('a dispute is followed on the Disputes tab', () => {
    const n = createFromTemplate('match_disputed', { ...FULL, gameType: 'fifa-24' });
    expect(n.actions).toEqual([{ label: NOTIFICATIONS.followDispute, url: '/matches?tab=disputes&highlight=m1', type: 'view' }]);
  });
});

describe('short message and urgency', () => {
  it('cuts at 50 characters: 47 plus "..."', () => {
    expect(shortMessage('x'.repeat(50))).toBe('x'.repeat(50));
    expect(shortMessage('x'.repeat(51))).toBe(`${'x'.repeat(47)}...`);
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        const cut = shortMessage(s);
        expect(cut.length).toBeLessThanOrEqual(50);
        if (s.length <= 50) expect(cut).toBe(s);
        else expect(cut).toBe(`${s.slice(0, 47)}...`);
      }),
    );
  });

  it('high and critical are urgent', () => {
    expect(NOTIFICATION_PRIORITIES.filter(isUrgent)).toEqual(['high', 'critical']);
  });

  it('timer priority: ≤ 5 min critical, ≤ 15 high, else normal', () => {
    expect([0, 5, 5.5, 15, 16, 60].map(timerPriority)).toEqual(['critical', 'critical', 'high', 'high', 'normal', 'normal']);
  });

  it('badge: nothing at 0, "99+" above 99', () => {
    expect([0, 1, 99, 100, 5000].map(badgeText)).toEqual([null, '1', '99', '99+', '99+']);
  });

  it('reminders: 1 hour before, at start, 5 minutes after', () => {
    const start = new Date('2026-01-01T12:00:00Z');
    expect(reminderDueAt(start, 'before_1h').toISOString()).toBe('2026-01-01T11:00:00.000Z');
    expect(reminderDueAt(start, 'at_start').toISOString()).toBe('2026-01-01T12:00:00.000Z');
    expect(reminderDueAt(start, 'closing_5m').toISOString()).toBe('2026-01-01T12:05:00.000Z');
  });

  it('retention per category', () => {
    expect(retentionMs('social')).toBe(7 * 86_400_000);
    expect(retentionMs('financial')).toBe(90 * 86_400_000);
  });
});

describe('grouping, search and category filter', () => {
  const n = (type: NotificationType, message: string, title = 'T'): Groupable => ({
    type,
    title,
    message,
    category: NOTIFICATION_TEMPLATES[type].category,
    priority: NOTIFICATION_TEMPLATES[type].priority,
  });
  const list = [
    n('match_started', 'Your chess game has started.'),
    n('challenge_accepted', 'Bob accepted your challenge. Your match is ready.'),
    n('friend_request', 'carol sent you a friend request.'),
    n('follow_accepted', 'dave accepted your Follow request.'),
    n('system_announcement', 'Servers restart at noon.', 'Heads UP'),
    n('security_alert', 'New sign-in.'),
  ];

  it('all, urgent, match (match types or mentions of match), social (friend or follow)', () => {
    expect(groupNotifications(list, 'all')).toHaveLength(6);
    expect(groupNotifications(list, 'urgent').map((x) => x.type)).toEqual(['match_started', 'challenge_accepted', 'security_alert']);
    expect(groupNotifications(list, 'match').map((x) => x.type)).toEqual(['match_started', 'challenge_accepted']);
    expect(groupNotifications(list, 'social').map((x) => x.type)).toEqual(['friend_request', 'follow_accepted']);
  });

  it('search reads title, message and type, case-insensitively', () => {
    expect(searchNotifications(list, 'heads up').map((x) => x.type)).toEqual(['system_announcement']);
    expect(searchNotifications(list, 'FRIEND').map((x) => x.type)).toEqual(['friend_request']);
    expect(searchNotifications(list, 'security_ALERT').map((x) => x.type)).toEqual(['security_alert']);
    expect(searchNotifications(list, '  ')).toHaveLength(6);
  });

  it('category filter, combined with a tab and a search', () => {
    expect(filterByCategory(list, 'social').map((x) => x.type)).toEqual(['friend_request', 'follow_accepted']);
    expect(filterByCategory(list, 'all')).toHaveLength(6);
    expect(visibleNotifications(list, { group: 'urgent', category: 'system', query: 'sign' }).map((x) => x.type)).toEqual([
      'security_alert',
    ]);
  });
});

describe('quiet hours', () => {
  const at = (hhmm: string) => new Date(`2026-03-10T${hhmm}:00Z`);
  const on = { ...DEFAULT_NOTIFICATION_PREFERENCES.general.quietHours, enabled: true };

  it('are off by default, 22:00–08:00', () => {
    expect(DEFAULT_NOTIFICATION_PREFERENCES.general.quietHours).toMatchObject({ enabled: false, start: '22:00', end: '08:00' });
    expect(isQuietHours(DEFAULT_NOTIFICATION_PREFERENCES.general.quietHours, at('23:00'))).toBe(false);
  });

  it('span midnight', () => {
    expect(['21:59', '08:00', '12:00'].map((t) => isQuietHours(on, at(t)))).toEqual([false, false, false]);
    expect(['22:00', '23:59', '00:00', '03:30', '07:59'].map((t) => isQuietHours(on, at(t)))).toEqual([true, true, true, true, true]);
  });

  it("within a day, and in the player's time zone", () => {
    expect(isMinuteInQuietWindow(13 * 60, 12 * 60, 14 * 60)).toBe(true);
    expect(isMinuteInQuietWindow(14 * 60, 12 * 60, 14 * 60)).toBe(false);
    // 21:30 UTC is 22:30 in Paris (winter): quiet there.
    expect(isQuietHours({ ...on, timeZone: 'Europe/Paris' }, new Date('2026-01-10T21:30:00Z'))).toBe(true);
    expect(isQuietHours(on, new Date('2026-01-10T21:30:00Z'))).toBe(false);
  });
});

describe('preferences', () => {
  it('defaults follow SPEC §9', () => {
    const p = DEFAULT_NOTIFICATION_PREFERENCES;
    expect(notificationPreferencesSchema.parse(p)).toEqual(p);
    expect(p.categories.match).toMatchObject({ sound: true, priority: 'high' });
    expect(p.categories.financial).toMatchObject({ sound: false, email: true });
    expect(p.categories.social.browser).toBe(false);
    expect(p.match.reminderMinutes).toEqual([60, 15, 5]);
    expect(p.general.maxUnread).toBe(50);
    expect(channelAllowed(p, 'social', 'browser')).toBe(false);
    expect(channelAllowed(p, 'match', 'sound')).toBe(true);
  });

  it('refuse bad values and unknown keys', () => {
    const bad = (change: (p: typeof DEFAULT_NOTIFICATION_PREFERENCES) => unknown) => {
      const p = JSON.parse(JSON.stringify(DEFAULT_NOTIFICATION_PREFERENCES)) as typeof DEFAULT_NOTIFICATION_PREFERENCES;
      change(p);
      return notificationPreferencesSchema.safeParse(p).success;
    };
    expect(bad((p) => (p.general.quietHours.start = '25:00'))).toBe(false);
    expect(bad((p) => (p.general.quietHours.timeZone = 'Mars/Olympus'))).toBe(false);
    expect(bad((p) => (p.match.reminderMinutes = [5, 5]))).toBe(false);
    expect(bad((p) => (p.match.reminderMinutes = []))).toBe(false);
    expect(bad((p) => (p.general.maxUnread = 51))).toBe(false);
    expect(bad((p) => Object.assign(p.general, { extra: true }))).toBe(false);
    expect(bad(() => undefined)).toBe(true);
  });

  it('read back stored JSON over the defaults, never throwing', () => {
    expect(readPreferences(null)).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);
    expect(readPreferences('{not json')).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);
    const partial = readPreferences(JSON.stringify({ general: { sound: false }, match: { reminderMinutes: [30] } }));
    expect(partial.general.sound).toBe(false);
    expect(partial.general.browser).toBe(true);
    expect(partial.match.reminderMinutes).toEqual([30]);
    const broken = readPreferences({ general: { maxUnread: 'lots' }, social: { onlineStatus: true } });
    expect(broken.general).toEqual(DEFAULT_NOTIFICATION_PREFERENCES.general);
    expect(broken.social.onlineStatus).toBe(true);
  });
});
