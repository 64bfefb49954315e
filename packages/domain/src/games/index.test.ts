import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { GAME_IDS, gameRules, getGameRules, isWebGame, otherSeat, TIME_CONTROLS, type AnyGameRules, type Seat } from './index.ts';

describe('registry', () => {
  it('has one rules module and one time control per web game', () => {
    expect(Object.keys(gameRules).sort()).toEqual([...GAME_IDS].sort());
    for (const id of GAME_IDS) {
      expect(getGameRules(id).id).toBe(id);
      expect(TIME_CONTROLS[id]).toBeDefined();
    }
  });

  it('tells web games from external ones', () => {
    for (const id of GAME_IDS) expect(isWebGame(id)).toBe(true);
    for (const id of ['fortnite', 'FIFA 24', 'valorant', 'Chess', '', 'toString', '__proto__']) expect(isWebGame(id)).toBe(false);
  });
});

/** Properties every game must keep, checked on random playouts through the interface only. */
describe.each(GAME_IDS.map((id) => [id, getGameRules(id)] as [string, AnyGameRules]))('%s: interface properties', (_id, rules) => {
  it('legal moves are accepted, input is never trusted, state is never mutated, JSON round-trips', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12 }),
        fc.constantFrom<Seat>(0, 1),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.anything()), { minLength: 1, maxLength: 40 }),
        (seed, firstSeat, steps) => {
          let state = rules.setup({ seed, firstSeat });
          for (const [pickSeat, pickMove, junk] of steps) {
            const seats = rules.toMove(state);
            if (seats.length === 0) {
              expect(rules.outcome(state)).not.toBeNull();
              expect([...rules.legalMoves(state, 0), ...rules.legalMoves(state, 1)]).toEqual([]);
              expect(rules.applyMove(state, 0, junk)).toMatchObject({ ok: false, code: 'game_over' });
              return;
            }
            expect(rules.outcome(state)).toBeNull();
            const seat = seats[pickSeat % seats.length]!;
            const legal = rules.legalMoves(state, seat);
            expect(legal.length).toBeGreaterThan(0);
            const snapshot = JSON.stringify(state);

            // Out of turn, and arbitrary input: refused or accepted, never thrown, nothing mutated.
            if (!seats.includes(otherSeat(seat))) {
              expect(rules.legalMoves(state, otherSeat(seat))).toEqual([]);
              expect(rules.applyMove(state, otherSeat(seat), legal[0])).toMatchObject({ ok: false, code: 'not_your_turn' });
            }
            const junkResult = rules.applyMove(state, seat, junk);
            expect(typeof junkResult.ok).toBe('boolean');
            if (!junkResult.ok) expect(junkResult.error.length).toBeGreaterThan(0);

            const move = legal[pickMove % legal.length];
            const result = rules.applyMove(state, seat, move);
            expect(JSON.stringify(state)).toBe(snapshot);
            if (!result.ok) throw new Error(`${JSON.stringify(move)} refused: ${result.error}`);
            expect(result.notation.length).toBeGreaterThan(0);
            // Replaying the canonical move on a state reloaded from JSON gives the same state.
            const replayed = rules.applyMove(JSON.parse(snapshot) as unknown, seat, result.move);
            expect(replayed.ok && replayed.state).toEqual(result.state);

            state = JSON.parse(JSON.stringify(result.state)) as unknown;
            for (const viewer of [0, 1, 'spectator'] as const) {
              const view = rules.viewFor(state, viewer);
              expect(JSON.parse(JSON.stringify(view))).toEqual(view);
            }
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('time out loses the game for the flagged seat (or draws, in chess against a bare king)', () => {
    const state = rules.setup({ seed: 'timeout' });
    expect(rules.timeoutOutcome(state, 0)).toEqual({ winner: 1, reason: 'timeout' });
    expect(rules.timeoutOutcome(state, 1)).toEqual({ winner: 0, reason: 'timeout' });
  });
});
