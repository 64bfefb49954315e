import type { Seat } from '@versus/domain/games/game';

/** What every game board gets. The view is the game's own (`viewFor`): the player's or a spectator's. */
export interface BoardProps {
  view: unknown;
  /** The viewer's seat; null when spectating (a read-only board). */
  seat: Seat | null;
  /** Display names by seat. */
  names: readonly [string, string];
  /** The viewer may move now: their turn, the match in progress, no move on its way. */
  canMove: boolean;
  /** The match is being played (a premove may be queued while the opponent thinks). */
  live: boolean;
  /** Which game of the series this is: local selections reset with it. */
  gameIndex: number;
  /** Sends a move; resolves true once the server has played it, false when it was refused. */
  onMove(move: unknown, options?: { premove?: boolean }): Promise<boolean>;
}
