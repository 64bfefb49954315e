// One board per web game, each its own chunk, loaded when a match of that game is opened.
// SPEC §2: on /live-arena the game screens are preloaded after 3 s, and ludo 2 s after that.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { GameId } from '@versus/domain/games/game';
import type { BoardProps } from './types.ts';

type Loader = () => Promise<{ default: ComponentType<BoardProps> }>;

const loaders: Record<GameId, Loader> = {
  'tic-tac-toe': () => import('./TicTacToeBoard.tsx'),
  'rock-paper-scissors': () => import('./RockPaperScissorsBoard.tsx'),
  chess: () => import('./ChessBoard.tsx'),
  checkers: () => import('./CheckersBoard.tsx'),
  ludo: () => import('./LudoBoard.tsx'),
  'ai-rock-paper-scissors': () => import('./AiRockPaperScissorsBoard.tsx'),
};

// A failed chunk download is not remembered: the next render (the error boundary's retry) loads it again.
function lazyBoard(load: Loader): { current: LazyExoticComponent<ComponentType<BoardProps>> } {
  const holder = {
    current: lazy(() =>
      load().catch((error: unknown) => {
        holder.current = lazyBoard(load).current;
        throw error;
      }),
    ),
  };
  return holder;
}

const boards = Object.fromEntries(Object.entries(loaders).map(([id, load]) => [id, lazyBoard(load)])) as Record<
  GameId,
  { current: LazyExoticComponent<ComponentType<BoardProps>> }
>;

export function boardFor(game: GameId): LazyExoticComponent<ComponentType<BoardProps>> {
  return boards[game].current;
}

function preload(load: Loader): void {
  load().catch((error: unknown) => console.debug('Preloading a game board failed', error));
}

/** Every game screen but ludo's. */
export function preloadGameBoards(): void {
  for (const [id, load] of Object.entries(loaders)) if (id !== 'ludo') preload(load);
}

export function preloadLudoBoard(): void {
  preload(loaders.ludo);
}
