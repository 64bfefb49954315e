import { describe, expect, it } from 'vitest';
import { parseThemeChoice, resolveTheme } from './theme.ts';

describe('resolveTheme', () => {
  it('forces retro while a virtual account is signed in, whatever the choice', () => {
    expect(resolveTheme('dark', 'virtual')).toBe('retro');
    expect(resolveTheme('light', 'virtual')).toBe('retro');
  });

  it('returns to the chosen theme for a real account or when signed out', () => {
    expect(resolveTheme('dark', 'real')).toBe('dark');
    expect(resolveTheme('light', 'real')).toBe('light');
    expect(resolveTheme('dark', null)).toBe('dark');
    expect(resolveTheme('light', null)).toBe('light');
  });
});

describe('parseThemeChoice', () => {
  it('defaults to dark for anything but light', () => {
    expect(parseThemeChoice('light')).toBe('light');
    expect(parseThemeChoice('dark')).toBe('dark');
    expect(parseThemeChoice('retro')).toBe('dark');
    expect(parseThemeChoice(null)).toBe('dark');
    expect(parseThemeChoice('')).toBe('dark');
  });
});
