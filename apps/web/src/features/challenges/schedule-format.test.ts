import { describe, expect, it } from 'vitest';
import { slotDay, slotFromNow, slotTime } from './schedule-format.ts';

describe('match time labels', () => {
  const now = new Date(2025, 2, 1, 18, 7);
  it('writes the clock time, the day and how far ahead', () => {
    expect(slotTime(new Date(2025, 2, 1, 19, 0), 'en-US')).toBe('7:00 PM');
    expect(slotDay(new Date(2025, 2, 1, 23, 30), now)).toBe('Today');
    expect(slotDay(new Date(2025, 2, 2, 0, 30), now)).toBe('Tomorrow');
    expect(slotDay(new Date(2025, 2, 4, 9, 0), now, 'en-US')).toBe('Tue');
    expect(slotFromNow(new Date(2025, 2, 1, 18, 42), now)).toBe('in 35 min');
    expect(slotFromNow(new Date(2025, 2, 1, 20, 7), now)).toBe('in 2 h');
    expect(slotFromNow(new Date(2025, 2, 1, 20, 37), now)).toBe('in 2 h 30 min');
    expect(slotFromNow(new Date(2025, 2, 1, 18, 0), now)).toBe('in 0 min');
  });
});
