// Where a two-player ludo game sits on the classic 15 × 15 board, in the rules' absolute squares;
// the two unused colours' bases stay empty.
import { LUDO_RULES, ludoSquare, type LudoSquare } from '@versus/domain/games/ludo';
import type { Seat } from '@versus/domain/games/game';

export interface Cell {
  row: number;
  col: number;
}

/** The track, square 0 first: red's start square is just right of red's base. */
export const TRACK: readonly Cell[] = (() => {
  const cells: Cell[] = [];
  const run = (from: Cell, dRow: number, dCol: number, count: number) => {
    for (let i = 0; i < count; i++) cells.push({ row: from.row + dRow * i, col: from.col + dCol * i });
  };
  run({ row: 6, col: 1 }, 0, 1, 5); // 0–4: right along row 6
  run({ row: 5, col: 6 }, -1, 0, 6); // 5–10: up column 6
  run({ row: 0, col: 7 }, 0, 0, 1); // 11: top middle
  run({ row: 0, col: 8 }, 1, 0, 6); // 12–17: down column 8
  run({ row: 6, col: 9 }, 0, 1, 6); // 18–23: right along row 6
  run({ row: 7, col: 14 }, 0, 0, 1); // 24: right middle
  run({ row: 8, col: 14 }, 0, -1, 6); // 25–30: left along row 8
  run({ row: 9, col: 8 }, 1, 0, 6); // 31–36: down column 8
  run({ row: 14, col: 7 }, 0, 0, 1); // 37: bottom middle
  run({ row: 14, col: 6 }, -1, 0, 6); // 38–43: up column 6
  run({ row: 8, col: 5 }, 0, -1, 6); // 44–49: left along row 8
  run({ row: 7, col: 0 }, 0, 0, 1); // 50: left middle
  run({ row: 6, col: 0 }, 0, 0, 1); // 51
  return cells;
})();

/** Each seat's home column, step 1 (entered from the track) to 5. */
export const HOME_COLUMNS: readonly [readonly Cell[], readonly Cell[]] = [
  [1, 2, 3, 4, 5].map((col) => ({ row: 7, col })),
  [13, 12, 11, 10, 9].map((col) => ({ row: 7, col })),
];

/** The four resting spots in each seat's base. */
export const BASE_SPOTS: readonly [readonly Cell[], readonly Cell[]] = [
  [
    { row: 1.5, col: 1.5 },
    { row: 1.5, col: 3.5 },
    { row: 3.5, col: 1.5 },
    { row: 3.5, col: 3.5 },
  ],
  [
    { row: 10.5, col: 10.5 },
    { row: 10.5, col: 12.5 },
    { row: 12.5, col: 10.5 },
    { row: 12.5, col: 12.5 },
  ],
];

/** Where tokens that reached home rest, in the middle triangle of their colour. */
export const HOME_SPOTS: readonly [Cell, Cell] = [
  { row: 7, col: 6.2 },
  { row: 7, col: 7.8 },
];

/** The board cell of one token (`token` picks its base spot). */
export function tokenCell(seat: Seat, token: number, progress: number): Cell {
  const square: LudoSquare = ludoSquare(seat, progress);
  switch (square.kind) {
    case 'base':
      return BASE_SPOTS[seat][token]!;
    case 'track':
      return TRACK[square.square]!;
    case 'home-column':
      return HOME_COLUMNS[seat][square.step - 1]!;
    case 'home':
      return HOME_SPOTS[seat];
  }
}

/** Whether a token may move with this die (the rules': out of base on a 6, never past home). */
export function canMoveToken(progress: number, die: number): boolean {
  if (progress === LUDO_RULES.base) return die === 6;
  return progress >= 0 && progress + die <= LUDO_RULES.home;
}

/** "Red token 2, in base", "Yellow token 1, 12 squares along", "Red token 4, home". */
export function tokenLabel(seat: Seat, token: number, progress: number): string {
  const color = seat === 0 ? 'Red' : 'Yellow';
  const where =
    progress === LUDO_RULES.base
      ? 'in base'
      : progress >= LUDO_RULES.home
        ? 'home'
        : progress > LUDO_RULES.lastTrack
          ? `in the home column, ${LUDO_RULES.home - progress} from home`
          : `${progress} squares along`;
  return `${color} token ${token + 1}, ${where}`;
}
