import { describe, expect, it } from 'vitest';
import { LUDO_RULES, ludo, ludoCommitment, ludoRoll, ludoSquare, verifyLudoRolls, type LudoState } from './ludo.ts';
import { sha256Hex } from './sha256.ts';
import type { Seat } from './game.ts';

/** The first seed of the form `prefix-i` whose opening rolls are exactly `wanted`. */
function seedWith(wanted: number[], prefix = 'seed'): string {
  for (let i = 0; i < 100_000; i++) {
    const seed = `${prefix}-${i}`;
    if (wanted.every((roll, n) => ludoRoll(seed, n) === roll)) return seed;
  }
  throw new Error('no such seed');
}

/** A position to test a move from: `seat` is to move with `die` already rolled. */
function position(tokens: [number[], number[]], die: number, seat: Seat = 0): LudoState {
  return { ...ludo.setup({ seed: 'fixture-seed' }), tokens, turn: seat, phase: 'move', die };
}

function apply(state: LudoState, seat: Seat, move: unknown): LudoState {
  const result = ludo.applyMove(state, seat, move);
  if (!result.ok) throw new Error(result.error);
  return result.state;
}

const BASE = [-1, -1, -1, -1];

describe('ludo dice', () => {
  it('commits to the seed and derives every roll from it', () => {
    const state = ludo.setup({ seed: 'server-secret' });
    expect(state.commitment).toBe(sha256Hex('server-secret'));
    expect(ludoRoll('server-secret', 7)).toBe(ludoRoll('server-secret', 7));
  });

  it('rolls are fair: 1–6, each face about a sixth of 12,000 rolls', () => {
    const counts = [0, 0, 0, 0, 0, 0, 0];
    for (let n = 0; n < 12_000; n++) counts[ludoRoll('fairness', n)]! += 1;
    expect(counts[0]).toBe(0);
    for (const face of [1, 2, 3, 4, 5, 6]) expect(Math.abs(counts[face]! - 2000)).toBeLessThan(200);
  });

  it('a finished game verifies; a tampered seed, roll, extra roll or commitment does not', () => {
    let state = ludo.setup({ seed: 'verify-me' });
    for (let step = 0; step < 5000 && !ludo.outcome(state); step++) {
      const [seat] = ludo.toMove(state);
      const [move] = ludo.legalMoves(state, seat!);
      state = apply(state, seat!, move);
    }
    const view = ludo.viewFor(state, 'spectator');
    expect(view.outcome).not.toBeNull();
    expect(view.seed).toBe('verify-me');
    expect(verifyLudoRolls(view.commitment, view.seed!, view.rolls)).toBe(true);
    expect(verifyLudoRolls(view.commitment, 'verify-me!', view.rolls)).toBe(false);
    const tampered = view.rolls.slice();
    tampered[3] = (tampered[3]! % 6) + 1;
    expect(verifyLudoRolls(view.commitment, view.seed!, tampered)).toBe(false);
    expect(verifyLudoRolls(view.commitment, view.seed!, [...view.rolls, 7])).toBe(false);
    expect(verifyLudoRolls(ludoCommitment('another'), view.seed!, view.rolls)).toBe(false);
  });

  it('the seed stays hidden from both seats and spectators until the game is over', () => {
    const state = apply(ludo.setup({ seed: 'hidden-seed-123' }), 0, 'roll');
    for (const viewer of [0, 1, 'spectator'] as const) {
      const view = ludo.viewFor(state, viewer);
      expect(view.seed).toBeNull();
      expect(JSON.stringify(view)).not.toContain('hidden-seed-123');
    }
  });

  it('replaying the stored moves from the same seed gives the same game', () => {
    let state = ludo.setup({ seed: 'replay', firstSeat: 1 });
    const stored: unknown[] = [];
    for (let step = 0; step < 300 && !ludo.outcome(state); step++) {
      const [seat] = ludo.toMove(state);
      const moves = ludo.legalMoves(state, seat!);
      const move = moves[step % moves.length];
      const result = ludo.applyMove(state, seat!, move);
      if (!result.ok) throw new Error(result.error);
      stored.push([seat, result.move]);
      state = result.state;
    }
    let replay = ludo.setup({ seed: 'replay', firstSeat: 1 });
    for (const entry of stored) {
      const [seat, move] = entry as [Seat, unknown];
      replay = apply(replay, seat, move);
    }
    expect(replay).toEqual(state);
  });
});

describe('ludo rules', () => {
  it('a token needs a 6 to leave base; without one the turn passes', () => {
    const noSix = seedWith([3]);
    const passed = apply(ludo.setup({ seed: noSix }), 0, 'roll');
    expect(passed).toMatchObject({ turn: 1, phase: 'roll', rolls: [3] });
    expect(passed.moves).toEqual(['Player 1 rolled 3: no move']);
    const six = seedWith([6, 2]);
    const rolled = apply(ludo.setup({ seed: six }), 0, 'roll');
    expect(rolled).toMatchObject({ turn: 0, phase: 'move', die: 6 });
    expect(ludo.legalMoves(rolled, 0)).toHaveLength(4);
    const out = apply(rolled, 0, { type: 'move', token: 2 });
    expect(out.tokens[0]).toEqual([-1, -1, 0, -1]);
    // The 6 earns another roll.
    expect(out).toMatchObject({ turn: 0, phase: 'roll' });
    expect(apply(out, 0, 'roll')).toMatchObject({ turn: 0, phase: 'move', die: 2 });
  });

  it('the exact roll is needed to reach home', () => {
    expect(ludo.legalMoves(position([[53, -1, -1, -1], BASE], 4), 0)).toEqual([]);
    const home = apply(position([[53, 10, -1, -1], BASE], 3), 0, { token: 0 });
    expect(home.tokens[0]).toEqual([56, 10, -1, -1]);
    expect(ludo.applyMove(position([[53, 10, -1, -1], BASE], 4), 0, { token: 0 })).toMatchObject({ ok: false, code: 'illegal_move' });
  });

  it('landing on an opponent sends it back to base', () => {
    // Seat 1 progress 36 is absolute square (26 + 36) % 52 = 10.
    expect(ludoSquare(1, 36)).toEqual({ kind: 'track', square: 10 });
    const after = apply(
      position(
        [
          [7, -1, -1, -1],
          [36, 5, -1, -1],
        ],
        3,
      ),
      0,
      { token: 0 },
    );
    expect(after.tokens).toEqual([
      [10, -1, -1, -1],
      [-1, 5, -1, -1],
    ]);
    expect(after.moves.at(-1)).toBe('Player 1 moved token 1 to 10, capturing 1');
  });

  it('safe squares (stars and start squares) protect', () => {
    // Star: seat 1 at progress 34 stands on square 8.
    const star = apply(
      position(
        [
          [5, -1, -1, -1],
          [34, -1, -1, -1],
        ],
        3,
      ),
      0,
      { token: 0 },
    );
    expect(star.tokens).toEqual([
      [8, -1, -1, -1],
      [34, -1, -1, -1],
    ]);
    // Yellow's start square 26.
    const start = apply(
      position(
        [
          [23, -1, -1, -1],
          [0, -1, -1, -1],
        ],
        3,
      ),
      0,
      { token: 0 },
    );
    expect(start.tokens[1]).toEqual([0, -1, -1, -1]);
    expect(LUDO_RULES.safeSquares).toEqual([0, 8, 13, 21, 26, 34, 39, 47]);
  });

  it('home columns are private: tokens there cannot be captured', () => {
    // Seat 1 at progress 52 is in its home column; seat 0 passing square 24 does not touch it.
    expect(ludoSquare(1, 52)).toEqual({ kind: 'home-column', step: 2 });
    const after = apply(
      position(
        [
          [20, -1, -1, -1],
          [52, -1, -1, -1],
        ],
        4,
      ),
      0,
      { token: 0 },
    );
    expect(after.tokens[1]).toEqual([52, -1, -1, -1]);
  });

  it('a third 6 in a row ends the turn without moving', () => {
    let state = ludo.setup({ seed: seedWith([6, 6, 6]) });
    state = apply(apply(state, 0, 'roll'), 0, { token: 0 });
    state = apply(apply(state, 0, 'roll'), 0, { token: 0 });
    expect(state.tokens[0]).toEqual([6, -1, -1, -1]);
    state = apply(state, 0, 'roll');
    expect(state).toMatchObject({ turn: 1, phase: 'roll', sixes: 0, rolls: [6, 6, 6] });
    expect(state.tokens[0]).toEqual([6, -1, -1, -1]);
    expect(state.moves.at(-1)).toBe('Player 1 rolled 6: third six, turn over');
  });

  it('bringing the fourth token home wins, and reveals the seed', () => {
    const won = apply(
      position(
        [
          [56, 56, 56, 53],
          [10, -1, -1, -1],
        ],
        3,
      ),
      0,
      { token: 3 },
    );
    expect(ludo.outcome(won)).toEqual({ winner: 0, reason: 'all-tokens-home' });
    expect(ludo.toMove(won)).toEqual([]);
    expect(ludo.viewFor(won, 1).seed).toBe('fixture-seed');
    expect(ludo.applyMove(won, 1, 'roll')).toMatchObject({ ok: false, code: 'game_over' });
  });

  it('refuses moves out of turn, out of phase, and junk, changing nothing', () => {
    const rolling = ludo.setup({ seed: 's' });
    const moving = position([[4, -1, -1, -1], BASE], 2);
    const before = JSON.stringify([rolling, moving]);
    expect(ludo.applyMove(rolling, 1, 'roll')).toMatchObject({ ok: false, code: 'not_your_turn' });
    expect(ludo.applyMove(rolling, 0, { token: 0 })).toMatchObject({ ok: false, code: 'illegal_move' });
    expect(ludo.applyMove(moving, 0, 'roll')).toMatchObject({ ok: false, code: 'illegal_move' });
    expect(ludo.applyMove(moving, 0, { token: 1 })).toMatchObject({ ok: false, code: 'illegal_move' });
    for (const junk of [null, 'ROLL', 4, { token: 4 }, { token: -1 }, { type: 'jump' }, { token: 1.5 }, []]) {
      expect(ludo.applyMove(moving, 0, junk), JSON.stringify(junk)).toMatchObject({ ok: false, code: 'invalid_move' });
    }
    expect(JSON.stringify([rolling, moving])).toBe(before);
  });
});
