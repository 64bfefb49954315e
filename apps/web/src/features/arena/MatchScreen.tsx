// One match on screen, for a player (/live-arena?match=) or a spectator (/spectate/:id).
import { Suspense, useState } from 'react';
import { Link } from 'react-router';
import { AlertTriangle, Eye, Flag, Handshake, RotateCcw } from 'lucide-react';
import { LIVE_ARENA, TOURNAMENT_VIEW } from '@versus/domain';
import { clockPerGame, describeTimeControl, type MatchView } from '@versus/domain/arena';
import { ApiError } from '../../api/index.ts';
import { ErrorBoundary } from '../../app/ErrorBoundary.tsx';
import { Badge, Button, Card, Dialog, DialogActions, DialogContent, Spinner, cn } from '../../ui/index.ts';
import { useAuth } from '../auth/use-auth.ts';
import { BetaFeedback } from '../feedback/index.tsx';
import type { ViewMode } from './arena.api.ts';
import { boardFor } from './boards/index.ts';
import { bottomSeat, isArenaGame, money, otherSeat, playerName } from './format.ts';
import { FinishedBanner, MoveList, PlayerBar, ReadyRoom, ResultCard, SeriesScore } from './MatchParts.tsx';
import { isOverStatus, isWaiting, useLiveMatch, type LiveMatch } from './use-live-match.ts';

export function MatchScreen(props: { matchId: string; mode: ViewMode; autoReady?: boolean }) {
  return (
    <>
      <MatchScreenBody {...props} />
      {/* The beta chat, docked under the match: floating, it would cover the board's squares or a clock. */}
      <div className="mt-4 flex justify-end">
        <BetaFeedback placement="docked" />
      </div>
    </>
  );
}

function MatchScreenBody({ matchId, mode, autoReady = false }: { matchId: string; mode: ViewMode; autoReady?: boolean }) {
  const live = useLiveMatch(matchId, mode, { autoReady });
  const { view, query } = live;
  if (!view) {
    if (query.error) {
      return (
        <Card role="alert" className="flex flex-col items-start gap-3 p-6" data-testid="match-error">
          <p className="flex items-center gap-2 font-bold text-danger">
            <AlertTriangle className="size-5" aria-hidden />
            {LIVE_ARENA.loadFailed}
          </p>
          <p className="text-sm text-muted">{query.error.message}</p>
          {/* Not a player of a match that exists: it may still be watched. */}
          {mode === 'player' && query.error instanceof ApiError && query.error.status === 403 && (
            <Button variant="secondary" asChild>
              <Link to={`/spectate/${encodeURIComponent(matchId)}`}>
                <Eye className="size-4" aria-hidden />
                {LIVE_ARENA.watchInstead}
              </Link>
            </Button>
          )}
          {!(query.error instanceof ApiError && [403, 404].includes(query.error.status)) && (
            <Button variant="secondary" onClick={() => void query.refetch()}>
              <RotateCcw className="size-4" aria-hidden />
              {LIVE_ARENA.retry}
            </Button>
          )}
        </Card>
      );
    }
    return <BoardSkeleton />;
  }
  return <LoadedMatch view={view} live={live} mode={mode} />;
}

function BoardSkeleton() {
  return (
    <div
      className="mx-auto flex aspect-square w-full max-w-[34rem] items-center justify-center rounded-xl border border-border bg-surface/60"
      role="status"
    >
      <Spinner className="size-8 text-accent" label="Loading the board" />
    </div>
  );
}

function LoadedMatch({ view, live, mode }: { view: MatchView; live: LiveMatch; mode: ViewMode }) {
  const { user } = useAuth();
  const [resignOpen, setResignOpen] = useState(false);
  const names = [playerName(view.players[0]), playerName(view.players[1])] as const;
  const me = mode === 'player' ? view.viewerSeat : null;
  const bottom = bottomSeat(view);
  const top = otherSeat(bottom);
  const waiting = isWaiting(view);
  const over = isOverStatus(view);
  const inProgress = view.status === 'in_progress';
  const canMove = me !== null && inProgress && view.yourTurn && !live.sending;
  const stake = money(view.stake, view.currency);

  if (!isArenaGame(view.gameType)) {
    return (
      <Card className="flex flex-col items-start gap-3 p-6" data-testid="external-game">
        <p className="font-bold">{view.gameName}</p>
        <p className="text-sm text-muted">{LIVE_ARENA.externalGame}</p>
        <Button variant="secondary" asChild>
          <Link to={`/matches?highlight=${encodeURIComponent(view.id)}`}>{LIVE_ARENA.openMatches}</Link>
        </Button>
      </Card>
    );
  }

  const Board = boardFor(view.gameType);
  const opponentSeat = me === null ? null : otherSeat(me);

  let turnText: string | null = null;
  if (inProgress) {
    if (me === null) turnText = view.toMove.length === 1 ? LIVE_ARENA.theirTurn(names[view.toMove[0]!]) : null;
    else if (view.yourTurn) turnText = view.toMove.length > 1 ? LIVE_ARENA.throwNow : LIVE_ARENA.yourTurn;
    else if (opponentSeat !== null && view.toMove.includes(opponentSeat)) {
      turnText =
        view.toMove.length > 1 || view.gameType.includes('rock')
          ? LIVE_ARENA.waitingForOpponent
          : LIVE_ARENA.theirTurn(names[opponentSeat]);
    }
  }

  const topBar = (
    <PlayerBar
      player={view.players[top]}
      isYou={top === me}
      here={live.isHere(view.players[top].id)}
      toMove={inProgress && view.toMove.includes(top)}
      waiting={waiting}
      clock={view.clock}
      score={view.series.wins[top]}
    />
  );
  const bottomBar = (
    <PlayerBar
      player={view.players[bottom]}
      isYou={bottom === me}
      here={live.isHere(view.players[bottom].id)}
      toMove={inProgress && view.toMove.includes(bottom)}
      waiting={waiting}
      clock={view.clock}
      score={view.series.wins[bottom]}
    />
  );

  return (
    <div className="space-y-3 sm:space-y-4" data-testid="match-screen" data-status={view.status} data-version={view.version}>
      <header className="flex flex-wrap items-end justify-between gap-x-4 gap-y-1">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="text-xl font-black tracking-tight sm:text-2xl">{view.gameName}</h2>
            {mode === 'spectator' && (
              <Badge tone="cyan" data-testid="spectating">
                <Eye className="size-3" aria-hidden />
                {LIVE_ARENA.spectating}
              </Badge>
            )}
            {inProgress && (
              <Badge tone="danger">
                <span className="size-1.5 animate-live-pulse rounded-full bg-danger" aria-hidden />
                {LIVE_ARENA.live}
              </Badge>
            )}
          </div>
          <SeriesScore view={view} names={names} />
        </div>
        <p className="text-xs text-muted sm:text-right sm:text-sm">
          {view.tournament ? (
            <span data-testid="match-tournament">
              Tournament:{' '}
              <Link to={`/tournaments/${view.tournament.id}`} className="font-semibold text-accent underline-offset-2 hover:underline">
                {view.tournament.name}
              </Link>
            </span>
          ) : (
            <>Stake {stake}</>
          )}
          {view.timeControl && (
            <>
              {' · '}
              <span data-testid="match-time-control" title={clockPerGame(describeTimeControl(view.timeControl))}>
                <span className="sr-only">Clock per player per game: </span>
                {describeTimeControl(view.timeControl)}
              </span>
            </>
          )}
          {!over && !view.tournament && (
            <span className="ml-2 font-bold text-success sm:ml-0 sm:block">{LIVE_ARENA.youWin(money(view.payout, view.currency))}</span>
          )}
        </p>
      </header>

      {over && <ResultCard view={view} userId={mode === 'player' ? (user?.id ?? null) : null} />}

      {/* Phones: bars above and below the board. Wide screens: the board left, bars and moves beside it. */}
      <div className="grid gap-3 lg:grid-cols-[minmax(0,1fr)_20rem] lg:grid-rows-[auto_auto_1fr_auto] lg:gap-x-6">
        <div className="min-w-0 lg:col-start-2 lg:row-start-1">{topBar}</div>

        <div className="min-w-0 space-y-3 lg:col-start-1 lg:row-span-4 lg:row-start-1">
          {live.finished && <FinishedBanner finished={live.finished} view={view} />}
          <div className="mx-auto w-full lg:max-w-[min(100%,calc(100dvh-15rem))]">
            {waiting ? (
              <ReadyRoom
                view={view}
                isHere={live.isHere}
                sending={live.sending}
                {...(me !== null ? { onReady: () => void live.ready() } : {})}
              />
            ) : view.game ? (
              <ErrorBoundary resetKey={view.gameType}>
                <Suspense fallback={<BoardSkeleton />}>
                  <Board
                    key={`${view.id}:${view.game.index}`}
                    view={view.game.view}
                    seat={me}
                    names={names}
                    canMove={canMove}
                    live={inProgress && me !== null}
                    gameIndex={view.game.index}
                    onMove={live.move}
                  />
                </Suspense>
              </ErrorBoundary>
            ) : null}
          </div>
        </div>

        <div className="min-w-0 space-y-3 lg:col-start-2 lg:row-start-4">{bottomBar}</div>

        <div className="min-w-0 space-y-3 lg:col-start-2 lg:row-start-2">
          {(turnText || (inProgress && me !== null)) && (
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p
                className={cn('text-base font-bold', view.yourTurn && me !== null ? 'text-accent-2' : 'text-muted')}
                role="status"
                aria-live="polite"
                data-testid="turn-status"
              >
                {turnText}
              </p>
              {inProgress && me !== null && (
                <div className="flex flex-wrap gap-2">
                  {view.drawOffer === me && <Badge tone="neutral">{LIVE_ARENA.drawOffered}</Badge>}
                  {view.canOfferDraw && view.drawOffer === null && (
                    <Button variant="secondary" size="sm" onClick={() => void live.draw('offer')} disabled={live.sending}>
                      <Handshake className="size-4" aria-hidden />
                      {LIVE_ARENA.offerDraw}
                    </Button>
                  )}
                  <Button variant="outline" size="sm" onClick={() => setResignOpen(true)} data-testid="resign">
                    <Flag className="size-4" aria-hidden />
                    {LIVE_ARENA.resign}
                  </Button>
                </div>
              )}
            </div>
          )}

          {inProgress && me !== null && opponentSeat !== null && view.drawOffer === opponentSeat && (
            <div
              className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-warning/50 bg-warning/10 px-4 py-3"
              role="alert"
              data-testid="draw-offer"
            >
              <p className="font-semibold">{LIVE_ARENA.drawOfferFrom(names[opponentSeat])}</p>
              <div className="flex gap-2">
                <Button size="sm" onClick={() => void live.draw('accept')} disabled={live.sending}>
                  {LIVE_ARENA.acceptDraw}
                </Button>
                <Button size="sm" variant="secondary" onClick={() => void live.draw('decline')} disabled={live.sending}>
                  {LIVE_ARENA.declineDraw}
                </Button>
              </div>
            </div>
          )}
        </div>

        <aside className="min-w-0 lg:col-start-2 lg:row-start-3 lg:min-h-0">
          <Card className="h-full p-4">
            <MoveList view={view} />
          </Card>
        </aside>
      </div>

      <Dialog open={resignOpen} onOpenChange={setResignOpen}>
        <DialogContent
          title={LIVE_ARENA.resignTitle}
          description={view.tournament ? TOURNAMENT_VIEW.resignBody : LIVE_ARENA.resignBody(stake)}
          data-testid="resign-dialog"
        >
          <DialogActions>
            <Button variant="secondary" onClick={() => setResignOpen(false)}>
              {LIVE_ARENA.keepPlaying}
            </Button>
            <Button
              variant="danger"
              loading={live.sending}
              onClick={() =>
                void live.resign().then((resigned) => {
                  if (resigned) setResignOpen(false);
                })
              }
            >
              <Flag className="size-4" aria-hidden />
              {LIVE_ARENA.resignConfirm}
            </Button>
          </DialogActions>
        </DialogContent>
      </Dialog>
    </div>
  );
}
