import { describe, expect, it } from 'vitest';
import { formatSpan, tabOf } from './format.ts';

describe('matches format', () => {
  it('formats spans at each scale', () => {
    expect(formatSpan(12_000)).toBe('12s');
    expect(formatSpan(-(4 * 60 + 5) * 1000)).toBe('4m 05s');
    expect(formatSpan((3600 + 2 * 60) * 1000)).toBe('1h 02m');
    expect(formatSpan((2 * 86400 + 3 * 3600) * 1000)).toBe('2d 3h');
  });
  it('reads the tab query', () => {
    expect(tabOf('history')).toBe('history');
    expect(tabOf('disputes')).toBe('disputes');
    expect(tabOf(null)).toBe('active');
    expect(tabOf('nonsense')).toBe('active');
  });
});

describe('gameName', () => {
  it('names known games and keeps unknown ids', async () => {
    const { gameName } = await import('./format.ts');
    expect(gameName('fifa-24')).toBe('FIFA 24');
    expect(gameName('mystery')).toBe('mystery');
  });
});
