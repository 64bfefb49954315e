// Small words and numbers of the arena screens.
import type { ArenaPlayer, MatchView } from '@versus/domain/arena';
import type { Currency } from '@versus/domain';
import { formatMoney, toMinor } from '@versus/domain/money';
import { GAME_IDS, type GameId, type Seat } from '@versus/domain/games/game';

/** A player as the screens name them: gamertag, else display name, else username. */
export const playerName = (p: Pick<ArenaPlayer, 'gamertag' | 'displayName' | 'username'>): string =>
  p.gamertag?.trim() || p.displayName?.trim() || p.username;

/** A stake or payout (whole units) as money: "$20.00", "20.00 VT". */
export const money = (units: number, currency: Currency): string => formatMoney(toMinor(units), currency);

export const otherSeat = (seat: Seat): Seat => (seat === 0 ? 1 : 0);

/** Who sits at the bottom of the screen: the viewer, or for a spectator the side at the board's bottom. */
export function bottomSeat(view: Pick<MatchView, 'viewerSeat' | 'gameType' | 'game'>): Seat {
  if (view.viewerSeat !== null) return view.viewerSeat;
  const board = view.game?.view as { white?: Seat; blackSeat?: Seat } | undefined;
  if (view.gameType === 'chess' && board?.white !== undefined) return board.white;
  if (view.gameType === 'checkers' && board?.blackSeat !== undefined) return otherSeat(board.blackSeat);
  return 0;
}

/** The rematch address (SPEC §2): the marketplace with the game and the opponent. */
export const rematchPath = (game: string, opponentId: string): string =>
  `/marketplace?game=${encodeURIComponent(game)}&opponent=${encodeURIComponent(opponentId)}`;

/** A public notation with the players' names for "Player 1" and "Player 2" ("Player 2 rolled 6" → "bob rolled 6"). */
export const withNames = (notation: string, names: readonly [string, string]): string =>
  notation.replace(/\bPlayer ([12])\b/g, (_, n: string) => names[n === '1' ? 0 : 1]);

/** The move list by game, chess moves paired by number ("1. e4 e5"). */
export function groupMoves(
  view: Pick<MatchView, 'moves' | 'gameType' | 'series'>,
  names: readonly [string, string] = ['Player 1', 'Player 2'],
): { gameIndex: number; lines: string[] }[] {
  const byGame = new Map<number, string[]>();
  for (const move of view.moves) {
    const list = byGame.get(move.gameIndex) ?? [];
    list.push(withNames(move.notation, names));
    byGame.set(move.gameIndex, list);
  }
  return [...byGame.entries()]
    .sort(([a], [b]) => a - b)
    .map(([gameIndex, notes]) => {
      if (view.gameType !== 'chess') return { gameIndex, lines: notes };
      const lines: string[] = [];
      for (let i = 0; i < notes.length; i += 2) lines.push(`${i / 2 + 1}. ${notes[i]}${notes[i + 1] ? ` ${notes[i + 1]}` : ''}`);
      return { gameIndex, lines };
    });
}

/** Whether a match's game is played here in the browser (the others are reported from My Matches). */
export const isArenaGame = (game: string): game is GameId => (GAME_IDS as readonly string[]).includes(game);
