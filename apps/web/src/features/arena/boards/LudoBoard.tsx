// Ludo for two: a Roll button for the server's die, then the tokens that can move, as buttons named
// like "Red token 2, 12 squares along".
import type { ReactNode } from 'react';
import { Dice1, Dice2, Dice3, Dice4, Dice5, Dice6, Dices } from 'lucide-react';
import { LIVE_ARENA } from '@versus/domain';
import { LUDO_RULES, type LudoView } from '@versus/domain/games/ludo';
import type { Seat } from '@versus/domain/games/game';
import { Button, cn } from '../../../ui/index.ts';
import { canMoveToken, TRACK, HOME_COLUMNS, tokenCell, tokenLabel, type Cell } from './ludo-layout.ts';
import type { BoardProps } from './types.ts';

const DICE = [Dice1, Dice2, Dice3, Dice4, Dice5, Dice6];
const COLORS = {
  red: { fill: 'bg-[#ef4444]', soft: 'bg-[#ef4444]/25', ring: 'ring-[#ef4444]' },
  yellow: { fill: 'bg-[#facc15]', soft: 'bg-[#facc15]/30', ring: 'ring-[#facc15]' },
} as const;
const colorOf = (seat: Seat) => (seat === 0 ? COLORS.red : COLORS.yellow);
const pct = (n: number) => `${(n / 15) * 100}%`;

function Square({ cell, className, children }: { cell: Cell; className?: string; children?: ReactNode }) {
  return (
    <div
      aria-hidden
      className={cn('absolute border border-black/10', className)}
      style={{ left: pct(cell.col), top: pct(cell.row), width: pct(1), height: pct(1) }}
    >
      {children}
    </div>
  );
}

export default function LudoBoard({ view: raw, seat, names, canMove, onMove }: BoardProps) {
  const view = raw as LudoView;
  const myTurn = canMove && seat !== null && view.turn === seat;
  const mayRoll = myTurn && view.phase === 'roll';
  const mayChoose = myTurn && view.phase === 'move' && view.die !== null;
  const lastRoll = view.die ?? view.rolls[view.rolls.length - 1] ?? null;
  const Die = lastRoll ? DICE[lastRoll - 1]! : Dices;
  // The last public note ("Player 1 rolled 6"), with the players' names.
  const lastNote = view.moves.at(-1)?.replace(/Player ([12])/g, (_, n: string) => names[(Number(n) - 1) as Seat]);

  // Tokens sharing a square are fanned out a little so each stays tappable.
  const seen = new Map<string, number>();
  const tokens = ([0, 1] as Seat[]).flatMap((s) =>
    view.tokens[s].map((progress, token) => {
      const cell = tokenCell(s, token, progress);
      const key = `${cell.row},${cell.col}`;
      const stack = seen.get(key) ?? 0;
      seen.set(key, stack + 1);
      return { seat: s, token, progress, cell, stack };
    }),
  );

  return (
    <div className="mx-auto w-full max-w-[min(100%,34rem)] space-y-3" data-testid="ludo-board">
      <div className="@container relative aspect-square w-full overflow-hidden rounded-xl border border-border bg-[#f4f1fb] shadow-2xl shadow-black/40">
        {/* Bases: red and yellow in play, the two unused colours muted. */}
        <div aria-hidden className="absolute top-0 left-0 size-[40%] rounded-br-xl bg-[#ef4444]/85 p-[4%]">
          <div className="size-full rounded-lg bg-white/85" />
        </div>
        <div aria-hidden className="absolute right-0 bottom-0 size-[40%] rounded-tl-xl bg-[#facc15]/90 p-[4%]">
          <div className="size-full rounded-lg bg-white/85" />
        </div>
        <div aria-hidden className="absolute top-0 right-0 size-[40%] rounded-bl-xl bg-[#c9c2dd]" />
        <div aria-hidden className="absolute bottom-0 left-0 size-[40%] rounded-tr-xl bg-[#c9c2dd]" />
        {/* Home: the middle triangle. */}
        <div
          aria-hidden
          className="absolute bg-[conic-gradient(from_225deg,#ef4444_0_25%,#c9c2dd_25%_50%,#facc15_50%_75%,#c9c2dd_75%_100%)]"
          style={{ left: pct(6), top: pct(6), width: pct(3), height: pct(3) }}
        />
        {TRACK.map((cell, square) => (
          <Square
            key={square}
            cell={cell}
            className={
              square === LUDO_RULES.startSquares[0]
                ? COLORS.red.fill
                : square === LUDO_RULES.startSquares[1]
                  ? COLORS.yellow.fill
                  : LUDO_RULES.safeSquares.includes(square)
                    ? 'bg-[#ddd6f3]'
                    : 'bg-white'
            }
          >
            {LUDO_RULES.safeSquares.includes(square) && !LUDO_RULES.startSquares.includes(square) && (
              <span className="flex size-full items-center justify-center text-[2.2cqw] text-[#8877b6]">★</span>
            )}
          </Square>
        ))}
        {([0, 1] as Seat[]).map((s) =>
          HOME_COLUMNS[s].map((cell, i) => <Square key={`${s}-${i}`} cell={cell} className={colorOf(s).soft} />),
        )}

        {tokens.map(({ seat: s, token, progress, cell, stack }) => {
          const movable = mayChoose && s === seat && canMoveToken(progress, view.die!);
          return (
            <button
              key={`${s}-${token}`}
              type="button"
              aria-label={tokenLabel(s, token, progress)}
              disabled={!movable}
              onClick={() => movable && void onMove({ type: 'move', token })}
              className={cn(
                'absolute flex items-center justify-center rounded-full border-2 border-black/40 text-[0.6rem] font-black text-black/70 shadow-md transition-transform',
                colorOf(s).fill,
                movable ? 'z-10 animate-pulse cursor-pointer ring-4 ring-accent-2 hover:scale-110' : 'cursor-default',
              )}
              style={{
                left: `calc(${pct(cell.col + 0.15)} + ${stack * 3}px)`,
                top: `calc(${pct(cell.row + 0.15)} - ${stack * 3}px)`,
                width: pct(0.7),
                height: pct(0.7),
              }}
            >
              {token + 1}
            </button>
          );
        })}
      </div>

      <div className="flex flex-wrap items-center justify-center gap-3">
        <div className="flex items-center gap-2 rounded-xl border border-border bg-surface px-3 py-2" aria-live="polite">
          <Die className={cn('size-8', view.turn === 0 ? 'text-[#ef4444]' : 'text-[#eab308]')} aria-hidden />
          <span className="text-sm">{lastNote ?? LIVE_ARENA.rollDice}</span>
        </div>
        {seat !== null && (
          <Button size="lg" disabled={!mayRoll} onClick={() => void onMove({ type: 'roll' })} data-testid="ludo-roll">
            <Dices className="size-5" aria-hidden />
            {LIVE_ARENA.rollDice}
          </Button>
        )}
        {mayChoose && <p className="w-full text-center text-sm font-semibold text-accent-2">{LIVE_ARENA.chooseToken}</p>}
      </div>
    </div>
  );
}
