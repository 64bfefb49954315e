import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { aiRandom, aiRockPaperScissors as ai, aiThrow, verifyAiThrow, type AiRockPaperScissorsState } from './ai-rock-paper-scissors.ts';
import { BEATEN_BY, THROWS, type Throw } from './rock-paper-scissors.ts';

const aThrow = fc.constantFrom(...THROWS);
const unit = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

function playGame(previous: AiRockPaperScissorsState | undefined, seed: string, t: Throw): AiRockPaperScissorsState {
  const state = ai.setup(previous ? { seed, previous } : { seed });
  const result = ai.applyMove(state, 0, t);
  if (!result.ok) throw new Error(result.error);
  return result.state;
}

describe('ai-rock-paper-scissors', () => {
  it("the computer's choice is a pure function of (history, random)", () => {
    fc.assert(
      fc.property(fc.array(aThrow, { maxLength: 30 }), unit, (history, r) => {
        expect(aiThrow(history, r)).toBe(aiThrow([...history], r));
        expect(THROWS).toContain(aiThrow(history, r));
      }),
    );
    expect(aiRandom('seed')).toBe(aiRandom('seed'));
    expect(aiRandom('seed')).toBeGreaterThanOrEqual(0);
    expect(aiRandom('seed')).toBeLessThan(1);
  });

  it('learns: against a player who mostly throws rock it mostly plays paper', () => {
    const history: Throw[] = Array.from({ length: 30 }, (_, i) => (i % 10 === 0 ? 'scissors' : 'rock'));
    const picks = Array.from({ length: 100 }, (_, i) => aiThrow(history, i / 100));
    expect(picks.filter((p) => p === 'paper').length).toBeGreaterThan(70);
  });

  it('learns sequences: after a cycle rock → paper → scissors it expects the next step', () => {
    const history: Throw[] = Array.from({ length: 30 }, (_, i) => THROWS[i % 3]!); // ends on scissors
    const picks = Array.from({ length: 100 }, (_, i) => aiThrow(history, i / 100));
    // After scissors this player threw rock every time, so the computer favours paper.
    expect(picks.filter((p) => p === BEATEN_BY.rock).length).toBeGreaterThan(50);
  });

  it('over a series, the memory carries from game to game and the computer beats a one-note player', () => {
    let state: AiRockPaperScissorsState | undefined;
    let computerWins = 0;
    for (let game = 0; game < 60; game++) {
      state = playGame(state, `seed-${game}`, 'rock');
      const outcome = ai.outcome(state);
      if (outcome && 'winner' in outcome && outcome.winner === 1) computerWins += 1;
    }
    expect(state!.history).toHaveLength(59);
    expect(computerWins).toBeGreaterThan(40);
  });

  it("hides the computer's throw and the seed until the player has thrown, then both verify", () => {
    const state = ai.setup({ seed: 'a-secret-seed', previous: playGame(undefined, 'x', 'paper') });
    const view = ai.viewFor(state, 0);
    expect(view.throws).toEqual([null, null]);
    expect(view.seed).toBeNull();
    expect(JSON.stringify(view)).not.toContain('a-secret-seed');
    expect(ai.toMove(state)).toEqual([0]);
    expect(ai.applyMove(state, 1, 'rock')).toMatchObject({ ok: false, code: 'not_your_turn' });
    const done = ai.applyMove(state, 0, 'scissors');
    if (!done.ok) throw new Error(done.error);
    const after = ai.viewFor(done.state, 'spectator');
    expect(after.throws).toEqual(['scissors', state.computer]);
    expect(after.seed).toBe('a-secret-seed');
    expect(verifyAiThrow(after.commitment, after.seed!, after.history, after.throws[1]!)).toBe(true);
    expect(verifyAiThrow(after.commitment, 'another-seed', after.history, after.throws[1]!)).toBe(false);
    const other = THROWS.find((t) => t !== state.computer)!;
    expect(verifyAiThrow(after.commitment, after.seed!, after.history, other)).toBe(false);
  });
});
