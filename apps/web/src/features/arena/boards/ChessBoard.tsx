// Chess: click-to-move and drag, one premove, and squares as buttons named like "e4, white knight"
// that arrow keys move between.
import { useEffect, useMemo, useRef, useState, type CSSProperties, type PointerEvent as ReactPointerEvent } from 'react';
import { Chess } from 'chess.js';
import { toast } from 'sonner';
import { LIVE_ARENA } from '@versus/domain';
import type { ChessView } from '@versus/domain/games/chess';
import { Button, cn } from '../../../ui/index.ts';
import { decidePremove, queuePremove } from '../premove.ts';
import {
  kingSquare,
  movesByOrigin,
  pieceName,
  piecesOf,
  premoveTargets,
  resolveChessMove,
  screenSquares,
  sideToMove,
  squareLabel,
  type Piece,
  type PieceType,
} from './chess-geometry.ts';
import { useGridKeys } from './grid-keys.ts';
import type { BoardProps } from './types.ts';

// Solid glyphs for both colours (filled by CSS), forced to text rather than emoji presentation.
const GLYPHS: Record<PieceType, string> = { k: '♚\uFE0E', q: '♛\uFE0E', r: '♜\uFE0E', b: '♝\uFE0E', n: '♞\uFE0E', p: '♟\uFE0E' };
const PROMOTIONS: PieceType[] = ['q', 'r', 'b', 'n'];
// Fonts with the chess glyphs on every platform; white pieces get a dark outline, black a light rim.
const GLYPH_FONT = "[font-family:'Segoe_UI_Symbol','Noto_Sans_Symbols_2','DejaVu_Sans','Apple_Symbols',serif]";
const WHITE_PIECE = 'text-white [text-shadow:0_1px_0_#1b1530,0_-1px_0_#1b1530,1px_0_0_#1b1530,-1px_0_0_#1b1530,0_3px_5px_rgba(0,0,0,0.35)]';
const BLACK_PIECE = 'text-[#1d1730] [text-shadow:0_0_1px_rgba(255,255,255,0.55),0_3px_5px_rgba(0,0,0,0.3)]';

interface Queued {
  from: string;
  to: string;
}
const sameMove = (a: Queued, b: Queued) => a.from === b.from && a.to === b.to;

function legalFromFen(fen: string): string[] {
  return new Chess(fen).moves({ verbose: true }).map((m) => m.lan);
}

function PieceGlyph({ piece, className, style }: { piece: Piece; className?: string; style?: CSSProperties }) {
  return (
    <span
      aria-hidden
      className={cn('pointer-events-none leading-none select-none', GLYPH_FONT, piece.color === 'w' ? WHITE_PIECE : BLACK_PIECE, className)}
      style={style}
    >
      {GLYPHS[piece.type]}
    </span>
  );
}

export default function ChessBoard({ view: raw, seat, canMove, live, onMove }: BoardProps) {
  const view = raw as ChessView;
  // A move on its way is shown at once (its position computed here); the server's answer or a
  // refusal replaces it.
  const [sent, setSent] = useState<{ from: string; fen: string; lastMove: string } | null>(null);
  const shown = sent && sent.from === view.fen ? sent : null;
  const fen = shown?.fen ?? view.fen;
  const pieces = useMemo(() => piecesOf(fen), [fen]);
  const myColor = seat === null ? null : seat === view.white ? 'w' : 'b';
  const flipped = myColor === 'b';
  const squares = useMemo(() => screenSquares(flipped), [flipped]);
  const turnColor = sideToMove(fen);
  const premoveMode = live && myColor !== null && turnColor !== myColor && !view.outcome;
  const interactive = canMove || premoveMode;

  const legal = useMemo(() => (canMove ? (view.legal.length > 0 ? view.legal : legalFromFen(fen)) : []), [canMove, view.legal, fen]);
  const byFrom = useMemo(() => movesByOrigin(legal), [legal]);

  const [selected, setSelected] = useState<string | null>(null);
  const [premove, setPremove] = useState<Queued | null>(null);
  const [promotion, setPromotion] = useState<Queued | null>(null);
  const [ghost, setGhost] = useState<{ piece: Piece; x: number; y: number; size: number } | null>(null);
  const drag = useRef<{ from: string; x: number; y: number; moved: boolean } | null>(null);
  const boardRef = useRef<HTMLDivElement>(null);

  const targetsOf = (from: string | null): string[] => {
    if (!from) return [];
    if (canMove) return [...(byFrom.get(from)?.keys() ?? [])];
    if (premoveMode) return premoveTargets(pieces, from);
    return [];
  };
  const targets = targetsOf(selected);

  // A new position (the opponent moved, a refetch) clears a selection that no longer fits.
  useEffect(() => {
    setSelected((s) => (s && pieces.get(s)?.color === myColor ? s : null));
    setPromotion(null);
  }, [fen, pieces, myColor]);

  // The premove plays the moment the turn arrives, if still legal.
  const onMoveRef = useRef(onMove);
  onMoveRef.current = onMove;
  useEffect(() => {
    const decision = decidePremove(premove, canMove, (q) => resolveChessMove(q, legal));
    if (decision.kind === 'wait') return;
    setPremove(null);
    if (decision.kind === 'play') play(decision.move, { premove: true });
    else toast.info(LIVE_ARENA.premoveDropped);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `play` reads the latest view through its closure; the decision depends on these alone.
  }, [premove, canMove, legal]);

  const play = (uci: string, options?: { premove?: boolean }) => {
    const board = new Chess(view.fen);
    board.move({ from: uci.slice(0, 2), to: uci.slice(2, 4), ...(uci[4] ? { promotion: uci[4] } : {}) });
    setSent({ from: view.fen, fen: board.fen(), lastMove: uci });
    void onMoveRef.current(uci, options).then((played) => {
      if (!played) setSent(null);
    });
  };

  const attempt = (from: string, to: string) => {
    setSelected(null);
    if (canMove) {
      const promotions = byFrom.get(from)?.get(to);
      if (!promotions) return;
      if (promotions.length > 0) setPromotion({ from, to });
      else play(`${from}${to}`);
    } else if (premoveMode) {
      setPremove((current) => queuePremove(current, { from, to }, sameMove));
    }
  };

  const pick = (square: string) => {
    if (!interactive) return;
    if (selected && targetsOf(selected).includes(square)) return attempt(selected, square);
    const piece = pieces.get(square);
    if (piece && piece.color === myColor) setSelected(square === selected ? null : square);
    else setSelected(null);
  };

  // ---- pointer: tap, or drag a piece to its square --------------------------------------
  const onPointerDown = (event: ReactPointerEvent, square: string) => {
    if (!interactive || event.button !== 0) return;
    const piece = pieces.get(square);
    if (selected && selected !== square && targetsOf(selected).includes(square)) {
      attempt(selected, square);
      return;
    }
    if (!piece || piece.color !== myColor) {
      setSelected(null);
      return;
    }
    setSelected(square);
    drag.current = { from: square, x: event.clientX, y: event.clientY, moved: false };
  };

  useEffect(() => {
    const move = (event: PointerEvent) => {
      const d = drag.current;
      if (!d) return;
      if (!d.moved && Math.hypot(event.clientX - d.x, event.clientY - d.y) < 5) return;
      d.moved = true;
      const piece = pieces.get(d.from);
      const size = (boardRef.current?.getBoundingClientRect().width ?? 320) / 8;
      if (piece) setGhost({ piece, x: event.clientX, y: event.clientY, size });
    };
    const up = (event: PointerEvent) => {
      const d = drag.current;
      drag.current = null;
      setGhost(null);
      if (!d?.moved) return;
      const target = document.elementFromPoint(event.clientX, event.clientY)?.closest('[data-square]')?.getAttribute('data-square');
      if (target && target !== d.from && targetsOf(d.from).includes(target)) attempt(d.from, target);
    };
    const cancel = () => {
      drag.current = null;
      setGhost(null);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', cancel);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', cancel);
    };
  });

  // ---- what each square shows ----------------------------------------------------------
  const lastMove = shown ? shown.lastMove : view.lastMove;
  const last = lastMove ? [lastMove.slice(0, 2), lastMove.slice(2, 4)] : [];
  const inCheck = shown ? new Chess(shown.fen).inCheck() : view.inCheck;
  const checked = inCheck ? kingSquare(pieces, turnColor) : null;
  const premoveSquares = premove ? [premove.from, premove.to] : [];
  const initialFocus = Math.max(
    0,
    squares.findIndex((sq) => pieces.get(sq)?.color === (myColor ?? 'w') && pieces.get(sq)?.type === 'k'),
  );
  const keys = useGridKeys(8, initialFocus);

  return (
    <div className="mx-auto w-full max-w-[min(100%,34rem)]" data-testid="chess-board" data-flipped={flipped || undefined}>
      <div
        ref={boardRef}
        role="group"
        aria-label={`Chess board${myColor ? `, you play ${myColor === 'w' ? 'white' : 'black'}` : ''}`}
        onKeyDown={keys.onKeyDown}
        className="@container relative grid aspect-square w-full touch-none grid-cols-8 grid-rows-8 overflow-hidden rounded-xl border border-border shadow-2xl shadow-black/40 select-none"
      >
        {squares.map((square, index) => {
          const piece = pieces.get(square) ?? null;
          const file = square.charCodeAt(0) - 97;
          const rank = Number(square[1]) - 1;
          const dark = (file + rank) % 2 === 0;
          const isTarget = targets.includes(square);
          const dragging = ghost !== null && drag.current?.from === square;
          const row = Math.floor(index / 8);
          const col = index % 8;
          return (
            <button
              key={square}
              type="button"
              data-square={square}
              aria-label={squareLabel(square, piece)}
              aria-pressed={selected === square || undefined}
              {...keys.itemProps(index)}
              onPointerDown={(event) => onPointerDown(event, square)}
              // Keyboard (Enter, Space) clicks arrive with detail 0; pointer clicks were handled on pointerdown.
              onClick={(event) => event.detail === 0 && pick(square)}
              className={cn(
                'relative flex items-center justify-center outline-none focus-visible:z-10 focus-visible:ring-[0.6cqw] focus-visible:ring-accent-2 focus-visible:ring-inset',
                dark ? 'bg-[#8877b6]' : 'bg-[#ebe6f6]',
                interactive ? 'cursor-pointer' : 'cursor-default',
              )}
            >
              {last.includes(square) && <span aria-hidden className="absolute inset-0 bg-[#f7d154]/45" />}
              {premoveSquares.includes(square) && <span aria-hidden className="absolute inset-0 bg-danger/40" />}
              {selected === square && <span aria-hidden className="absolute inset-0 bg-accent-2/45" />}
              {checked === square && (
                <span
                  aria-hidden
                  className="absolute inset-0 bg-[radial-gradient(circle,rgba(244,63,94,0.95)_0%,rgba(244,63,94,0.55)_40%,transparent_72%)]"
                />
              )}
              {col === 0 && (
                <span
                  aria-hidden
                  className={cn('absolute top-[3%] left-[6%] text-[2.4cqw] font-bold', dark ? 'text-[#ebe6f6]' : 'text-[#8877b6]')}
                >
                  {rank + 1}
                </span>
              )}
              {row === 7 && (
                <span
                  aria-hidden
                  className={cn('absolute right-[6%] bottom-[2%] text-[2.4cqw] font-bold', dark ? 'text-[#ebe6f6]' : 'text-[#8877b6]')}
                >
                  {square[0]}
                </span>
              )}
              {piece && <PieceGlyph piece={piece} className={cn('relative text-[10cqw]', dragging && 'opacity-30')} />}
              {isTarget &&
                (piece ? (
                  <span aria-hidden className="absolute inset-[3%] rounded-full border-[0.9cqw] border-black/30" />
                ) : (
                  <span aria-hidden className="absolute size-[28%] rounded-full bg-black/25" />
                ))}
            </button>
          );
        })}

        {promotion && (
          <div
            className="absolute inset-0 z-20 flex items-center justify-center bg-black/55 p-4"
            role="dialog"
            aria-label={LIVE_ARENA.promoteTo}
          >
            <div className="rounded-2xl border border-border bg-surface p-3 shadow-2xl">
              <p className="mb-2 text-center text-sm font-bold">{LIVE_ARENA.promoteTo}</p>
              <div className="flex gap-2">
                {PROMOTIONS.map((type) => {
                  const piece: Piece = { color: myColor ?? 'w', type };
                  return (
                    <button
                      key={type}
                      type="button"
                      aria-label={`Promote to ${pieceName(piece).split(' ')[1]}`}
                      autoFocus={type === 'q'}
                      className="flex size-14 items-center justify-center rounded-xl bg-[#ebe6f6] hover:bg-accent-2/40 focus-visible:ring-2 focus-visible:ring-accent-2"
                      onClick={() => {
                        play(`${promotion.from}${promotion.to}${type}`);
                        setPromotion(null);
                      }}
                    >
                      <PieceGlyph piece={piece} className="text-[2.6rem]" />
                    </button>
                  );
                })}
              </div>
              <Button variant="ghost" size="sm" className="mt-2 w-full" onClick={() => setPromotion(null)}>
                Cancel
              </Button>
            </div>
          </div>
        )}
      </div>

      {premove && (
        <div
          className="mt-2 flex items-center justify-between gap-2 rounded-lg border border-danger/40 bg-danger/10 px-3 py-1.5 text-sm"
          role="status"
        >
          <span>
            {LIVE_ARENA.premoveQueued} ({premove.from}–{premove.to})
          </span>
          <Button variant="ghost" size="sm" onClick={() => setPremove(null)}>
            {LIVE_ARENA.cancelPremove}
          </Button>
        </div>
      )}

      {ghost && (
        <PieceGlyph
          piece={ghost.piece}
          className="fixed z-50 -translate-x-1/2 -translate-y-1/2"
          style={{ left: ghost.x, top: ghost.y, fontSize: ghost.size * 0.85 }}
        />
      )}
    </div>
  );
}
