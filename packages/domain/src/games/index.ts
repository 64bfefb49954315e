// The web games, one module each behind the one `GameRules` interface, and their registry.
// Adding a game: one file implementing GameRules, one entry here, one time control in clock.ts.
import { aiRockPaperScissors } from './ai-rock-paper-scissors.ts';
import { checkers } from './checkers.ts';
import { chess } from './chess.ts';
import { GAME_IDS, type GameId, type GameRules } from './game.ts';
import { ludo } from './ludo.ts';
import { rockPaperScissors } from './rock-paper-scissors.ts';
import { ticTacToe } from './tic-tac-toe.ts';

/** Rules with the game's own types erased, for code that handles every game alike (the server). */
export type AnyGameRules = GameRules<unknown, unknown, unknown>;

export const gameRules = {
  'tic-tac-toe': ticTacToe,
  'rock-paper-scissors': rockPaperScissors,
  chess,
  checkers,
  ludo,
  'ai-rock-paper-scissors': aiRockPaperScissors,
} as const satisfies { readonly [K in GameId]: AnyGameRules };

/** Whether a challenge's game is played in the browser and refereed here (the others are external). */
export function isWebGame(id: string): id is GameId {
  return (GAME_IDS as readonly string[]).includes(id);
}

export function getGameRules(id: GameId): AnyGameRules {
  return gameRules[id];
}

export * from './game.ts';
export * from './series.ts';
export * from './clock.ts';
export { sha256Hex } from './sha256.ts';
export * from './tic-tac-toe.ts';
export * from './rock-paper-scissors.ts';
export * from './ai-rock-paper-scissors.ts';
export * from './chess.ts';
export * from './checkers.ts';
export * from './ludo.ts';
