// The referee's state machine on its own: no database, time and seeds passed in.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { matchRules, type WebGameId } from '@versus/domain/arena';
import { lagQuotaFor, sha256Hex, TIME_CONTROLS, type Seat } from '@versus/domain/games/index';
import {
  applyArenaMove,
  checkFlag,
  drawArena,
  gameSummary,
  replayMoves,
  resignArena,
  startArena,
  toMoveOf,
  type ArenaState,
  type MoveOutcome,
  type StoredMove,
} from './arena.state.ts';

const T0 = 1_700_000_000_000;
let n = 0;
const seed = () => `seed-${++n}`;

function moved(outcome: MoveOutcome) {
  if (outcome.kind !== 'moved') throw new Error(`expected a move, got ${JSON.stringify(outcome)}`);
  return outcome;
}

describe('starting', () => {
  it('sets up game 1 with a committed seed and the first seat on the clock', () => {
    const state = startArena({ game: 'tic-tac-toe', now: T0, seed: () => 'abc', firstSeat: 1 });
    expect(state.games).toEqual([
      { index: 0, firstSeat: 1, seed: 'abc', commitment: sha256Hex('abc'), outcome: null, startedAt: T0, endedAt: null },
    ]);
    expect(toMoveOf(state)).toEqual([1]);
    expect(state.clock).toMatchObject({ running: [1], since: T0, remainingMs: [60_000, 60_000] });
    expect(gameSummary(state.games[0]!).seed).toBeNull();
  });
});

describe('clocks', () => {
  it('charges the server-measured time less the reported lag, within the quota, and adds the increment', () => {
    const state = startArena({ game: 'chess', now: T0, seed, firstSeat: 0 });
    const white = toMoveOf(state)[0]!;
    const quota = lagQuotaFor(TIME_CONTROLS.chess).initialMs;
    const first = moved(applyArenaMove(state, white, 'e2e4', { now: T0 + 5_000, metrics: { lagMs: 300 } }));
    expect(first.state.clock.remainingMs[white]).toBe(300_000 - 4_700 + 3_000);
    expect(first.entry).toMatchObject({ seq: 1, elapsedMs: 5_000, notation: 'e4' });
    // Claimed lag beyond the quota is not credited.
    const black = (1 - white) as Seat;
    const second = moved(applyArenaMove(first.state, black, 'e7e5', { now: T0 + 15_000, metrics: { lagMs: 9_999 } }));
    expect(second.state.clock.remainingMs[black]).toBe(300_000 - (10_000 - quota) + 3_000);
    // A premove costs nothing (its time is lag, within what is left of the quota).
    const third = moved(applyArenaMove(second.state, white, 'g1f3', { now: T0 + 15_100, metrics: { premove: true } }));
    expect(third.state.clock.remainingMs[white]).toBe(first.state.clock.remainingMs[white] + 3_000);
  });

  it('keeps the other thrower’s time running from when it started (simultaneous throws)', () => {
    const state = startArena({ game: 'rock-paper-scissors', now: T0, seed });
    expect(state.clock.running).toEqual([0, 1]);
    const first = moved(applyArenaMove(state, 0, 'rock', { now: T0 + 4_000 }));
    expect(first.state.clock).toMatchObject({ running: [1], since: T0 });
    const second = moved(applyArenaMove(first.state, 1, 'paper', { now: T0 + 10_000 }));
    expect(second.gameOver!.record.outcome).toEqual({ winner: 1, reason: 'throw' });
    expect(second.entry.remainingMs).toEqual([26_000, 20_000]);
    // Game 2 runs both clocks afresh.
    expect(second.state.clock).toMatchObject({ running: [0, 1], since: T0 + 10_000, remainingMs: [30_000, 30_000] });
  });

  it('a move after the flag is not played; the sweeper flags only past the grace', () => {
    const state = startArena({ game: 'tic-tac-toe', now: T0, seed, firstSeat: 0 });
    const late = applyArenaMove(state, 0, 4, { now: T0 + 61_000 });
    expect(late.kind).toBe('flagged');
    if (late.kind !== 'flagged') return;
    expect(late.gameOver!.record.outcome).toEqual({ winner: 1, reason: 'timeout' });
    expect(late.state.board).not.toBe(state.board);
    expect(late.state.seq).toBe(0);

    const grace = Math.min(lagQuotaFor(TIME_CONTROLS['tic-tac-toe']).initialMs, 2_000);
    expect(checkFlag(state, T0 + 60_000 + grace - 1)).toBeNull();
    const flagged = checkFlag(state, T0 + 60_000 + grace);
    expect(flagged!.gameOver!.record.outcome).toEqual({ winner: 1, reason: 'timeout' });
    expect(flagged!.state.games).toHaveLength(2);
  });

  it('both flags found fallen: the first to fall loses; only flags falling together draw', () => {
    const state = startArena({ game: 'rock-paper-scissors', now: T0, seed });
    const uneven: ArenaState = { ...state, clock: { ...state.clock, remainingMs: [20_000, 30_000] } };
    expect(checkFlag(uneven, T0 + 40_000)!.gameOver!.record.outcome).toEqual({ winner: 1, reason: 'timeout' });
    expect(checkFlag(state, T0 + 40_000)!.gameOver!.record.outcome).toEqual({ draw: true, reason: 'timeout' });
  });

  it('a ludo roll gives the roller the move, with the increment, on a fresh turn', () => {
    let state: ArenaState = startArena({ game: 'ludo', now: T0, seed, firstSeat: 0 });
    const roll = moved(applyArenaMove(state, 0, { type: 'roll' }, { now: T0 + 2_000 }));
    state = roll.state;
    expect(roll.state.clock.remainingMs[0]).toBe(180_000 - 2_000 + 3_000);
    const next = toMoveOf(state)[0]!;
    expect(state.clock).toMatchObject({ running: [next], since: T0 + 2_000 });
  });
});

describe('draws and resignation', () => {
  it('an offer stands until answered or the other player moves; accepting draws the game by agreement', () => {
    const state = startArena({ game: 'checkers', now: T0, seed, firstSeat: 0 });
    const mover = toMoveOf(state)[0]!;
    const other = (1 - mover) as Seat;
    expect(drawArena(state, other, 'accept', T0)).toEqual({ kind: 'refused', reason: 'nothing_to_answer' });
    const offered = drawArena(state, mover, 'offer', T0);
    if (offered.kind !== 'offered') throw new Error('not offered');
    expect(offered.state.drawOffer).toBe(mover);
    expect(drawArena(offered.state, mover, 'offer', T0)).toEqual({ kind: 'refused', reason: 'already_offered' });
    // Offering back accepts.
    const accepted = drawArena(offered.state, other, 'offer', T0 + 1);
    expect(accepted.kind).toBe('accepted');
    if (accepted.kind === 'accepted') {
      expect(accepted.gameOver!.record.outcome).toEqual({ draw: true, reason: 'agreement' });
      expect(accepted.state.games).toHaveLength(2);
      expect(accepted.state.drawOffer).toBeNull();
    }
    expect(drawArena(startArena({ game: 'tic-tac-toe', now: T0, seed }), 0, 'offer', T0)).toEqual({
      kind: 'refused',
      reason: 'not_allowed',
    });
  });

  it('resigning concedes the series and ends the current game', () => {
    const state = startArena({ game: 'tic-tac-toe', now: T0, seed, firstSeat: 0 });
    const t = resignArena(state, 1, T0 + 5);
    if ('error' in t) throw new Error(t.error);
    expect(t.matchOutcome).toEqual({ winner: 0, reason: 'resignation' });
    expect(t.gameOver!.record.outcome).toEqual({ winner: 0, reason: 'resignation' });
    expect(t.state.clock.running).toEqual([]);
    expect(resignArena(t.state, 0, T0 + 6)).toHaveProperty('error');
    expect(applyArenaMove(t.state, 0, 4, { now: T0 + 7 })).toMatchObject({ kind: 'refused', code: 'game_over' });
  });
});

describe('replaying stored moves', () => {
  const GAMES_PLAYED: WebGameId[] = ['tic-tac-toe', 'rock-paper-scissors', 'chess', 'checkers', 'ludo', 'ai-rock-paper-scissors'];

  /** Plays random legal moves (with random lags, premoves and think times) until a game ends; the plain moves as stored. */
  function playout(game: WebGameId, random: () => number) {
    const start = startArena({ game, now: T0, seed, firstSeat: random() < 0.5 ? 0 : 1 });
    let state = start;
    let now = T0;
    const stored: StoredMove[] = [];
    const states: ArenaState[] = [];
    for (let i = 0; i < 400; i++) {
      const seats = toMoveOf(state);
      if (seats.length === 0) break;
      const seat = seats[Math.floor(random() * seats.length)]!;
      const legal = matchRules(game).legalMoves(state.board, seat);
      if (legal.length === 0) break;
      now += Math.floor(random() * 2_000);
      const metrics = random() < 0.2 ? { premove: true } : random() < 0.6 ? { lagMs: random() * 400 } : {};
      const outcome = applyArenaMove(state, seat, legal[Math.floor(random() * legal.length)], { now, metrics, seed });
      // A move that ends a game is stored with a snapshot, never replayed.
      if (outcome.kind !== 'moved' || outcome.gameOver) break;
      const e = outcome.entry;
      stored.push({
        seq: e.seq,
        seat: e.seat,
        move: JSON.parse(JSON.stringify(e.move)),
        at: e.at,
        remainingMs: e.remainingMs,
        lagMs: e.lagMs,
        premove: e.premove,
      });
      state = outcome.state;
      states.push(state);
    }
    return { start, stored, states };
  }

  it.each(GAMES_PLAYED)('%s: a snapshot with the later moves replayed is the state that was played', (game) => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.nat(), (s, cut) => {
        let x = s;
        const random = () => (x = (x * 48271) % 2147483647) / 2147483647;
        const { start, stored, states } = playout(game, random);
        // From the start, and from any snapshot along the way.
        expect(replayMoves(start, stored)).toEqual(states.at(-1) ?? start);
        if (stored.length > 0) {
          const k = cut % stored.length;
          const snapshot = k === 0 ? start : states[k - 1]!;
          expect(replayMoves(JSON.parse(JSON.stringify(snapshot)) as ArenaState, stored.slice(k))).toEqual(states.at(-1));
        }
      }),
      { numRuns: game === 'chess' ? 15 : 40 },
    );
  });

  it('refuses a stored move that is not what was played', () => {
    const state = startArena({ game: 'tic-tac-toe', now: T0, seed, firstSeat: 0 });
    const first = moved(applyArenaMove(state, 0, 4, { now: T0 + 1_000, metrics: { lagMs: 50 } }));
    const row: StoredMove = { seq: 1, seat: 0, move: 4, at: T0 + 1_000, remainingMs: first.entry.remainingMs, lagMs: 50, premove: false };
    expect(replayMoves(state, [row]).board).toEqual(first.state.board);
    // Another time, another lag, another cell, out of turn, out of order: each an error, not a guess.
    expect(() => replayMoves(state, [{ ...row, at: T0 + 2_000 }])).toThrow(/another clock/);
    expect(() => replayMoves(state, [{ ...row, lagMs: null }])).toThrow(/another clock/);
    expect(() => replayMoves(state, [{ ...row, move: 9 }])).toThrow(/does not replay/);
    expect(() => replayMoves(state, [{ ...row, seat: 1 }])).toThrow(/does not replay/);
    expect(() => replayMoves(state, [{ ...row, seq: 2 }])).toThrow(/does not replay/);
  });
});

describe("a tournament's single game (best of 1)", () => {
  const play = (state: ArenaState, cells: number[]) =>
    cells.reduce((s, cell, i) => moved(applyArenaMove(s.state, toMoveOf(s.state)[0]!, cell, { now: T0 + i + 1, seed })), {
      state,
    } as { state: ArenaState; matchOutcome?: unknown });

  it('ends the match with its one game: a win wins it, a draw draws it (no replay)', () => {
    const won = play(startArena({ game: 'tic-tac-toe', now: T0, seed, firstSeat: 1, matchFormat: 'best-of-1' }), [0, 3, 1, 4, 2]);
    expect(won.matchOutcome).toEqual({ winner: 1, reason: 'games-won' });
    expect(won.state.games).toHaveLength(1);
    const drawn = play(startArena({ game: 'tic-tac-toe', now: T0, seed, matchFormat: 'best-of-1' }), [0, 1, 2, 4, 3, 5, 7, 6, 8]);
    expect(drawn.matchOutcome).toEqual({ draw: true, reason: 'drawn-game-cap' });
    expect(drawn.state.games).toHaveLength(1);
    // The same first game of a best of 3 only starts the series.
    const series = play(startArena({ game: 'tic-tac-toe', now: T0, seed, firstSeat: 1 }), [0, 3, 1, 4, 2]);
    expect(series.matchOutcome).toBeNull();
    expect(series.state.games).toHaveLength(2);
  });
});
