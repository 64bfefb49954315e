import { describe, expect, it } from 'vitest';
import {
  checkers,
  checkersFromPosition,
  checkersPerft,
  checkersPositionOf,
  CHECKERS_START,
  generateMoves,
  type CheckersState,
} from './checkers.ts';

/** Perft through the rules interface: applyMove down the tree, legalMoves counted at the leaves. */
function perft(state: CheckersState, depth: number): number {
  const [seat] = checkers.toMove(state);
  if (seat === undefined) return 0;
  const moves = checkers.legalMoves(state, seat);
  if (depth === 1) return moves.length;
  let nodes = 0;
  for (const move of moves) {
    const result = checkers.applyMove(state, seat, move);
    if (!result.ok) throw new Error(`${move}: ${result.error}`);
    nodes += perft(result.state, depth - 1);
  }
  return nodes;
}

function play(state: CheckersState, moves: unknown[]): CheckersState {
  for (const move of moves) {
    const [seat] = checkers.toMove(state);
    if (seat === undefined) throw new Error('game over');
    const result = checkers.applyMove(state, seat, move);
    if (!result.ok) throw new Error(`${JSON.stringify(move)}: ${result.error}`);
    state = result.state;
  }
  return state;
}

const COUNTS = [7, 49, 302, 1469, 7361, 36_768];

describe('checkers move generation', () => {
  it(`counts from the start position to depth 6: ${COUNTS.join(', ')}`, () => {
    expect(COUNTS.map((_, i) => checkersPerft(CHECKERS_START, i + 1))).toEqual(COUNTS);
  });

  it('gives the same counts through the rules interface', () => {
    const state = checkers.setup({ seed: 's' });
    expect(COUNTS.map((_, i) => perft(state, i + 1))).toEqual(COUNTS);
  });

  it('goes on matching the published counts at depths 7 and 8 (179,740 and 845,931), in well under a second', () => {
    expect(checkersPerft(CHECKERS_START, 7)).toBe(179_740);
    expect(checkersPerft(CHECKERS_START, 8)).toBe(845_931);
  });

  it('opens with the seven standard moves, black (the first seat) first', () => {
    const state = checkers.setup({ seed: 's', firstSeat: 1 });
    expect(checkers.toMove(state)).toEqual([1]);
    expect(checkers.legalMoves(state, 1).sort()).toEqual(['10-14', '10-15', '11-15', '11-16', '12-16', '9-13', '9-14'].sort());
  });
});

describe('checkers rules', () => {
  it('captures are forced', () => {
    const state = checkersFromPosition({ black: [14, 1], white: [18, 32] });
    expect(checkers.legalMoves(state, 0)).toEqual(['14x23']);
    expect(checkers.applyMove(state, 0, '1-5')).toMatchObject({ ok: false, code: 'illegal_move' });
    const after = play(state, ['14x23']);
    expect(checkers.viewFor(after, 'spectator').board[17]).toBeNull();
  });

  it('a multi-jump is one move and must be completed; either branch may be chosen', () => {
    const state = checkersFromPosition({ black: [9, 1], white: [14, 23, 22, 32] });
    expect(checkers.legalMoves(state, 0).sort()).toEqual(['9x18x25', '9x18x27']);
    expect(checkers.applyMove(state, 0, '9x18')).toMatchObject({ ok: false, code: 'illegal_move' });
    const after = checkers.applyMove(state, 0, { path: [9, 18, 27] });
    expect(after).toMatchObject({ ok: true, move: '9x18x27', notation: '9x18x27' });
    if (after.ok) expect(checkers.viewFor(after.state, 'spectator').board.filter((p) => p === 'w')).toHaveLength(2);
    // Given by its ends only, a capture is accepted when unambiguous.
    expect(checkers.applyMove(state, 0, '9x27')).toMatchObject({ ok: true, move: '9x18x27' });
  });

  it('a man reaching the last row is crowned and the chain ends there; a king would go on', () => {
    const man = checkersFromPosition({ black: [21], white: [25, 26, 1] });
    expect(checkers.legalMoves(man, 0)).toEqual(['21x30']);
    const crowned = play(man, ['21x30']);
    expect(checkers.viewFor(crowned, 'spectator').board[29]).toBe('B');
    const king = checkersFromPosition({ black: [21], white: [25, 26, 1], kings: [21] });
    expect(checkers.legalMoves(king, 0)).toEqual(['21x30x23']);
  });

  it('kings move both ways; men only forward', () => {
    expect(checkers.legalMoves(checkersFromPosition({ black: [14], white: [32], kings: [14] }), 0).sort()).toEqual(
      ['14-10', '14-17', '14-18', '14-9'].sort(),
    );
    expect(checkers.legalMoves(checkersFromPosition({ black: [14], white: [32] }), 0).sort()).toEqual(['14-17', '14-18']);
    expect(checkers.legalMoves(checkersFromPosition({ black: [1], white: [18], turn: 'white' }), 0)).toEqual([]);
    expect(checkers.legalMoves(checkersFromPosition({ black: [1], white: [18], turn: 'white' }), 1).sort()).toEqual(['18-14', '18-15']);
  });

  it('no moves left loses: blocked, or no pieces', () => {
    const blocked = checkersFromPosition({ black: [25], white: [29, 30] });
    expect(checkers.outcome(blocked)).toEqual({ winner: 1, reason: 'no-moves-left' });
    const lastPiece = play(checkersFromPosition({ black: [14], white: [18] }), ['14x23']);
    expect(checkers.outcome(lastPiece)).toEqual({ winner: 0, reason: 'no-moves-left' });
  });

  it('threefold repetition is a draw', () => {
    const shuffle = ['1-5', '32-28', '5-1', '28-32'];
    const state = checkersFromPosition({ black: [1], white: [32], kings: [1, 32] });
    const twice = play(state, shuffle);
    expect(checkers.outcome(twice)).toBeNull();
    expect(checkers.outcome(play(twice, shuffle))).toEqual({ draw: true, reason: 'threefold-repetition' });
  });

  it('forty moves each without a capture or a man moving is a draw; a man move resets the count', () => {
    const kings = { ...checkersFromPosition({ black: [1, 12], white: [32], kings: [1, 32] }), quietPlies: 79 };
    expect(checkers.outcome(play(kings, ['1-5']))).toEqual({ draw: true, reason: 'forty-move-rule' });
    const manMoved = play(kings, ['12-16']);
    expect(checkers.outcome(manMoved)).toBeNull();
    expect(manMoved.quietPlies).toBe(0);
  });

  it('refuses moves out of turn and junk, changing nothing', () => {
    const state = checkers.setup({ seed: 's' });
    const before = JSON.stringify(state);
    expect(checkers.applyMove(state, 1, '21-17')).toMatchObject({ ok: false, code: 'not_your_turn' });
    for (const move of ['11-14', '9-18', '22-18', '1-5']) {
      expect(checkers.applyMove(state, 0, move), move).toMatchObject({ ok: false, code: 'illegal_move' });
    }
    for (const junk of ['0-4', '33-1', 'e2e4', 11, null, {}, { path: [11] }, { path: ['11', '15'] }, '1-'.repeat(20)]) {
      expect(checkers.applyMove(state, 0, junk), JSON.stringify(junk)).toMatchObject({ ok: false, code: 'invalid_move' });
    }
    expect(JSON.stringify(state)).toBe(before);
  });

  it("a view's board gives back the position it shows, kings included, so a client finds the same legal moves", () => {
    const state = checkersFromPosition({ black: [9, 1, 30], white: [14, 23, 22, 32], kings: [30, 22], turn: 'white' }, 1);
    const board = checkers.viewFor(state, 'spectator').board;
    const position = checkersPositionOf(board, 'white');
    expect(position).toEqual({ black: state.black, white: state.white, kings: state.kings, turn: 'white' });
    expect(generateMoves(position)).toEqual(generateMoves(state));
    expect(checkersPositionOf(checkers.viewFor(checkers.setup({ seed: 's' }), 0).board, 'black')).toEqual(CHECKERS_START);
  });
});
