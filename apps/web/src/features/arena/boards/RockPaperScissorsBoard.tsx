// Rock-paper-scissors: three big throw buttons, then "waiting for opponent". The opponent's
// throw is never on screen before the reveal: the player's view does not contain it.
import { LIVE_ARENA } from '@versus/domain';
import type { RockPaperScissorsView } from '@versus/domain/games/rock-paper-scissors';
import type { Seat } from '@versus/domain/games/game';
import { ThrowButtons, ThrowCard } from './throws.tsx';
import type { BoardProps } from './types.ts';

export default function RockPaperScissorsBoard({ view: raw, seat, names, canMove, live, onMove }: BoardProps) {
  const view = raw as RockPaperScissorsView;
  if (seat === null) {
    return (
      <div className="grid grid-cols-2 gap-3" data-testid="rps-board">
        {([0, 1] as Seat[]).map((s) => (
          <ThrowCard key={s} label={names[s]} value={view.throws[s]} thrown={view.thrown[s]} />
        ))}
      </div>
    );
  }
  const other: Seat = seat === 0 ? 1 : 0;
  const mine = view.throws[seat];
  return (
    <div className="mx-auto w-full max-w-md space-y-4" data-testid="rps-board">
      {!view.thrown[seat] && live ? (
        <>
          <p className="text-center font-bold">{LIVE_ARENA.throwNow}</p>
          <ThrowButtons disabled={!canMove} onThrow={(t) => void onMove(t)} />
        </>
      ) : (
        <div className="grid grid-cols-2 gap-3">
          <ThrowCard label={LIVE_ARENA.you} value={mine} thrown={view.thrown[seat]} />
          {/* Before the reveal only whether the opponent has thrown is known. */}
          <ThrowCard label={names[other]} value={null} thrown={view.thrown[other]} />
        </div>
      )}
      {view.thrown[seat] && (
        <p className="text-center text-sm text-muted" role="status" data-testid="rps-waiting">
          {LIVE_ARENA.waitingForOpponent}…
        </p>
      )}
    </div>
  );
}
