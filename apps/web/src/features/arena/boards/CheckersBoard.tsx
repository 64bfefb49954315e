// Checkers: a multi-jump is entered one landing at a time and sent once it names exactly one legal
// move; the board is turned so the viewer's pieces are at the bottom.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Crown } from 'lucide-react';
import { toast } from 'sonner';
import { LIVE_ARENA } from '@versus/domain';
import { checkersNotation, type CheckersColor, type CheckersView } from '@versus/domain/games/checkers';
import { Button, cn } from '../../../ui/index.ts';
import { decidePremove, queuePremove } from '../premove.ts';
import {
  checkersSquareLabel,
  completedPath,
  legalPaths,
  nextSteps,
  notationIfLegal,
  pieceColor,
  screenCells,
} from './checkers-geometry.ts';
import { useGridKeys } from './grid-keys.ts';
import type { BoardProps } from './types.ts';

const samePath = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((s, i) => s === b[i]);

export default function CheckersBoard({ view: raw, seat, canMove, live, onMove }: BoardProps) {
  const view = raw as CheckersView;
  const myColor: CheckersColor | null = seat === null ? null : seat === view.blackSeat ? 'black' : 'white';
  const turnColor: CheckersColor = view.turn === view.blackSeat ? 'black' : 'white';
  const premoveMode = live && myColor !== null && turnColor !== myColor && !view.outcome;
  const flipped = myColor === 'black';
  const cells = useMemo(() => screenCells(flipped), [flipped]);
  const boardKey = view.board.join(',');

  const paths = useMemo(
    () => (myColor && (canMove || premoveMode) ? legalPaths(view.board, myColor) : []),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the board's contents (boardKey), not the array's identity, decide the moves.
    [boardKey, myColor, canMove, premoveMode],
  );
  const [partial, setPartial] = useState<number[]>([]);
  const [premove, setPremove] = useState<number[] | null>(null);

  useEffect(() => setPartial([]), [boardKey]);

  const onMoveRef = useRef(onMove);
  onMoveRef.current = onMove;
  useEffect(() => {
    const decision = decidePremove(premove, canMove, (q) => notationIfLegal(paths, q));
    if (decision.kind === 'wait') return;
    setPremove(null);
    if (decision.kind === 'play') void onMoveRef.current(decision.move, { premove: true });
    else toast.info(LIVE_ARENA.premoveDropped);
  }, [premove, canMove, paths]);

  const steps = partial.length > 0 ? nextSteps(paths, partial) : [];

  const finish = (path: number[]) => {
    setPartial([]);
    if (canMove) void onMove(checkersNotation(path));
    else setPremove((current) => queuePremove(current, path, samePath));
  };

  const pick = (square: number) => {
    if (!canMove && !premoveMode) return;
    if (partial.length > 0 && steps.includes(square)) {
      const next = [...partial, square];
      const done = completedPath(paths, next);
      if (done) finish(done);
      else setPartial(next);
      return;
    }
    if (pieceColor(view.board[square] ?? null) === myColor && paths.some((p) => p[0] === square)) {
      setPartial(partial[0] === square && partial.length === 1 ? [] : [square]);
      return;
    }
    setPartial([]);
  };

  const lastSquares = new Set(
    (view.lastMove ?? '')
      .split(/[-x]/)
      .filter(Boolean)
      .map((n) => Number(n) - 1),
  );
  const movable = new Set(paths.map((p) => p[0]!));
  const keys = useGridKeys(
    8,
    cells.findIndex((c) => c >= 0 && pieceColor(view.board[c] ?? null) === myColor),
    (i) => cells[i]! < 0,
  );

  return (
    <div className="mx-auto w-full max-w-[min(100%,34rem)]" data-testid="checkers-board">
      <div
        role="group"
        aria-label={`Checkers board${myColor ? `, you play ${myColor}` : ''}`}
        onKeyDown={keys.onKeyDown}
        className="@container grid aspect-square w-full grid-cols-8 grid-rows-8 overflow-hidden rounded-xl border border-border shadow-2xl shadow-black/40 select-none"
      >
        {cells.map((square, index) => {
          if (square < 0) return <div key={`light-${index}`} aria-hidden className="bg-[#ebe6f6]" />;
          const piece = view.board[square] ?? null;
          const color = pieceColor(piece);
          const inPath = partial.includes(square);
          const isStep = steps.includes(square);
          return (
            <button
              key={square}
              type="button"
              data-square={square + 1}
              aria-label={checkersSquareLabel(square, piece)}
              aria-pressed={inPath || undefined}
              {...keys.itemProps(index)}
              onClick={() => pick(square)}
              className={cn(
                'relative flex items-center justify-center bg-[#8877b6] outline-none focus-visible:z-10 focus-visible:ring-[0.6cqw] focus-visible:ring-accent-2 focus-visible:ring-inset',
                (canMove || premoveMode) && (movable.has(square) || isStep) ? 'cursor-pointer' : 'cursor-default',
              )}
            >
              {lastSquares.has(square) && <span aria-hidden className="absolute inset-0 bg-[#f7d154]/40" />}
              {premove?.includes(square) && <span aria-hidden className="absolute inset-0 bg-danger/40" />}
              {inPath && <span aria-hidden className="absolute inset-0 bg-accent-2/45" />}
              <span aria-hidden className="absolute top-[4%] left-[7%] text-[2.2cqw] font-bold text-white/60">
                {square + 1}
              </span>
              {color && (
                <span
                  aria-hidden
                  className={cn(
                    'relative flex size-[78%] items-center justify-center rounded-full border-[0.8cqw] shadow-[0_0.6cqw_0_rgba(0,0,0,0.35)]',
                    color === 'black' ? 'border-[#0d0a16] bg-[#2a2240] text-[#f7d154]' : 'border-[#bdb3d8] bg-[#fbf9ff] text-[#8a5a00]',
                    movable.has(square) && canMove && 'ring-[0.6cqw] ring-accent-2/70',
                  )}
                >
                  {(piece === 'B' || piece === 'W') && <Crown className="size-[55%]" strokeWidth={2.5} />}
                </span>
              )}
              {isStep && <span aria-hidden className="absolute size-[30%] rounded-full bg-accent-2/70" />}
            </button>
          );
        })}
      </div>
      {premove && (
        <div
          className="mt-2 flex items-center justify-between gap-2 rounded-lg border border-danger/40 bg-danger/10 px-3 py-1.5 text-sm"
          role="status"
        >
          <span>
            {LIVE_ARENA.premoveQueued} ({checkersNotation(premove)})
          </span>
          <Button variant="ghost" size="sm" onClick={() => setPremove(null)}>
            {LIVE_ARENA.cancelPremove}
          </Button>
        </div>
      )}
    </div>
  );
}
