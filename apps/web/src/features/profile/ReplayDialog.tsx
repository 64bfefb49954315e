import { Suspense, useMemo, useState, type KeyboardEvent } from 'react';
import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react';
import { PROFILE } from '@versus/domain';
import type { Replay } from '@versus/domain/arena';
import { isWebGame } from '@versus/domain/games/index';
import { replayPositions, type ReplayedGame } from '@versus/domain/replay';
import { Button, Dialog, DialogContent, Spinner, cn } from '../../ui/index.ts';
import { LoadFailedText, Loading } from '../../ui/QueryState.tsx';
import { boardFor } from '../arena/boards/index.ts';
import { useReplay } from './profile.api.ts';

/** A finished match move by move: each game, who moved what, how it ended, and its revealed seed. */
export function ReplayDialog({ matchId, onClose }: { matchId: string | null; onClose: () => void }) {
  const replay = useReplay(matchId);
  return (
    <Dialog open={matchId !== null} onOpenChange={(open) => !open && onClose()}>
      {matchId !== null && (
        <DialogContent
          title={replay.data ? `${PROFILE.replayTitle}: ${replay.data.match.gameName}` : PROFILE.replayTitle}
          description={replay.data ? playersLine(replay.data) : undefined}
          className="sm:max-w-lg"
          data-testid="replay-dialog"
        >
          {replay.isPending ? (
            <Loading compact />
          ) : replay.isError ? (
            <LoadFailedText>{replay.error instanceof Error ? replay.error.message : PROFILE.avatarFailed}</LoadFailedText>
          ) : (
            <ReplayBody replay={replay.data} />
          )}
        </DialogContent>
      )}
    </Dialog>
  );
}

function playersLine(replay: Replay): string {
  const [a, b] = replay.players;
  return `${a.displayName} vs ${b.displayName}`;
}

/** The positions, or null when the stored moves cannot be replayed (then only the list shows). */
function usePositions(replay: Replay): ReplayedGame[] | null {
  return useMemo(() => {
    try {
      return replayPositions(replay);
    } catch (error) {
      console.error('Replay could not be rebuilt', error);
      return null;
    }
  }, [replay]);
}

function ReplayBody({ replay }: { replay: Replay }) {
  const name = (seat: number) => replay.players.find((p) => p.seat === seat)?.username ?? `Player ${seat + 1}`;
  const positions = usePositions(replay);
  const [at, setAt] = useState({ game: 0, ply: 0 });
  const game = positions?.[at.game];
  const goTo = (gameIndex: number, ply: number) => setAt({ game: gameIndex, ply });
  const ending = (game: Replay['games'][number]): string => {
    if (!game.outcome) return 'Unfinished';
    const reason = game.outcome.reason.replaceAll('_', ' ');
    return 'winner' in game.outcome ? `${name(game.outcome.winner)} won (${reason})` : `Draw (${reason})`;
  };
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-5">
      {isWebGame(replay.match.gameType) &&
        (positions && game ? (
          <ReplayBoard replay={replay} game={game} ply={at.ply} onPly={(ply) => goTo(at.game, ply)} names={[name(0), name(1)]} />
        ) : (
          <p className="text-sm text-muted">{PROFILE.replayBroken}</p>
        ))}
      {replay.games.map((game) => (
        <section key={game.index} aria-label={`Game ${game.index + 1}`} data-testid="replay-game">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 className="font-black">
              {positions ? (
                <button
                  type="button"
                  className={cn('rounded-md underline-offset-4 hover:underline', at.game === game.index && 'text-accent')}
                  aria-pressed={at.game === game.index}
                  onClick={() => goTo(game.index, 0)}
                >
                  Game {game.index + 1}
                </button>
              ) : (
                <>Game {game.index + 1}</>
              )}
            </h3>
            <p className="text-sm text-muted">{ending(game)}</p>
          </div>
          {game.moves.length === 0 ? (
            <p className="mt-2 text-sm text-muted">No moves.</p>
          ) : (
            <ol className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 font-mono text-sm">
              {game.moves.map((move, i) => (
                <li key={move.seq} className="contents">
                  <span className="text-right text-muted tabular-nums">{i + 1}.</span>
                  <span className="min-w-0 break-words">
                    {positions ? (
                      <button
                        type="button"
                        className={cn(
                          'rounded text-left hover:text-accent',
                          at.game === game.index && at.ply === i + 1 && 'bg-accent/15 text-accent',
                        )}
                        aria-current={at.game === game.index && at.ply === i + 1 ? 'step' : undefined}
                        onClick={() => goTo(game.index, i + 1)}
                      >
                        <span className="font-sans font-semibold">{name(move.seat)}</span> {move.notation}
                      </button>
                    ) : (
                      <>
                        <span className="font-sans font-semibold">{name(move.seat)}</span> {move.notation}
                      </>
                    )}
                  </span>
                </li>
              ))}
            </ol>
          )}
          {game.seed && (
            <p className="mt-2 truncate font-mono text-[0.7rem] text-muted" title={game.seed}>
              seed {game.seed}
            </p>
          )}
        </section>
      ))}
      {replay.result && (
        <p className="rounded-xl border border-border bg-bg/50 p-3 text-sm font-semibold" data-testid="replay-result">
          {replay.result.outcome === 'win'
            ? `${name(replay.result.winnerSeat ?? 0)} won the match`
            : replay.result.outcome === 'draw'
              ? 'The match was drawn'
              : 'The match was void'}{' '}
          <span className="font-normal text-muted">({replay.result.reason.replaceAll('_', ' ')})</span>
        </p>
      )}
    </div>
  );
}

/** One game's board at one position, stepped with buttons or the arrow keys (read-only). */
function ReplayBoard({
  replay,
  game,
  ply,
  onPly,
  names,
}: {
  replay: Replay;
  game: ReplayedGame;
  ply: number;
  onPly: (ply: number) => void;
  names: readonly [string, string];
}) {
  const Board = boardFor(replay.match.gameType as Parameters<typeof boardFor>[0]);
  const last = game.views.length - 1;
  const step = (ply: number) => onPly(Math.max(0, Math.min(last, ply)));
  const onKey = (event: KeyboardEvent) => {
    const next = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    step(next);
  };
  return (
    <section aria-label={`Game ${game.index + 1} board`} className="grid gap-3" data-testid="replay-board" data-ply={ply}>
      <div className="mx-auto w-full max-w-sm">
        <Suspense fallback={<Spinner className="mx-auto size-5" />}>
          <Board
            view={game.views[ply]}
            seat={null}
            names={names}
            canMove={false}
            live={false}
            gameIndex={game.index}
            onMove={async () => false}
          />
        </Suspense>
      </div>
      <div className="flex items-center justify-center gap-1" role="group" aria-label={PROFILE.replayTitle} onKeyDown={onKey}>
        <Button size="sm" variant="ghost" aria-label={PROFILE.replayStart} disabled={ply === 0} onClick={() => step(0)}>
          <ChevronsLeft className="size-4" aria-hidden />
        </Button>
        <Button size="sm" variant="ghost" aria-label={PROFILE.replayPrevious} disabled={ply === 0} onClick={() => step(ply - 1)}>
          <ChevronLeft className="size-4" aria-hidden />
        </Button>
        <span className="min-w-32 text-center text-sm text-muted tabular-nums" aria-live="polite" data-testid="replay-position">
          {PROFILE.replayPosition(ply, last)}
        </span>
        <Button size="sm" variant="ghost" aria-label={PROFILE.replayNext} disabled={ply === last} onClick={() => step(ply + 1)}>
          <ChevronRight className="size-4" aria-hidden />
        </Button>
        <Button size="sm" variant="ghost" aria-label={PROFILE.replayEnd} disabled={ply === last} onClick={() => step(last)}>
          <ChevronsRight className="size-4" aria-hidden />
        </Button>
      </div>
    </section>
  );
}
