import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CODE_ALPHABET,
  GAMES,
  GAME_IDS,
  GAME_LIST,
  PLATFORMS,
  QUICK_PICKS,
  codeFromBytes,
  defaultPublicScheduledTime,
  durationPresets,
  effectivePlatform,
  expiryFor,
  formatRelativeTime,
  formatTimeLeft,
  gameDurationPresets,
  isGamertagRequired,
  isValidStake,
  latestScheduleTime,
  normalizeCode,
  payoutFor,
  scheduleSlots,
  shownScheduleSlots,
  stakeTier,
  timeLeftStableMs,
} from './catalogue.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('game catalogue', () => {
  it('names every game and platform of SPEC §1', () => {
    expect([...GAME_IDS].sort()).toEqual(
      [
        'chess',
        'tic-tac-toe',
        'rock-paper-scissors',
        'ludo',
        'checkers',
        'ai-rock-paper-scissors',
        'fortnite',
        'fifa-24',
        'call-of-duty',
        'rocket-league',
        'valorant',
      ].sort(),
    );
    expect([...PLATFORMS]).toEqual(['pc', 'xbox', 'playstation', 'mobile', 'web']);
    expect(GAME_LIST).toHaveLength(11);
  });

  it('plays the browser games on web and the external games on real platforms', () => {
    const web = GAME_LIST.filter((g) => g.kind === 'web').map((g) => g.id);
    expect(web.sort()).toEqual(['ai-rock-paper-scissors', 'checkers', 'chess', 'ludo', 'rock-paper-scissors', 'tic-tac-toe']);
    for (const game of GAME_LIST) {
      expect(game.id).toBe(Object.keys(GAMES).find((k) => GAMES[k as keyof typeof GAMES] === game));
      expect(game.minTime).toBeGreaterThan(0);
      expect(game.maxTime).toBeGreaterThanOrEqual(game.minTime);
      expect(['Easy', 'Medium', 'Hard']).toContain(game.difficulty);
      expect(game.category.length).toBeGreaterThan(0);
      if (game.kind === 'web') expect(game.platforms).toEqual(['web']);
      else {
        expect(game.platforms.length).toBeGreaterThan(0);
        expect(game.platforms).not.toContain('web');
      }
    }
    expect(GAMES.valorant.platforms).toEqual(['pc']);
  });

  it('requires a gamertag unless the platform is web or real-life', () => {
    expect(isGamertagRequired('web')).toBe(false);
    expect(isGamertagRequired('real-life')).toBe(false);
    for (const p of ['pc', 'xbox', 'playstation', 'mobile']) expect(isGamertagRequired(p)).toBe(true);
    expect(isGamertagRequired(null)).toBe(false);
  });

  it('puts web games on web whatever was chosen, and keeps the choice for others', () => {
    expect(effectivePlatform('chess', null)).toBe('web');
    expect(effectivePlatform('fortnite', 'xbox')).toBe('xbox');
    expect(effectivePlatform('fortnite', null)).toBeNull();
  });
});

describe('duration presets', () => {
  it('spreads up to 6 options from minTime to maxTime', () => {
    expect(durationPresets(10, 60)).toEqual([10, 20, 30, 40, 50, 60]);
    expect(durationPresets(5, 15)).toEqual([5, 10, 15]);
    expect(durationPresets(5, 10)).toEqual([5, 10]);
    expect(durationPresets(30, 30)).toEqual([30]);
    expect(durationPresets(15, 45)).toEqual([15, 20, 25, 35, 40, 45]);
    expect(durationPresets(3, 7)).toEqual([3, 4, 5, 6, 7]);
    expect(gameDurationPresets('chess')).toEqual([10, 20, 30, 40, 50, 60]);
  });

  it('always starts at min, ends at max, increases strictly, and has 1 to 6 options', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 600 }), fc.integer({ min: 0, max: 600 }), (min, extra) => {
        const max = min + extra;
        const presets = durationPresets(min, max);
        expect(presets.length).toBeGreaterThanOrEqual(1);
        expect(presets.length).toBeLessThanOrEqual(6);
        expect(presets[0]).toBe(min);
        expect(presets.at(-1)).toBe(max);
        for (let i = 1; i < presets.length; i++) expect(presets[i]!).toBeGreaterThan(presets[i - 1]!);
        for (const p of presets) expect(Number.isInteger(p)).toBe(true);
      }),
    );
  });

  it('offers every game at least one preset inside its range', () => {
    for (const game of GAME_LIST) {
      const presets = gameDurationPresets(game.id);
      expect(presets[0]).toBe(game.minTime);
      expect(presets.at(-1)).toBe(game.maxTime);
    }
  });
});

describe('schedule slots', () => {
  it('gives 24 half-hour slots from the first half-hour mark at least 30 minutes ahead', () => {
    const now = new Date('2025-03-01T10:07:00Z');
    const slots = scheduleSlots(now);
    expect(slots).toHaveLength(24);
    expect(slots[0]!.toISOString()).toBe('2025-03-01T11:00:00.000Z');
    expect(slots[1]!.toISOString()).toBe('2025-03-01T11:30:00.000Z');
    expect(slots[23]!.toISOString()).toBe('2025-03-01T22:30:00.000Z');
    expect(shownScheduleSlots(now)).toEqual(slots.slice(0, 6));
    expect(latestScheduleTime(now)).toEqual(slots[23]);
    // Exactly on a mark: 30 minutes ahead is itself a mark.
    expect(scheduleSlots(new Date('2025-03-01T10:00:00Z'))[0]!.toISOString()).toBe('2025-03-01T10:30:00.000Z');
  });

  it('starts within 30 to 60 minutes and steps by 30 minutes, whatever the time', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_000_000_000_000 }), (ms) => {
        const now = new Date(ms);
        const slots = scheduleSlots(now);
        const lead = slots[0]!.getTime() - ms;
        expect(lead).toBeGreaterThanOrEqual(30 * MINUTE);
        expect(lead).toBeLessThan(60 * MINUTE);
        for (let i = 1; i < slots.length; i++) expect(slots[i]!.getTime() - slots[i - 1]!.getTime()).toBe(30 * MINUTE);
        expect(slots[0]!.getTime() % (30 * MINUTE)).toBe(0);
      }),
    );
  });

  it('defaults a public challenge to 30 minutes after creation', () => {
    expect(defaultPublicScheduledTime(new Date('2025-03-01T10:07:00Z')).toISOString()).toBe('2025-03-01T10:37:00.000Z');
  });
});

describe('stakes', () => {
  it('labels the quick picks Casual, Pro and Elite', () => {
    expect(QUICK_PICKS).toEqual([
      { stake: 10, tier: 'Casual' },
      { stake: 25, tier: 'Casual' },
      { stake: 50, tier: 'Pro' },
      { stake: 100, tier: 'Elite' },
    ]);
    expect(stakeTier(1)).toBe('Casual');
    expect(stakeTier(26)).toBe('Pro');
    expect(stakeTier(51)).toBe('Elite');
    expect(stakeTier(1000)).toBe('Elite');
  });

  it('accepts whole stakes from 1 to 1000 only', () => {
    expect(isValidStake(1)).toBe(true);
    expect(isValidStake(1000)).toBe(true);
    for (const bad of [0, -5, 1001, 10.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(isValidStake(bad)).toBe(false);
    fc.assert(fc.property(fc.integer({ min: 1, max: 1000 }), (s) => isValidStake(s)));
    fc.assert(
      fc.property(
        fc.integer().filter((s) => s < 1 || s > 1000),
        (s) => !isValidStake(s),
      ),
    );
  });

  it('pays out twice the stake', () => {
    expect(payoutFor(25)).toBe(50);
  });
});

describe('expiry', () => {
  it('reads the duration in minutes as hours, as SPEC states', () => {
    const created = new Date('2025-03-01T10:00:00Z');
    expect(expiryFor(created, 30, false)!.toISOString()).toBe('2025-03-02T16:00:00.000Z');
    expect(expiryFor(created, 30, true)).toBeNull();
  });
});

describe('time formatting', () => {
  const now = new Date('2025-03-01T12:00:00Z');
  const at = (ms: number) => new Date(now.getTime() + ms);

  it('formats time left', () => {
    expect(formatTimeLeft(at(0), now)).toBe('Expired');
    expect(formatTimeLeft(at(-5 * MINUTE), now)).toBe('Expired');
    expect(formatTimeLeft(at(5 * MINUTE + 30_000), now)).toBe('0h 5m');
    expect(formatTimeLeft(at(3 * HOUR + 7 * MINUTE), now)).toBe('3h 7m');
    expect(formatTimeLeft(at(DAY), now)).toBe('24h 0m');
    expect(formatTimeLeft(at(DAY + 1), now)).toBe('1d 0h');
    expect(formatTimeLeft(at(2 * DAY + 5 * HOUR + 59 * MINUTE), now)).toBe('2d 5h');
    expect(formatTimeLeft(at(30 * HOUR).toISOString(), now)).toBe('1d 6h');
    expect(formatTimeLeft(null, now)).toBeNull();
  });

  it('always gives one of the three shapes', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10 * DAY, max: 100 * DAY }), (ms) => {
        expect(formatTimeLeft(at(ms), now)).toMatch(/^(Expired|\d+d \d{1,2}h|\d{1,2}h \d{1,2}m)$/);
      }),
    );
  });

  it('says how long the time-left text stays the same, exactly', () => {
    expect(timeLeftStableMs(null, now)).toBe(Number.POSITIVE_INFINITY);
    expect(timeLeftStableMs(at(-1), now)).toBe(Number.POSITIVE_INFINITY);
    expect(timeLeftStableMs(at(5 * MINUTE + 30_000), now)).toBe(30_000);
    expect(timeLeftStableMs(at(2 * DAY + 20 * MINUTE), now)).toBe(20 * MINUTE);
    expect(timeLeftStableMs(at(5 * MINUTE), now)).toBe(1);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 * DAY }), fc.integer({ min: 0, max: 1000 }), (left, probe) => {
        const expiresAt = at(left);
        const stable = timeLeftStableMs(expiresAt, now);
        const text = formatTimeLeft(expiresAt, now);
        const after = (elapsed: number) => formatTimeLeft(expiresAt, new Date(now.getTime() + elapsed));
        // Never too long: the text holds for the whole span (sampled, and its last millisecond)...
        expect(after(Math.floor(((stable - 1) * probe) / 1000))).toBe(text);
        expect(after(stable - 1)).toBe(text);
        // ...and never much too short: it has changed one millisecond after the span at the latest.
        expect(after(stable + 1)).not.toBe(text);
      }),
    );
  });

  it('formats relative time', () => {
    expect(formatRelativeTime(at(0), now)).toBe('Just now');
    expect(formatRelativeTime(at(-59_999), now)).toBe('Just now');
    expect(formatRelativeTime(at(10_000), now)).toBe('Just now');
    expect(formatRelativeTime(at(-MINUTE), now)).toBe('1m');
    expect(formatRelativeTime(at(-59 * MINUTE), now)).toBe('59m');
    expect(formatRelativeTime(at(-HOUR), now)).toBe('1h');
    expect(formatRelativeTime(at(-23 * HOUR - 59 * MINUTE), now)).toBe('23h');
    expect(formatRelativeTime(at(-DAY), now)).toBe('1d');
    expect(formatRelativeTime(at(-10 * DAY).toISOString(), now)).toBe('10d');
  });
});

describe('codes', () => {
  it('uppercases and trims a 6-character code', () => {
    expect(normalizeCode(' ab3def ')).toEqual({ ok: true, code: 'AB3DEF' });
  });

  it('refuses anything but exactly 6 letters or digits, with SPEC message', () => {
    for (const bad of ['', 'ABCDE', 'ABCDEFG', 'ABC DE', 'ABC-DE', 'ÄBCDEF']) {
      expect(normalizeCode(bad)).toEqual({ ok: false, message: 'Please enter a valid 6-character code' });
    }
  });

  it('makes codes of 6 unambiguous characters that pass validation', () => {
    expect(CODE_ALPHABET).not.toMatch(/[01OIL]/);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 6, maxLength: 6 }), (bytes) => {
        const code = codeFromBytes(bytes);
        expect(code).toMatch(/^[A-Z2-9]{6}$/);
        for (const ch of code) expect(CODE_ALPHABET).toContain(ch);
        expect(normalizeCode(code.toLowerCase())).toEqual({ ok: true, code });
      }),
    );
    expect(() => codeFromBytes(new Uint8Array(5))).toThrow();
  });
});
