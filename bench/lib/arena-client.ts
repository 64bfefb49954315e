// What a bench player does on the arena: a random legal move from the event's board, as the web
// board does (bench/moves, bench/lifecycle).
import WebSocket from 'ws';
import type { MatchEvent } from '@versus/domain/arena';
import { checkersNotation, checkersPositionOf, generateMoves, type CheckersView } from '@versus/domain/games/checkers';
import { THROWS } from '@versus/domain/games/rock-paper-scissors';
import { REALTIME_PROTOCOL } from '@versus/domain/realtime';
import { messageText } from '../../apps/server/src/realtime/message-text.ts';

export const BENCH_GAMES = ['checkers', 'tic-tac-toe', 'rock-paper-scissors'] as const;
export type BenchGame = (typeof BENCH_GAMES)[number];

/** GAME from the environment, one of `allowed` (the first by default). */
export function benchGame(value: string | undefined, allowed: readonly BenchGame[] = BENCH_GAMES): BenchGame {
  const game = (value ?? allowed[0]) as BenchGame;
  if (!allowed.includes(game)) throw new Error(`GAME must be one of ${allowed.join(', ')}`);
  return game;
}

/** A random legal move for `seat` from the board in `event`. */
export function chooseMove(game: BenchGame, seat: 0 | 1, event: MatchEvent): unknown {
  if (game === 'checkers') {
    // As the web board does (checkers-geometry.ts legalPaths): the legal moves of the event's board.
    const view = event.game!.view as CheckersView;
    const legal = generateMoves(checkersPositionOf(view.board, view.blackSeat === seat ? 'black' : 'white'));
    return checkersNotation(legal[Math.floor(Math.random() * legal.length)]!);
  }
  if (game === 'rock-paper-scissors') return THROWS[Math.floor(Math.random() * THROWS.length)]!;
  const cells = (event.game!.view as { cells: (number | null)[] }).cells;
  const free: number[] = [];
  for (let i = 0; i < 9; i++) if (cells[i] === null) free.push(i);
  return free[Math.floor(Math.random() * free.length)]!;
}

/**
 * Whether `seat` may move on its latest event and has not moved on it yet. Rock-paper-scissors
 * gives both seats the turn: with one move in flight per pair, seat 0 throws first, then seat 1.
 */
export const mayMove = (seat: 0 | 1, last: MatchEvent | null, movedOn: number): boolean =>
  last !== null && last.status === 'in_progress' && last.toMove.includes(seat) && movedOn < last.version;

/** A socket to the server on `port`, signed in with `token` (hello answered by welcome). */
export function signedInSocket(port: number, token: string, localAddress?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/realtime`, { perMessageDeflate: false, ...(localAddress ? { localAddress } : {}) });
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ t: 'hello', d: { token, protocol: REALTIME_PROTOCOL } })));
    ws.once('message', (data) => {
      const message = JSON.parse(messageText(data)) as { t: string };
      if (message.t !== 'welcome') return reject(new Error(`expected welcome, got ${messageText(data)}`));
      resolve(ws);
    });
  });
}
