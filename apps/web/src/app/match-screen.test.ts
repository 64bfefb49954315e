import { describe, expect, it } from 'vitest';
import { isMatchScreen } from './match-screen.ts';

describe('isMatchScreen', () => {
  it('is a match in the live arena or a spectated one', () => {
    expect(isMatchScreen({ pathname: '/live-arena', search: '?match=abc&auto_ready=true' })).toBe(true);
    expect(isMatchScreen({ pathname: '/spectate/abc', search: '' })).toBe(true);
  });

  it('is not the arena without a match, nor another page', () => {
    expect(isMatchScreen({ pathname: '/live-arena', search: '' })).toBe(false);
    expect(isMatchScreen({ pathname: '/matches', search: '?match=abc' })).toBe(false);
  });
});
