// AI rock-paper-scissors as a duel: a player sees their own duel at once, the opponent's only once
// both have thrown.
import { LIVE_ARENA } from '@versus/domain';
import type { AiDuelView } from '@versus/domain/arena';
import type { Seat } from '@versus/domain/games/game';
import type { AiRockPaperScissorsView } from '@versus/domain/games/ai-rock-paper-scissors';
import { ThrowButtons, ThrowCard } from './throws.tsx';
import type { BoardProps } from './types.ts';

function Duel({ title, side, thrown }: { title: string; side: AiRockPaperScissorsView | null; thrown: boolean }) {
  return (
    <section className="rounded-2xl border border-border bg-surface/60 p-3">
      <h3 className="mb-2 text-center text-sm font-bold">{title}</h3>
      <div className="grid grid-cols-2 gap-2">
        <ThrowCard label="Player" value={side?.throws[0] ?? null} thrown={thrown} />
        <ThrowCard label={LIVE_ARENA.computer} value={side?.throws[1] ?? null} thrown={side?.throws[1] != null} />
      </div>
    </section>
  );
}

export default function AiRockPaperScissorsBoard({ view: raw, seat, names, canMove, live, onMove }: BoardProps) {
  const view = raw as AiDuelView;
  const order: Seat[] = seat === null ? [0, 1] : [seat, seat === 0 ? 1 : 0];
  const myTurn = seat !== null && !view.thrown[seat] && live;
  return (
    <div className="mx-auto w-full max-w-lg space-y-4" data-testid="ai-rps-board">
      {myTurn && (
        <>
          <p className="text-center font-bold">{LIVE_ARENA.throwNow}</p>
          <ThrowButtons disabled={!canMove} onThrow={(t) => void onMove(t)} />
        </>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        {order.map((s) => (
          <Duel key={s} title={s === seat ? LIVE_ARENA.you : names[s]} side={view.sides[s]} thrown={view.thrown[s]} />
        ))}
      </div>
      {seat !== null && view.thrown[seat] && !view.outcome && (
        <p className="text-center text-sm text-muted" role="status">
          {LIVE_ARENA.waitingForOpponent}…
        </p>
      )}
    </div>
  );
}
