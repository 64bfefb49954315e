// Game clocks, pure, with lag credited back within a per-seat quota as lichess's LagTracker does
// (docs/decisions.md, "Clocks follow lichess"); time is passed in.
import type { GameId, Seat } from './game.ts';

export interface TimeControl {
  initialMs: number;
  /** Added after every move made in time (Fischer increment). */
  incrementMs: number;
}

/** One time control per game, per player and game of the series. */
export const TIME_CONTROLS: Readonly<Record<GameId, TimeControl>> = {
  chess: { initialMs: 5 * 60_000, incrementMs: 3_000 },
  checkers: { initialMs: 5 * 60_000, incrementMs: 3_000 },
  'tic-tac-toe': { initialMs: 60_000, incrementMs: 5_000 },
  'rock-paper-scissors': { initialMs: 30_000, incrementMs: 0 },
  'ai-rock-paper-scissors': { initialMs: 30_000, incrementMs: 0 },
  // A ludo turn is a roll and usually a move, each adding the increment.
  ludo: { initialMs: 3 * 60_000, incrementMs: 3_000 },
};

export interface LagQuota {
  /** Credit earned back by every move. */
  gainMs: number;
  /** The credit available at the start. */
  initialMs: number;
  /** The most credit that can be saved up. */
  maxMs: number;
}

/** Never wait longer than this past zero before declaring a flag (lichess: 2 s). */
export const MAX_FLAG_GRACE_MS = 2_000;

/** Lichess's figures: the gain grows with the expected game length (up to 1 s), quota 3×, cap 7×. */
export function lagQuotaFor(control: TimeControl): LagQuota {
  const estimatedSeconds = (control.initialMs + 40 * control.incrementMs) / 1000;
  const gainMs = Math.min(1000, Math.round(150 + 4 * estimatedSeconds));
  return { gainMs, initialMs: 3 * gainMs, maxMs: 7 * gainMs };
}

export interface ClockState {
  control: TimeControl;
  lag: LagQuota;
  remainingMs: [number, number];
  /** Lag credit each seat may still be given. */
  quotaMs: [number, number];
  /** Seats whose time is running (both at once for simultaneous throws). */
  running: Seat[];
  /** When the running seats' time started (server epoch ms). */
  since: number | null;
  /** The first seat found out of time; the clock is then stopped for good. */
  flagged: Seat | null;
}

export interface MoveMetrics {
  /** The lag the client measured for this move (ms); untrusted, so bounded here. */
  lagMs?: number;
  /** The move was a premove. */
  premove?: boolean;
}

export interface ElapsedResult {
  clock: ClockState;
  /** Time taken off the clock (before the increment). */
  chargedMs: number;
  /** Lag credited back. */
  creditMs: number;
}

export function createClock(control: TimeControl): ClockState {
  const lag = lagQuotaFor(control);
  return {
    control,
    lag,
    remainingMs: [control.initialMs, control.initialMs],
    quotaMs: [lag.initialMs, lag.initialMs],
    running: [],
    since: null,
    flagged: null,
  };
}

const finite = (n: number | undefined) => (n !== undefined && Number.isFinite(n) ? n : 0);

/** Starts the time of `seats` (whose turn it now is) at `now`. A flagged clock stays stopped. */
export function startTurn(clock: ClockState, seats: readonly Seat[], now: number): ClockState {
  if (clock.flagged !== null || seats.length === 0) return { ...clock, running: [], since: null };
  return { ...clock, running: [...seats], since: finite(now) };
}

export function stopClock(clock: ClockState): ClockState {
  return { ...clock, running: [], since: null };
}

/** Charges `seat` for `elapsedMs` (server's measure) minus credited lag; running out flags instead of adding the increment. */
export function applyElapsed(clock: ClockState, seat: Seat, elapsedMs: number, metrics: MoveMetrics = {}): ElapsedResult {
  if (clock.flagged !== null) return { clock, chargedMs: 0, creditMs: 0 };
  const elapsed = Math.max(0, finite(elapsedMs));
  const reported = metrics.premove ? elapsed : Math.min(Math.max(0, finite(metrics.lagMs)), elapsed);
  const quota = clock.quotaMs[seat];
  const creditMs = Math.min(reported, quota);
  const chargedMs = elapsed - creditMs;
  const quotaMs: [number, number] = [...clock.quotaMs];
  quotaMs[seat] = Math.min(quota - creditMs + clock.lag.gainMs, clock.lag.maxMs);
  const remainingMs: [number, number] = [...clock.remainingMs];
  const outOfTime = chargedMs >= remainingMs[seat];
  remainingMs[seat] = outOfTime ? 0 : remainingMs[seat] - chargedMs + clock.control.incrementMs;
  const running = clock.running.filter((s) => s !== seat);
  return {
    clock: {
      ...clock,
      remainingMs,
      quotaMs,
      running: outOfTime ? [] : running,
      since: outOfTime || running.length === 0 ? null : clock.since,
      flagged: outOfTime ? seat : null,
    },
    chargedMs,
    creditMs,
  };
}

/** `applyElapsed` with the elapsed time measured from when the seat's time started. */
export function pressClock(clock: ClockState, seat: Seat, now: number, metrics: MoveMetrics = {}): ElapsedResult {
  const elapsed = clock.since !== null && clock.running.includes(seat) ? finite(now) - clock.since : 0;
  return applyElapsed(clock, seat, elapsed, metrics);
}

/** What a seat has left at `now`, for display. */
export function remainingAt(clock: ClockState, seat: Seat, now: number): number {
  const running = clock.since !== null && clock.running.includes(seat);
  return Math.max(0, clock.remainingMs[seat] - (running ? finite(now) - clock.since! : 0));
}

/** The grace a seat gets past zero before it is flagged: a move may still be on its way. */
export function flagGraceMs(clock: ClockState, seat: Seat): number {
  return Math.min(clock.quotaMs[seat], MAX_FLAG_GRACE_MS);
}

/** With grace (the default), a flag waits for the lag credit a move arriving now could still get. */
export function flagFall(clock: ClockState, now: number, { withGrace = true }: { withGrace?: boolean } = {}): Seat[] {
  if (clock.flagged !== null) return [clock.flagged];
  if (clock.since === null) return [];
  const elapsed = finite(now) - clock.since;
  return clock.running.filter((seat) => elapsed - (withGrace ? flagGraceMs(clock, seat) : 0) >= clock.remainingMs[seat]);
}

/** When `seat`'s flag falls (grace included) if its clock keeps running from `since`. */
export function flagFallsAt(clock: ClockState, seat: Seat): number {
  return (clock.since ?? 0) + clock.remainingMs[seat] + flagGraceMs(clock, seat);
}

/** When the next flag could fall, so the server can set one timer instead of polling. */
export function nextFlagAt(clock: ClockState): number | null {
  if (clock.flagged !== null || clock.since === null || clock.running.length === 0) return null;
  return Math.min(...clock.running.map((seat) => flagFallsAt(clock, seat)));
}

/** Marks `seat` out of time (after `flagFall` said so). */
export function flagSeat(clock: ClockState, seat: Seat): ClockState {
  const remainingMs: [number, number] = [...clock.remainingMs];
  remainingMs[seat] = 0;
  return { ...clock, remainingMs, running: [], since: null, flagged: seat };
}
