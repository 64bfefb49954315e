import { PROFILE } from '@versus/domain';
import type { Replay } from '@versus/domain/arena';
import { Dialog, DialogContent, Spinner } from '../../ui/index.ts';
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
            <div className="flex justify-center py-8">
              <Spinner className="size-5" />
            </div>
          ) : replay.isError ? (
            <p role="alert" className="text-sm text-danger">
              {replay.error instanceof Error ? replay.error.message : PROFILE.avatarFailed}
            </p>
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

function ReplayBody({ replay }: { replay: Replay }) {
  const name = (seat: number) => replay.players.find((p) => p.seat === seat)?.username ?? `Player ${seat + 1}`;
  const ending = (game: Replay['games'][number]): string => {
    if (!game.outcome) return 'Unfinished';
    const reason = game.outcome.reason.replaceAll('_', ' ');
    return 'winner' in game.outcome ? `${name(game.outcome.winner)} won (${reason})` : `Draw (${reason})`;
  };
  return (
    <div className="grid gap-5">
      {replay.games.map((game) => (
        <section key={game.index} aria-label={`Game ${game.index + 1}`} data-testid="replay-game">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 className="font-black">Game {game.index + 1}</h3>
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
                    <span className="font-sans font-semibold">{name(move.seat)}</span> {move.notation}
                  </span>
                </li>
              ))}
            </ol>
          )}
          {game.seed && <p className="mt-2 truncate font-mono text-[0.7rem] text-muted" title={game.seed}>seed {game.seed}</p>}
        </section>
      ))}
      {replay.result && (
        <p className="rounded-xl border border-border bg-bg/50 p-3 text-sm font-semibold" data-testid="replay-result">
          {replay.result.outcome === 'win' ? `${name(replay.result.winnerSeat ?? 0)} won the match` : replay.result.outcome === 'draw' ? 'The match was drawn' : 'The match was void'}
          {' '}
          <span className="font-normal text-muted">({replay.result.reason.replaceAll('_', ' ')})</span>
        </p>
      )}
    </div>
  );
}
