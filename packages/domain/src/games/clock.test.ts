import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  applyElapsed,
  createClock,
  flagFall,
  flagGraceMs,
  lagQuotaFor,
  nextFlagAt,
  pressClock,
  remainingAt,
  startTurn,
  TIME_CONTROLS,
  type ClockState,
} from './clock.ts';
import { GAME_IDS, type Seat } from './game.ts';

const chessClock = () => createClock(TIME_CONTROLS.chess);

describe('time controls', () => {
  it('every game has one; chess and checkers are 5+3, tic-tac-toe 1 min + 5 s', () => {
    for (const id of GAME_IDS) expect(TIME_CONTROLS[id].initialMs).toBeGreaterThan(0);
    expect(TIME_CONTROLS.chess).toEqual({ initialMs: 300_000, incrementMs: 3000 });
    expect(TIME_CONTROLS.checkers).toEqual({ initialMs: 300_000, incrementMs: 3000 });
    expect(TIME_CONTROLS['tic-tac-toe']).toEqual({ initialMs: 60_000, incrementMs: 5000 });
  });

  it('the lag quota follows lichess: 1 s gain for blitz, 3 s at the start, 7 s at most', () => {
    expect(lagQuotaFor(TIME_CONTROLS.chess)).toEqual({ gainMs: 1000, initialMs: 3000, maxMs: 7000 });
    const rps = lagQuotaFor(TIME_CONTROLS['rock-paper-scissors']);
    expect(rps.gainMs).toBeLessThan(1000);
  });
});

describe('clock', () => {
  it('charges the thinking time and adds the increment', () => {
    const { clock, chargedMs } = applyElapsed(chessClock(), 0, 10_000);
    expect(chargedMs).toBe(10_000);
    expect(clock.remainingMs).toEqual([293_000, 300_000]);
  });

  it('credits the reported lag back, within the quota, which refills slowly', () => {
    let clock = chessClock();
    const first = applyElapsed(clock, 0, 5000, { lagMs: 2500 });
    expect(first.creditMs).toBe(2500);
    expect(first.clock.remainingMs[0]).toBe(300_000 - 2500 + 3000);
    expect(first.clock.quotaMs[0]).toBe(3000 - 2500 + 1000);
    clock = first.clock;
    // A client claiming huge lag gets the quota at most.
    const greedy = applyElapsed(clock, 0, 20_000, { lagMs: 20_000 });
    expect(greedy.creditMs).toBe(1500);
    expect(greedy.clock.quotaMs[0]).toBe(1000);
  });

  it('a lag report larger than the elapsed time, negative or not a number credits nothing extra', () => {
    expect(applyElapsed(chessClock(), 0, 300, { lagMs: 2000 }).creditMs).toBe(300);
    expect(applyElapsed(chessClock(), 0, 300, { lagMs: -50 }).creditMs).toBe(0);
    expect(applyElapsed(chessClock(), 0, 300, { lagMs: Number.NaN }).creditMs).toBe(0);
  });

  it('a premove costs no time (within the quota)', () => {
    const { clock, chargedMs } = applyElapsed(chessClock(), 1, 180, { premove: true });
    expect(chargedMs).toBe(0);
    expect(clock.remainingMs[1]).toBe(303_000);
  });

  it('running out flags the seat at 0, without increment, and stops the clock', () => {
    let clock = startTurn(createClock({ initialMs: 1000, incrementMs: 500 }), [0], 0);
    const late = pressClock(clock, 0, 1000);
    expect(late.clock).toMatchObject({ remainingMs: [0, 1000], flagged: 0, running: [] });
    clock = late.clock;
    expect(applyElapsed(clock, 1, 10).clock).toBe(clock);
  });

  it('flag fall: after the remaining time plus a grace of min(quota, 2 s); both seats in simultaneous games', () => {
    let clock = startTurn(createClock({ initialMs: 10_000, incrementMs: 0 }), [0, 1], 1000);
    const grace = flagGraceMs(clock, 0);
    expect(flagFall(clock, 1000 + 10_000 + grace - 1)).toEqual([]);
    expect(flagFall(clock, 1000 + 10_000, { withGrace: false })).toEqual([0, 1]);
    expect(nextFlagAt(clock)).toBe(1000 + 10_000 + grace);
    expect(flagFall(clock, nextFlagAt(clock)!)).toEqual([0, 1]);
    clock = pressClock(clock, 0, 3000).clock;
    expect(clock.running).toEqual([1]);
    expect(remainingAt(clock, 0, 50_000)).toBe(8000);
    expect(remainingAt(clock, 1, 4000)).toBe(7000);
    expect(flagFall(clock, 1000 + 10_000 + grace)).toEqual([1]);
  });
});

describe('clock properties', () => {
  const seat = fc.constantFrom<Seat>(0, 1);
  const step = fc.record({
    seat,
    elapsedMs: fc.oneof(fc.integer({ min: 0, max: 120_000 }), fc.double({ min: -1e6, max: 1e9 })),
    lagMs: fc.option(fc.oneof(fc.integer({ min: -1000, max: 60_000 }), fc.double()), { nil: undefined }),
    premove: fc.boolean(),
  });
  const control = fc.record({ initialMs: fc.integer({ min: 1000, max: 600_000 }), incrementMs: fc.integer({ min: 0, max: 10_000 }) });

  it('never goes below 0 without flagging; lag credit never exceeds the quota or the elapsed time', () => {
    fc.assert(
      fc.property(control, fc.array(step, { maxLength: 60 }), (tc, steps) => {
        let clock: ClockState = createClock(tc);
        for (const { seat: s, elapsedMs, lagMs, premove } of steps) {
          const before = clock;
          const { clock: after, creditMs, chargedMs } = applyElapsed(clock, s, elapsedMs, { lagMs, premove });
          if (before.flagged === null) {
            expect(creditMs).toBeLessThanOrEqual(before.quotaMs[s]);
            expect(creditMs).toBeLessThanOrEqual(Math.max(0, Number.isFinite(elapsedMs) ? elapsedMs : 0));
            expect(creditMs).toBeGreaterThanOrEqual(0);
            expect(chargedMs).toBeGreaterThanOrEqual(0);
          }
          for (const t of [0, 1] as const) {
            expect(after.remainingMs[t]).toBeGreaterThanOrEqual(0);
            expect(after.quotaMs[t]).toBeGreaterThanOrEqual(0);
            expect(after.quotaMs[t]).toBeLessThanOrEqual(after.lag.maxMs);
            if (after.remainingMs[t] === 0) expect(after.flagged).toBe(t);
          }
          clock = after;
        }
      }),
    );
  });

  it('a seat not yet flagged at `now` is not flagged by a move arriving then with its lag reported', () => {
    fc.assert(
      fc.property(control, fc.integer({ min: 0, max: 1_000_000 }), seat, (tc, elapsed, s) => {
        const clock = startTurn(createClock(tc), [s], 0);
        if (flagFall(clock, elapsed).includes(s)) return;
        const { clock: after } = pressClock(clock, s, elapsed, { lagMs: flagGraceMs(clock, s) });
        expect(after.flagged).toBeNull();
      }),
    );
  });
});
