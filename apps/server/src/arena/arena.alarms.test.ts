import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Alarms } from './arena.alarms.ts';

describe('the clocks’ alarm wheel', () => {
  const rung: string[] = [];
  const wheel = () => new Alarms({ tickMs: 50, now: Date.now, ring: (id) => rung.push(id) });

  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
    rung.length = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('rings each alarm once after its time, never before, at most a tick late', () => {
    const alarms = wheel();
    alarms.set('a', 1_000_120);
    alarms.set('b', 1_000_200);
    vi.advanceTimersByTime(119);
    expect(rung).toEqual([]);
    vi.advanceTimersByTime(81); // 1_000_200: a's slot ended at 150
    expect(rung).toEqual(['a', 'b']);
    vi.advanceTimersByTime(500);
    expect(rung).toEqual(['a', 'b']);
    expect(alarms.size).toBe(0);
  });

  it('moves an alarm when it is set again, and forgets a cleared one', () => {
    const alarms = wheel();
    alarms.set('a', 1_000_100);
    alarms.set('b', 1_000_100);
    alarms.set('a', 1_000_400);
    alarms.clear('b');
    vi.advanceTimersByTime(350);
    expect(rung).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(rung).toEqual(['a']);
  });

  it('rings an alarm whose time has passed at its next turn', () => {
    const alarms = wheel();
    alarms.set('late', 999_000);
    vi.advanceTimersByTime(50);
    expect(rung).toEqual(['late']);
  });

  it('holds no timer when nothing is due, and rings nothing once stopped', () => {
    const alarms = wheel();
    alarms.set('a', 1_000_050);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(100);
    expect(vi.getTimerCount()).toBe(0);

    // Idle for an hour, then a new alarm: only its own slot is waited for.
    vi.advanceTimersByTime(3_600_000);
    alarms.set('b', Date.now() + 60);
    alarms.stop();
    vi.advanceTimersByTime(1_000);
    expect(rung).toEqual(['a']);
    expect(vi.getTimerCount()).toBe(0);
  });
});
