import { describe, expect, it } from 'vitest';
import { SOUNDS, soundKindFor } from './sound.ts';

describe('notification sounds', () => {
  it('urgent notifications use the urgent sound whatever their category', () => {
    for (const category of ['match', 'challenge', 'financial', 'social', 'system']) expect(soundKindFor(category, true)).toBe('urgent');
  });

  it('others sound by category', () => {
    expect(soundKindFor('match', false)).toBe('match');
    expect(soundKindFor('challenge', false)).toBe('challenge');
    expect(soundKindFor('financial', false)).toBe('money');
    expect(soundKindFor('social', false)).toBe('social');
    expect(soundKindFor('system', false)).toBe('system');
  });

  it('every sound is a non-empty sequence of audible, ordered, short tones', () => {
    for (const tones of Object.values(SOUNDS)) {
      expect(tones.length).toBeGreaterThan(0);
      let previousEnd = -1;
      for (const tone of tones) {
        expect(tone.frequency).toBeGreaterThanOrEqual(200);
        expect(tone.frequency).toBeLessThanOrEqual(2000);
        expect(tone.gain).toBeGreaterThan(0);
        expect(tone.gain).toBeLessThanOrEqual(0.3);
        expect(tone.atMs).toBeGreaterThan(previousEnd);
        previousEnd = tone.atMs + tone.durationMs;
      }
      expect(previousEnd).toBeLessThan(1000);
    }
  });

  it('the urgent sound is longer than the social one', () => {
    const length = (kind: keyof typeof SOUNDS) => SOUNDS[kind].length;
    expect(length('urgent')).toBeGreaterThan(length('social'));
  });
});
