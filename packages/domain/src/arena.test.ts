import { describe, expect, it } from 'vitest';
import { gameDurationPresets } from './catalogue.ts';
import { describeTimeControl, matchTimeControl, timeControlLabel } from './arena.ts';
import { TIME_CONTROLS } from './games/index.ts';

describe('matchTimeControl', () => {
  it('gives each player a fifth of the match length per game, plus the game’s increment', () => {
    expect(matchTimeControl('tic-tac-toe', 5)).toEqual({ initialMs: 60_000, incrementMs: 5_000 });
    expect(matchTimeControl('tic-tac-toe', 15)).toEqual({ initialMs: 180_000, incrementMs: 5_000 });
    expect(matchTimeControl('chess', 10)).toEqual({ initialMs: 120_000, incrementMs: 3_000 });
    expect(matchTimeControl('chess', 60)).toEqual({ initialMs: 720_000, incrementMs: 3_000 });
    expect(matchTimeControl('rock-paper-scissors', 7)).toEqual({ initialMs: 84_000, incrementMs: 0 });
  });

  it('plays the game’s standard control when no length was chosen (a private room)', () => {
    expect(matchTimeControl('chess', null)).toEqual(TIME_CONTROLS.chess);
  });

  it('grows with every preset of every web game', () => {
    for (const game of ['tic-tac-toe', 'rock-paper-scissors', 'chess', 'checkers', 'ludo', 'ai-rock-paper-scissors'] as const) {
      const bases = gameDurationPresets(game).map((m) => matchTimeControl(game, m).initialMs);
      expect(bases.every((b, i) => i === 0 || b > bases[i - 1]!)).toBe(true);
    }
  });
});

describe('describeTimeControl', () => {
  it('reads like a time control', () => {
    expect(describeTimeControl({ initialMs: 60_000, incrementMs: 5_000 })).toBe('1 min + 5 s');
    expect(describeTimeControl({ initialMs: 84_000, incrementMs: 3_000 })).toBe('1 min 24 s + 3 s');
    expect(describeTimeControl({ initialMs: 30_000, incrementMs: 0 })).toBe('30 s');
  });
});

describe('timeControlLabel', () => {
  it('names the clock of a web game and nothing for an external one', () => {
    expect(timeControlLabel('tic-tac-toe', 10)).toBe('2 min + 5 s');
    expect(timeControlLabel('fifa-24', 30)).toBeNull();
  });
});
