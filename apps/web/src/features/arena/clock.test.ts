import { describe, expect, it } from 'vitest';
import type { ClockView } from '@versus/domain/arena';
import { ClockSync, formatClock, remainingNow } from './clock.ts';

const clock = (over: Partial<ClockView> = {}): ClockView => ({
  initialMs: 300_000,
  incrementMs: 3_000,
  remainingMs: [120_000, 95_500],
  running: [0],
  at: 1_000_000,
  flagged: null,
  ...over,
});

describe('formatClock', () => {
  it('shows minutes and seconds, hours when long, tenths under ten seconds', () => {
    expect(formatClock(300_000)).toBe('5:00');
    expect(formatClock(299_999)).toBe('4:59');
    expect(formatClock(61_000)).toBe('1:01');
    expect(formatClock(10_000)).toBe('0:10');
    expect(formatClock(9_999)).toBe('0:09.9');
    expect(formatClock(9_400)).toBe('0:09.4');
    expect(formatClock(450)).toBe('0:00.4');
    expect(formatClock(3_723_000)).toBe('1:02:03');
  });

  it('never shows a negative or broken time', () => {
    expect(formatClock(-5)).toBe('0:00.0');
    expect(formatClock(Number.NaN)).toBe('0:00.0');
    expect(formatClock(0)).toBe('0:00.0');
  });
});

describe('remainingNow', () => {
  it('counts down the running seat only, from the server reading', () => {
    const c = clock();
    expect(remainingNow(c, 0, 1_000_000)).toBe(120_000);
    expect(remainingNow(c, 0, 1_002_500)).toBe(117_500);
    expect(remainingNow(c, 1, 1_002_500)).toBe(95_500);
  });

  it('stops at zero, ignores a reading from the future and a flagged clock', () => {
    expect(remainingNow(clock(), 0, 9_000_000)).toBe(0);
    expect(remainingNow(clock(), 0, 999_000)).toBe(120_000);
    expect(remainingNow(clock({ flagged: 1, running: [0] }), 0, 1_010_000)).toBe(120_000);
  });

  it('runs both seats at once for simultaneous throws', () => {
    const c = clock({ running: [0, 1], remainingMs: [30_000, 30_000] });
    expect(remainingNow(c, 0, 1_001_000)).toBe(29_000);
    expect(remainingNow(c, 1, 1_001_000)).toBe(29_000);
  });
});

describe('ClockSync', () => {
  it('is zero before any sample', () => {
    expect(new ClockSync().offset()).toBe(0);
  });

  it('takes the server time as read halfway through the round trip', () => {
    const sync = new ClockSync();
    // Sent at 1000, answered at 1100: the server read 5050 at the midpoint 1050.
    sync.sample(1_000, 1_100, 5_050);
    expect(sync.offset()).toBe(4_000);
    expect(sync.serverNow(2_000)).toBe(6_000);
  });

  it('trusts the sample with the shortest round trip', () => {
    const sync = new ClockSync();
    sync.sample(0, 400, 4_300); // slow: offset 4100
    sync.sample(1_000, 1_020, 5_010); // fast: offset 4000
    sync.sample(2_000, 2_300, 6_400); // slow: offset 4250
    expect(sync.offset()).toBe(4_000);
  });

  it('forgets old samples and ignores impossible ones', () => {
    const sync = new ClockSync(2);
    sync.sample(0, 10, 105); // offset 100, fastest, but pushed out below
    sync.sample(0, 50, 225); // offset 200
    sync.sample(0, 60, 330); // offset 300
    expect(sync.offset()).toBe(200);
    sync.sample(100, 50, 0);
    sync.sample(Number.NaN, 10, 10);
    expect(sync.offset()).toBe(200);
  });
});
