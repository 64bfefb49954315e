import { describe, expect, it } from 'vitest';
import { Chess } from 'chess.js';
import { chess, chessFromFen, type ChessState } from './chess.ts';

/** Perft through the rules interface: applyMove down the tree, legalMoves counted at the leaves. */
function perft(state: ChessState, depth: number): number {
  const [seat] = chess.toMove(state);
  if (seat === undefined) return 0;
  const moves = chess.legalMoves(state, seat);
  if (depth === 1) return moves.length;
  let nodes = 0;
  for (const move of moves) {
    const result = chess.applyMove(state, seat, move);
    if (!result.ok) throw new Error(`${move}: ${result.error}`);
    nodes += perft(result.state, depth - 1);
  }
  return nodes;
}

function play(state: ChessState, moves: unknown[]): ChessState {
  for (const move of moves) {
    const [seat] = chess.toMove(state);
    if (seat === undefined) throw new Error('game over');
    const result = chess.applyMove(state, seat, move);
    if (!result.ok) throw new Error(`${JSON.stringify(move)}: ${result.error}`);
    state = result.state;
  }
  return state;
}

const start = () => chess.setup({ seed: 's' });

// chessprogramming.org's perft fixtures: `viaRules` plies go through the rules interface, deeper
// ones through chess.js's own perft, the engine the rules delegate to.
const PERFT: Array<{ name: string; fen: string; counts: number[]; viaRules: number }> = [
  {
    name: 'start position',
    fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    counts: [20, 400, 8902, 197_281],
    viaRules: 4,
  },
  {
    name: 'Kiwipete',
    fen: 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
    counts: [48, 2039, 97_862],
    viaRules: 3,
  },
  { name: 'position 3', fen: '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', counts: [14, 191, 2812, 43_238], viaRules: 3 },
  { name: 'position 4', fen: 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', counts: [6, 264, 9467], viaRules: 3 },
  { name: 'position 5', fen: 'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8', counts: [44, 1486, 62_379], viaRules: 2 },
];

describe('chess perft', () => {
  for (const { name, fen, counts, viaRules } of PERFT) {
    it(`${name}: ${counts.join(', ')}`, { timeout: 60_000 }, () => {
      const state = chessFromFen(fen);
      const engine = new Chess(fen);
      const found = counts.map((_, i) => (i < viaRules ? perft(state, i + 1) : engine.perft(i + 1)));
      expect(found).toEqual(counts);
    });
  }
});

describe('chess legal moves', () => {
  it('are exactly chess.js’s moves in UCI (castling, en passant, promotions)', () => {
    for (const { fen } of PERFT) {
      const state = chessFromFen(fen);
      const expected = new Chess(fen)
        .moves({ verbose: true })
        .map((m) => m.lan)
        .sort();
      expect(chess.legalMoves(state, 0).sort()).toEqual(expected);
    }
    const enPassant = chessFromFen('4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2');
    expect(chess.legalMoves(enPassant, 0)).toContain('e5d6');
  });
});

describe('chess endings', () => {
  it("scholar's mate in SAN: white (the first seat) wins by checkmate", () => {
    const state = play(chess.setup({ seed: 's', firstSeat: 1 }), ['e4', 'e5', 'Bc4', 'Nc6', 'Qh5', 'Nf6', 'Qxf7#']);
    expect(chess.outcome(state)).toEqual({ winner: 1, reason: 'checkmate' });
    expect(state.sans).toEqual(['e4', 'e5', 'Bc4', 'Nc6', 'Qh5', 'Nf6', 'Qxf7#']);
    expect(state.moves).toEqual(['e2e4', 'e7e5', 'f1c4', 'b8c6', 'd1h5', 'g8f6', 'h5f7']);
    expect(chess.toMove(state)).toEqual([]);
    expect(chess.applyMove(state, 0, 'a6')).toMatchObject({ ok: false, code: 'game_over' });
  });

  it('stalemate is a draw', () => {
    const state = play(chessFromFen('7k/5Q2/8/6K1/8/8/8/8 w - - 0 1'), ['Kg6']);
    expect(chess.outcome(state)).toEqual({ draw: true, reason: 'stalemate' });
  });

  it('threefold repetition is a draw, also across a reload of the state as JSON', () => {
    let state = play(start(), ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1']);
    expect(chess.outcome(state)).toBeNull();
    state = JSON.parse(JSON.stringify(state)) as ChessState;
    state = play(state, ['Ng8']);
    expect(chess.outcome(state)).toEqual({ draw: true, reason: 'threefold-repetition' });
  });

  it('a pawn move resets the repetition history', () => {
    const state = play(start(), ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'e4']);
    expect(state.positions).toHaveLength(1);
  });

  it('fifty moves without a pawn move or capture is a draw, but a mate on the last one wins', () => {
    expect(chess.outcome(play(chessFromFen('8/8/8/4k3/8/8/4K3/R7 w - - 99 80'), ['Ra2']))).toEqual({
      draw: true,
      reason: 'fifty-move-rule',
    });
    expect(chess.outcome(play(chessFromFen('k7/8/1K6/8/8/8/8/7R w - - 99 80'), ['Rh8#']))).toEqual({
      winner: 0,
      reason: 'checkmate',
    });
  });

  it('insufficient material is a draw', () => {
    const state = play(chessFromFen('8/8/8/4k3/8/8/3rK3/8 w - - 0 1'), ['Kxd2']);
    expect(chess.outcome(state)).toEqual({ draw: true, reason: 'insufficient-material' });
  });

  it('promotion needs a piece; UCI, SAN and object forms all work, underpromotion too', () => {
    const state = chessFromFen('8/P7/8/8/8/8/8/k6K w - - 0 1');
    expect(chess.applyMove(state, 0, 'a7a8')).toMatchObject({ ok: false, code: 'illegal_move', error: expect.stringContaining('promote') });
    expect(chess.applyMove(state, 0, 'a7a8q')).toMatchObject({ ok: true, move: 'a7a8q', notation: 'a8=Q+' });
    expect(chess.applyMove(state, 0, 'a8=Q')).toMatchObject({ ok: true, move: 'a7a8q' });
    const knight = chess.applyMove(state, 0, { from: 'a7', to: 'a8', promotion: 'n' });
    expect(knight).toMatchObject({ ok: true, move: 'a7a8n', notation: 'a8=N' });
    if (knight.ok) expect(knight.state.fen.startsWith('N7/')).toBe(true);
    expect(chess.legalMoves(state, 0)).toEqual(expect.arrayContaining(['a7a8q', 'a7a8r', 'a7a8b', 'a7a8n']));
  });

  it('castling in SAN and UCI, with 0-0 accepted', () => {
    const state = chessFromFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
    expect(chess.applyMove(state, 0, 'O-O')).toMatchObject({ ok: true, move: 'e1g1' });
    expect(chess.applyMove(state, 0, '0-0-0')).toMatchObject({ ok: true, move: 'e1c1' });
    expect(chess.applyMove(state, 0, 'e1g1')).toMatchObject({ ok: true, notation: 'O-O' });
  });

  it('refuses moves out of turn, illegal moves, null moves and junk, changing nothing', () => {
    const state = start();
    const before = JSON.stringify(state);
    expect(chess.applyMove(state, 1, 'e5')).toMatchObject({ ok: false, code: 'not_your_turn' });
    for (const move of ['e2e5', 'Ke2', '--', 'Nf6', 'e9', 'O-O', 'zz']) {
      expect(chess.applyMove(state, 0, move), move).toMatchObject({ ok: false, code: 'illegal_move' });
    }
    for (const junk of [null, 42, {}, { from: 'e2' }, { from: 'e2', to: 'e4', promotion: 'k' }, 'x'.repeat(40), [], undefined]) {
      expect(chess.applyMove(state, 0, junk), JSON.stringify(junk)).toMatchObject({ ok: false, code: 'invalid_move' });
    }
    expect(JSON.stringify(state)).toBe(before);
  });

  it('time out loses, except against a bare king', () => {
    expect(chess.timeoutOutcome(start(), 0)).toEqual({ winner: 1, reason: 'timeout' });
    const bare = chessFromFen('4k3/8/8/8/8/8/8/QQQQK3 w - - 0 1', 1);
    // Seat 1 plays white (four queens), seat 0 has a bare king.
    expect(chess.timeoutOutcome(bare, 0)).toEqual({ winner: 1, reason: 'timeout' });
    expect(chess.timeoutOutcome(bare, 1)).toEqual({ draw: true, reason: 'timeout-vs-insufficient-material' });
  });

  it('the view names whose turn it is and lists only the viewer’s legal moves', () => {
    const state = play(start(), ['e4']);
    expect(chess.viewFor(state, 1)).toMatchObject({ turn: 1, lastMove: 'e2e4', sans: ['e4'], inCheck: false });
    expect(chess.viewFor(state, 1).legal).toHaveLength(20);
    expect(chess.viewFor(state, 0).legal).toEqual([]);
    expect(chess.viewFor(state, 'spectator').legal).toEqual([]);
  });
});
