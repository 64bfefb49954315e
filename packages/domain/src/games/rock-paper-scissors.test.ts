import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { judgeThrows, rockPaperScissors as rps, THROWS, type RockPaperScissorsState, type Throw } from './rock-paper-scissors.ts';
import type { Seat, Viewer } from './game.ts';

const aThrow = fc.constantFrom(...THROWS);
const aSeat = fc.constantFrom<Seat>(0, 1);

function throwBy(state: RockPaperScissorsState, seat: Seat, t: Throw): RockPaperScissorsState {
  const result = rps.applyMove(state, seat, t);
  if (!result.ok) throw new Error(result.error);
  return result.state;
}

describe('rock-paper-scissors', () => {
  it('judges every pair of throws', () => {
    expect(judgeThrows('rock', 'scissors')).toEqual({ winner: 0, reason: 'throw' });
    expect(judgeThrows('scissors', 'paper')).toEqual({ winner: 0, reason: 'throw' });
    expect(judgeThrows('paper', 'rock')).toEqual({ winner: 0, reason: 'throw' });
    expect(judgeThrows('scissors', 'rock')).toEqual({ winner: 1, reason: 'throw' });
    for (const t of THROWS) expect(judgeThrows(t, t)).toEqual({ draw: true, reason: 'same-throw' });
  });

  it('both seats move until they have thrown; a second throw is refused', () => {
    let state = rps.setup({ seed: 's' });
    expect(rps.toMove(state)).toEqual([0, 1]);
    state = throwBy(state, 1, 'rock');
    expect(rps.toMove(state)).toEqual([0]);
    expect(rps.applyMove(state, 1, 'paper')).toMatchObject({ ok: false, code: 'not_your_turn' });
    expect(rps.applyMove(state, 0, 'lizard')).toMatchObject({ ok: false, code: 'invalid_move' });
    const done = rps.applyMove(state, 0, { throw: 'Paper' });
    expect(done).toMatchObject({ ok: true, move: 'paper', notation: 'Player 1 threw' });
    if (done.ok) {
      expect(rps.outcome(done.state)).toEqual({ winner: 0, reason: 'throw' });
      expect(rps.applyMove(done.state, 0, 'rock')).toMatchObject({ ok: false, code: 'game_over' });
    }
  });

  it("secrecy: before both are in, the opponent's and a spectator's views cannot tell the throw apart", () => {
    fc.assert(
      fc.property(aSeat, aThrow, aThrow, (thrower, secret, other) => {
        const before = rps.setup({ seed: 's' });
        const a = throwBy(before, thrower, secret);
        const b = throwBy(before, thrower, other);
        const opponent: Viewer = thrower === 0 ? 1 : 0;
        // Views of two different hidden throws must be identical, byte for byte.
        expect(JSON.stringify(rps.viewFor(a, opponent))).toBe(JSON.stringify(rps.viewFor(b, opponent)));
        expect(JSON.stringify(rps.viewFor(a, 'spectator'))).toBe(JSON.stringify(rps.viewFor(b, 'spectator')));
        // The public notation of the move never names the throw either.
        const result = rps.applyMove(before, thrower, secret);
        expect(result.ok && result.notation.toLowerCase()).not.toContain(secret);
        // The thrower sees its own throw; once both are in, everyone sees both.
        expect(rps.viewFor(a, thrower).throws[thrower]).toBe(secret);
        const full = throwBy(a, opponent, 'rock');
        expect(rps.viewFor(full, 'spectator').throws[thrower]).toBe(secret);
      }),
    );
  });
});
