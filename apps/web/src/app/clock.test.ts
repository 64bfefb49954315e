import { describe, expect, it } from 'vitest';
import { clockIntervalMs } from './clock.ts';

describe('clockIntervalMs', () => {
  it('ticks every second when visible and every 5 s when hidden', () => {
    expect(clockIntervalMs('visible')).toBe(1000);
    expect(clockIntervalMs('hidden')).toBe(5000);
  });
});
