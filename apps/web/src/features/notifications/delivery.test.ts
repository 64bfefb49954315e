import { describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_PREFERENCES, DEFAULT_QUIET_HOURS, TOAST_DURATIONS } from '@versus/domain/notifications';
import { decideDelivery, toastDuration, type Deliverable, type DeliveryContext, type DeliveryPreferences } from './delivery.ts';

const on = { enabled: true, sound: true, browser: true };
function prefs(
  overrides: Partial<DeliveryPreferences['general']> = {},
  categories: Partial<DeliveryPreferences['categories']> = {},
): DeliveryPreferences {
  const { match, challenge, social } = DEFAULT_NOTIFICATION_PREFERENCES;
  return {
    match,
    challenge,
    social,
    general: { sound: true, browser: true, quietHours: DEFAULT_QUIET_HOURS, ...overrides },
    categories: {
      match: on,
      challenge: on,
      financial: { ...on, sound: false },
      social: { ...on, browser: false },
      system: on,
      ...categories,
    },
  };
}

const accepted: Deliverable = {
  type: 'challenge_accepted',
  category: 'challenge',
  priority: 'high',
  urgent: true,
  silent: false,
  persistent: false,
  metadata: {},
};

const NOON = new Date('2026-03-01T12:00:00Z');
const MIDNIGHT = new Date('2026-03-01T23:30:00Z');
const visible: DeliveryContext = { now: NOON, tabHidden: false, permission: 'granted', interacted: true };
const hidden: DeliveryContext = { ...visible, tabHidden: true };
const quiet = { enabled: true, start: '22:00', end: '08:00', timeZone: 'UTC' };

describe('delivery channels', () => {
  it('visible tab: toast, urgent sound and vibration; no system notification', () => {
    const d = decideDelivery(accepted, prefs(), visible);
    expect(d.toast).not.toBeNull();
    expect(d.sound).toBe('urgent');
    expect(d.vibrate).toBe('urgent');
    expect(d.system).toBe(false);
  });

  it('hidden tab: a system notification instead of the toast, when permitted', () => {
    const d = decideDelivery(accepted, prefs(), hidden);
    expect(d.toast).toBeNull();
    expect(d.system).toBe(true);
    expect(decideDelivery(accepted, prefs(), { ...hidden, permission: 'default' }).system).toBe(false);
    expect(decideDelivery(accepted, prefs(), { ...hidden, permission: 'denied' }).system).toBe(false);
    expect(decideDelivery(accepted, prefs({ browser: false }), hidden).system).toBe(false);
  });

  it('a disabled category delivers nothing (the list still has it)', () => {
    const d = decideDelivery(accepted, prefs({}, { challenge: { enabled: false, sound: true, browser: true } }), visible);
    expect(d).toEqual({ toast: null, sound: null, system: false, vibrate: null });
  });

  it('an event whose own switch is off delivers nothing ("When it\'s my turn", "My challenge is accepted"...)', () => {
    const off = { ...prefs(), challenge: { ...DEFAULT_NOTIFICATION_PREFERENCES.challenge, accepted: false } };
    expect(decideDelivery(accepted, off, visible)).toEqual({ toast: null, sound: null, system: false, vibrate: null });
    const turn: Deliverable = { ...accepted, type: 'match_move_made', category: 'match' };
    expect(decideDelivery(turn, prefs(), visible).toast).not.toBeNull();
    const noTurns = { ...prefs(), match: { ...DEFAULT_NOTIFICATION_PREFERENCES.match, turnAlerts: false } };
    expect(decideDelivery(turn, noTurns, visible).toast).toBeNull();
  });

  it('sound needs both the general and the category switch; financial is silent by default', () => {
    expect(decideDelivery(accepted, prefs({ sound: false }), visible).sound).toBeNull();
    const earned: Deliverable = { ...accepted, type: 'credits_earned', category: 'financial', priority: 'normal', urgent: false };
    expect(decideDelivery(earned, prefs(), visible).sound).toBeNull();
    const friend: Deliverable = { ...accepted, type: 'friend_request', category: 'social', priority: 'low', urgent: false };
    expect(decideDelivery(friend, prefs(), hidden).system).toBe(false); // social: browser off by default
    expect(decideDelivery(friend, prefs(), visible).sound).toBe('social');
  });

  it('quiet hours (22:00–08:00, across midnight) silence sound, system notifications and vibration, not the toast', () => {
    const p = prefs({ quietHours: quiet });
    const inQuiet = decideDelivery(accepted, p, { ...visible, now: MIDNIGHT });
    expect(inQuiet.toast).not.toBeNull();
    expect(inQuiet.sound).toBeNull();
    expect(inQuiet.vibrate).toBeNull();
    expect(decideDelivery(accepted, p, { ...hidden, now: new Date('2026-03-01T07:59:00Z') }).system).toBe(false);
    expect(decideDelivery(accepted, p, { ...visible, now: NOON }).sound).toBe('urgent');
    // Off by default.
    expect(decideDelivery(accepted, prefs(), { ...visible, now: MIDNIGHT }).sound).toBe('urgent');
  });

  it('a silent notification makes no sound and no vibration', () => {
    const d = decideDelivery({ ...accepted, silent: true }, prefs(), visible);
    expect(d.sound).toBeNull();
    expect(d.vibrate).toBeNull();
    expect(d.toast).not.toBeNull();
  });

  it('vibrates only after the first interaction', () => {
    expect(decideDelivery(accepted, prefs(), { ...visible, interacted: false }).vibrate).toBeNull();
  });
});

describe('toast durations (SPEC §9)', () => {
  const base = { priority: 'normal' as const, persistent: false, metadata: {} };
  it('4 s by default, 8 s when persistent', () => {
    expect(toastDuration({ ...base, type: 'match_confirmed' })).toBe(4_000);
    expect(toastDuration({ ...base, type: 'match_confirmed', persistent: true })).toBe(8_000);
  });
  it('by kind: success 5 s, warning and info 6 s, error 10 s, critical 15 s', () => {
    expect(toastDuration({ ...base, type: 'credits_earned' })).toBe(5_000);
    expect(toastDuration({ ...base, type: 'match_disputed' })).toBe(6_000);
    expect(toastDuration({ ...base, type: 'system_announcement' })).toBe(6_000);
    expect(toastDuration({ ...base, type: 'security_alert' })).toBe(10_000);
    expect(toastDuration({ ...base, type: 'challenge_accepted', priority: 'critical' })).toBe(15_000);
  });
  it('reminders: 1 hour before 5 s, at start 10 s; opponent ready stays until dismissed', () => {
    expect(toastDuration({ ...base, type: 'match_reminder', metadata: { reminderKind: 'before_1h' } })).toBe(5_000);
    expect(toastDuration({ ...base, type: 'match_reminder', priority: 'critical', metadata: { reminderKind: 'at_start' } })).toBe(10_000);
    expect(toastDuration({ ...base, type: 'match_ready' })).toBe(TOAST_DURATIONS.opponentReady);
  });
});
