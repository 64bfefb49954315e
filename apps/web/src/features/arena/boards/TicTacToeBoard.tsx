// Tic-tac-toe: nine buttons, each named like "b2, X"; the winning line lights up.
import type { TicTacToeView } from '@versus/domain/games/tic-tac-toe';
import { cn } from '../../../ui/index.ts';
import type { BoardProps } from './types.ts';

const cellName = (cell: number) => `${'abc'[cell % 3]}${Math.floor(cell / 3) + 1}`;

export default function TicTacToeBoard({ view: raw, seat, canMove, onMove }: BoardProps) {
  const view = raw as TicTacToeView;
  const markOf = (owner: 0 | 1 | null) => (owner === null ? null : owner === view.x ? 'X' : 'O');
  const line = new Set(view.line ?? []);
  const last = view.moves[view.moves.length - 1];
  return (
    <div className="mx-auto w-full max-w-[22rem]" data-testid="ttt-board">
      {seat !== null && (
        <p className="mb-3 text-center text-sm text-muted">
          You play{' '}
          <span className={cn('font-black', seat === view.x ? 'text-accent' : 'text-accent-2')}>{seat === view.x ? 'X' : 'O'}</span>
        </p>
      )}
      <div
        role="group"
        aria-label="Tic-tac-toe board"
        className="grid aspect-square grid-cols-3 grid-rows-3 gap-2 rounded-2xl bg-border/60 p-2"
      >
        {view.cells.map((owner, cell) => {
          const mark = markOf(owner);
          const playable = canMove && owner === null;
          return (
            <button
              key={cell}
              type="button"
              data-cell={cell}
              aria-label={`${cellName(cell)}, ${mark ?? 'empty'}`}
              disabled={!playable}
              onClick={() => playable && void onMove(cell)}
              className={cn(
                'flex items-center justify-center rounded-xl bg-surface text-[clamp(2.5rem,14vw,5rem)] leading-none font-black transition-colors',
                playable && 'cursor-pointer hover:bg-surface-2 focus-visible:bg-surface-2',
                !playable && 'cursor-default',
                line.has(cell) && 'bg-success/25',
                cell === last && !line.has(cell) && 'ring-2 ring-accent/50 ring-inset',
                mark === 'X' ? 'text-accent' : 'text-accent-2',
              )}
            >
              <span aria-hidden>{mark}</span>
            </button>
          );
        })}
      </div>
    </div>
  );
}
