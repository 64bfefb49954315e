import { describe, expect, it } from 'vitest';
import { InteractionGate, VIBRATION_PATTERNS, vibrationFor } from './vibration.ts';

function fakeTarget() {
  const listeners = new Map<string, () => void>();
  return {
    addEventListener: (name: string, fn: EventListenerOrEventListenerObject) => listeners.set(name, fn as () => void),
    removeEventListener: (name: string) => listeners.delete(name),
    fire: (name: string) => listeners.get(name)?.(),
    listeners,
  };
}

describe('vibration', () => {
  it('has the SPEC patterns, tap 10 ms and click 25 ms', () => {
    expect(VIBRATION_PATTERNS.tap).toEqual([10]);
    expect(VIBRATION_PATTERNS.click).toEqual([25]);
    for (const kind of ['notification', 'alert', 'urgent', 'warning', 'timeout', 'success', 'error', 'gameStart'] as const) {
      expect(VIBRATION_PATTERNS[kind].length).toBeGreaterThan(0);
    }
  });

  it('does not vibrate before the first user interaction, then does', () => {
    const gate = new InteractionGate();
    const calls: number[][] = [];
    const nav = { vibrate: (p: number[]) => (calls.push(p), true) };
    const target = fakeTarget();
    gate.watch(target);
    expect(gate.vibrate('urgent', nav)).toBe(false);
    expect(calls).toEqual([]);
    target.fire('keydown');
    expect(gate.hasInteracted).toBe(true);
    expect(target.listeners.size).toBe(0); // stops listening after the first
    expect(gate.vibrate('urgent', nav)).toBe(true);
    expect(calls).toEqual([[...VIBRATION_PATTERNS.urgent]]);
  });

  it('does nothing where vibration is unsupported', () => {
    const gate = new InteractionGate();
    const target = fakeTarget();
    gate.watch(target);
    target.fire('pointerdown');
    expect(gate.vibrate('tap', {})).toBe(false);
  });

  it('picks a pattern by type and urgency', () => {
    expect(vibrationFor('match_started', true)).toBe('gameStart');
    expect(vibrationFor('challenge_accepted', true)).toBe('urgent');
    expect(vibrationFor('challenge_accepted', false)).toBe('notification');
    expect(vibrationFor('credits_earned', false)).toBe('success');
  });
});
