import { describe, expect, it } from 'vitest';
import { timeAgo } from './format.ts';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('timeAgo', () => {
  it('reads seconds as just now, then minutes, hours and days', () => {
    expect(timeAgo(ago(5_000), NOW)).toBe('just now');
    expect(timeAgo(ago(90_000), NOW)).toBe('2m ago');
    expect(timeAgo(ago(59 * 60_000), NOW)).toBe('59m ago');
    expect(timeAgo(ago(3 * 3_600_000), NOW)).toBe('3h ago');
    expect(timeAgo(ago(2 * 86_400_000), NOW)).toBe('2d ago');
  });

  it('a clock slightly behind the server still reads just now', () => {
    expect(timeAgo(ago(-3_000), NOW)).toBe('just now');
  });

  it('a week or more shows the date', () => {
    expect(timeAgo(ago(10 * 86_400_000), NOW)).not.toMatch(/ago/);
  });
});
