import { describe, expect, it } from 'vitest';
import type { LinkedGamertag } from '@versus/domain/verification';
import { prefillGamertag } from './gamertag-prefill.ts';

const linked: LinkedGamertag[] = [
  { platform: 'xbox', gamertag: 'Chief117', verified: true, updatedAt: '2026-01-01T00:00:00.000Z' },
  { platform: 'steam', gamertag: 'gaben', verified: false, updatedAt: '2026-01-01T00:00:00.000Z' },
];

describe('prefillGamertag', () => {
  it('fills an empty gamertag from the linked account of the platform (PC uses Steam)', () => {
    expect(prefillGamertag('', 'xbox', linked)).toBe('Chief117');
    expect(prefillGamertag('', 'pc', linked)).toBe('gaben');
    expect(prefillGamertag('', 'playstation', linked)).toBe('');
  });
  it('follows the platform while the gamertag is one we filled in', () => {
    expect(prefillGamertag('Chief117', 'pc', linked)).toBe('gaben');
    expect(prefillGamertag('gaben', 'playstation', linked)).toBe('');
  });
  it('never overwrites what the player typed', () => {
    expect(prefillGamertag('MyOwnTag', 'xbox', linked)).toBe('MyOwnTag');
  });
});
