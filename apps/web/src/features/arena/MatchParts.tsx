// The pieces of a match screen around the board: player bars with clocks, the series score, the
// move list, the ready room, the banner of a game that just ended, and the result.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Check, Clock, Hourglass, RotateCcw, Swords, Trophy } from 'lucide-react';
import { ARENA, LIVE_ARENA, TOURNAMENT_VIEW } from '@versus/domain';
import type { ArenaPlayer, ClockView, MatchView } from '@versus/domain/arena';
import type { Seat } from '@versus/domain/games/game';
import { Badge, Button, Card, cn } from '../../ui/index.ts';
import { serverClock } from './arena.api.ts';
import { formatClock, LOW_TIME_MS, remainingNow } from './clock.ts';
import { groupMoves, money, playerName, rematchPath } from './format.ts';
import type { FinishedGame } from './use-live-match.ts';

// ---- clock -------------------------------------------------------------------------------

/** A seat's clock, counting down locally between server readings (which it re-syncs to). */
export function GameClock({ clock, seat, name }: { clock: ClockView | null; seat: Seat; name: string }) {
  const running = clock !== null && clock.flagged === null && clock.running.includes(seat);
  const [now, setNow] = useState(() => serverClock.serverNow());
  useEffect(() => {
    setNow(serverClock.serverNow());
    if (!running) return;
    const timer = setInterval(() => setNow(serverClock.serverNow()), 100);
    return () => clearInterval(timer);
  }, [running, clock]);
  if (!clock) return null;
  const left = remainingNow(clock, seat, now);
  const low = left < LOW_TIME_MS;
  const text = formatClock(left);
  return (
    <div
      role="timer"
      aria-label={`${name}'s clock: ${text}`}
      data-testid={`clock-${seat}`}
      className={cn(
        'min-w-[5.5rem] rounded-lg px-3 py-1.5 text-right font-mono text-xl font-bold tabular-nums transition-colors sm:text-2xl',
        running ? 'bg-fg text-bg' : 'bg-surface-2 text-muted',
        running && low && 'bg-danger text-white',
        clock.flagged === seat && 'bg-danger/20 text-danger',
      )}
    >
      {text}
    </div>
  );
}

// ---- players -----------------------------------------------------------------------------

export function PlayerBar({
  player,
  isYou,
  here,
  toMove,
  waiting,
  clock,
  score,
}: {
  player: ArenaPlayer;
  isYou: boolean;
  /** On the match screen now (presence), whatever their readiness. */
  here: boolean;
  toMove: boolean;
  waiting: boolean;
  clock: ClockView | null;
  score: number;
}) {
  const name = playerName(player);
  return (
    <div
      className={cn(
        'flex items-center gap-3 rounded-xl border bg-surface/80 p-2 sm:p-2.5',
        toMove ? 'border-accent/70 shadow-glow' : 'border-border',
      )}
      data-testid={`player-${player.seat}`}
      data-to-move={toMove || undefined}
    >
      <div className="relative shrink-0">
        <div className="flex size-10 items-center justify-center rounded-full bg-brand text-lg font-black text-accent-fg" aria-hidden>
          {name.slice(0, 1).toUpperCase()}
        </div>
        <span
          className={cn('absolute -right-0.5 -bottom-0.5 size-3.5 rounded-full border-2 border-surface', here ? 'bg-success' : 'bg-muted')}
          aria-hidden
        />
      </div>
      <div className="min-w-0 flex-1">
        <p className="flex items-center gap-2 truncate font-bold">
          <span className="truncate">{name}</span>
          {isYou && <Badge tone="cyan">{LIVE_ARENA.you}</Badge>}
        </p>
        <p className="flex items-center gap-2 text-xs text-muted">
          <span>
            {player.rating.value}
            {player.rating.provisional ? '?' : ''}
          </span>
          <span aria-hidden>·</span>
          <span className={here ? 'text-success' : ''} data-testid={`presence-${player.seat}`}>
            {here ? LIVE_ARENA.here : LIVE_ARENA.away}
          </span>
          <span aria-hidden>·</span>
          {waiting ? (
            <span className={player.ready ? 'font-semibold text-success' : ''} data-testid={`ready-${player.seat}`}>
              {player.ready ? LIVE_ARENA.readyState : LIVE_ARENA.notReady}
            </span>
          ) : (
            <span>
              {score} {score === 1 ? 'game' : 'games'}
            </span>
          )}
        </p>
      </div>
      <GameClock clock={clock} seat={player.seat} name={name} />
    </div>
  );
}

// ---- series score ------------------------------------------------------------------------

export function SeriesScore({ view, names }: { view: MatchView; names: readonly [string, string] }) {
  const current = view.game ? view.game.index + 1 : view.series.played;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" data-testid="series-score">
      <Badge tone="neutral">{LIVE_ARENA.bestOf3}</Badge>
      <span className="font-semibold">
        <span className="sr-only">Score: </span>
        {/* Phones: the player bars carry the names (and each one's score), so the score line stays one line. */}
        <span className="max-sm:sr-only">{names[0]} </span>
        <span className="mx-1 font-mono text-lg font-black text-fg">{view.series.wins[0]}</span>–
        <span className="mx-1 font-mono text-lg font-black text-fg">{view.series.wins[1]}</span>
        <span className="max-sm:sr-only"> {names[1]}</span>
      </span>
      {view.series.draws > 0 && <span className="text-muted">({view.series.draws} drawn)</span>}
      {view.status === 'in_progress' && current > 0 && <span className="text-muted">· {LIVE_ARENA.gameNumber(current)}</span>}
    </div>
  );
}

// ---- moves -------------------------------------------------------------------------------

/** Games whose moves are short enough for two columns. */
const TWO_COLUMNS: readonly string[] = ['tic-tac-toe', 'checkers'];

export function MoveList({ view }: { view: MatchView }) {
  const groups = groupMoves(view, [playerName(view.players[0]), playerName(view.players[1])]);
  const twoColumns = TWO_COLUMNS.includes(view.gameType);
  return (
    <section aria-labelledby="moves-title" className="flex min-h-0 flex-col" data-testid="move-list">
      <h2 id="moves-title" className="mb-2 text-sm font-bold tracking-wider text-muted uppercase">
        {LIVE_ARENA.moveList}
      </h2>
      {groups.length === 0 ? (
        <p className="text-sm text-muted">{LIVE_ARENA.noMovesYet}</p>
      ) : (
        <div className="max-h-72 space-y-3 overflow-y-auto pr-1 lg:max-h-[28rem]">
          {groups.map(({ gameIndex, lines }) => {
            const outcome = view.series.games.find((g) => g.index === gameIndex)?.outcome;
            return (
              <div key={gameIndex}>
                <p className="mb-1 text-xs font-bold text-muted">
                  {LIVE_ARENA.gameNumber(gameIndex + 1)}
                  {outcome && ` · ${'winner' in outcome ? `${playerName(view.players[outcome.winner])} won` : 'drawn'}`}
                </p>
                <ol
                  className={cn(
                    'grid gap-x-3 gap-y-0.5 text-sm',
                    twoColumns ? 'grid-cols-2' : 'grid-cols-1',
                    view.gameType === 'chess' || twoColumns ? 'font-mono' : '',
                  )}
                >
                  {lines.map((line, i) => (
                    <li key={i} className="truncate" title={line}>
                      {line}
                    </li>
                  ))}
                </ol>
              </div>
            );
          })}
        </div>
      )}
    </section>
  );
}

// ---- before the start --------------------------------------------------------------------

export function ReadyRoom({
  view,
  isHere,
  onReady,
  sending,
}: {
  view: MatchView;
  isHere: (userId: string) => boolean;
  onReady?: () => void;
  sending: boolean;
}) {
  const me = view.viewerSeat;
  const iAmReady = me !== null && view.players[me].ready;
  const other = me === null ? null : view.players[me === 0 ? 1 : 0];
  const deadline = view.noShowDeadline
    ? new Date(view.noShowDeadline).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    : null;
  return (
    <Card className="flex flex-col items-center gap-4 p-6 text-center sm:p-8" data-testid="ready-room">
      <Hourglass className="size-10 text-accent" aria-hidden />
      <p className="text-lg font-bold">{LIVE_ARENA.startsWhenReady}</p>
      <ul className="grid w-full max-w-sm gap-2" aria-live="polite">
        {view.players.map((p) => {
          const here = isHere(p.id);
          return (
            <li
              key={p.seat}
              className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 rounded-xl border border-border bg-surface-2/60 px-4 py-2"
              data-testid={`seat-${p.seat}`}
            >
              <span className="min-w-0 truncate font-semibold">
                {playerName(p)}
                {p.seat === me && ` (${LIVE_ARENA.you})`}
              </span>
              <span className="flex items-center gap-3 text-sm">
                <span
                  className={cn('flex items-center gap-1.5', here ? 'text-success' : 'text-muted')}
                  data-testid={`seat-presence-${p.seat}`}
                >
                  <span className={cn('size-2 rounded-full', here ? 'bg-success' : 'bg-muted')} aria-hidden />
                  {here ? LIVE_ARENA.here : LIVE_ARENA.away}
                </span>
                <span
                  className={cn('flex items-center gap-1', p.ready ? 'text-success' : 'text-muted')}
                  data-testid={`seat-ready-${p.seat}`}
                >
                  {p.ready ? <Check className="size-4" aria-hidden /> : <Clock className="size-4" aria-hidden />}
                  {p.ready ? LIVE_ARENA.readyState : LIVE_ARENA.notReady}
                </span>
              </span>
            </li>
          );
        })}
      </ul>
      {onReady && !iAmReady && (
        <Button size="lg" onClick={onReady} loading={sending} data-testid="ready-button">
          <Swords className="size-5" aria-hidden />
          {LIVE_ARENA.ready}
        </Button>
      )}
      {iAmReady && other && !other.ready && <p className="text-sm text-muted">{LIVE_ARENA.waitingForReady(playerName(other))}</p>}
      {deadline && <p className="text-xs text-muted">{LIVE_ARENA.noShowAt(deadline)}</p>}
    </Card>
  );
}

// ---- a game just ended -------------------------------------------------------------------

export function FinishedBanner({ finished, view }: { finished: FinishedGame; view: MatchView }) {
  const outcome = finished.outcome;
  const reason = LIVE_ARENA.reasons[outcome.reason] ?? outcome.reason;
  const mine = view.viewerSeat;
  let text: string;
  if ('winner' in outcome) {
    const who = outcome.winner === mine ? 'You' : playerName(view.players[outcome.winner]);
    text = `${LIVE_ARENA.gameNumber(finished.index + 1)}: ${who} won by ${reason}`;
  } else text = `${LIVE_ARENA.gameNumber(finished.index + 1)}: drawn by ${reason}`;
  // Throws are public once the game is over: show them with the result.
  const throws = (finished.view as { throws?: [string | null, string | null] } | null)?.throws;
  return (
    <div
      role="status"
      className={cn(
        'flex flex-wrap items-center justify-center gap-x-3 gap-y-1 rounded-xl border px-4 py-2 text-center text-sm font-semibold animate-rise',
        'winner' in outcome && outcome.winner === mine
          ? 'border-success/50 bg-success/15 text-success'
          : 'border-border bg-surface-2 text-fg',
      )}
      data-testid="game-finished"
    >
      <span>{text}</span>
      {throws?.[0] && throws[1] && (
        <span className="text-muted">
          ({playerName(view.players[0])}: {throws[0]} · {playerName(view.players[1])}: {throws[1]})
        </span>
      )}
    </div>
  );
}

// ---- the result --------------------------------------------------------------------------

export function ResultCard({ view, userId }: { view: MatchView; userId: string | null }) {
  const result = view.result;
  const me = view.viewerSeat;
  const names = [playerName(view.players[0]), playerName(view.players[1])] as const;
  const stake = money(view.stake, view.currency);
  let title: string;
  let detail: string;
  let tone: 'win' | 'loss' | 'even';
  if (!result || result.outcome === 'void') {
    title = LIVE_ARENA.voided;
    detail = me === null ? ARENA.matchVoid : LIVE_ARENA.stakeBack(stake);
    tone = 'even';
  } else if (result.outcome === 'draw') {
    title = LIVE_ARENA.drawn;
    detail = me === null ? LIVE_ARENA.stakeBack(stake).replace('Your', 'Each') : LIVE_ARENA.stakeBack(stake);
    tone = 'even';
  } else if (me === null) {
    title = LIVE_ARENA.winnerIs(result.winnerSeat === null ? '' : names[result.winnerSeat]);
    detail = `Payout ${money(view.payout, view.currency)}`;
    tone = 'win';
  } else if (result.winnerId === userId) {
    const paid = result.payouts.find((p) => p.userId === userId)?.amount ?? view.payout;
    title = LIVE_ARENA.won;
    detail = LIVE_ARENA.paid(money(paid, view.currency));
    tone = 'win';
  } else {
    title = LIVE_ARENA.lost;
    detail = LIVE_ARENA.stakeLost(stake);
    tone = 'loss';
  }
  // A tournament's game has no stake of its own: its result counts in the tournament.
  if (view.tournament && result && result.outcome !== 'void') detail = TOURNAMENT_VIEW.gameCounts;
  const rating = result?.ratings.find((r) => r.userId === userId);
  // The match just ended, perhaps while the page was scrolled to the controls: show the result.
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const card = ref.current;
    if (!card || card.getBoundingClientRect().top >= 0) return;
    card.scrollIntoView({ block: 'start' });
  }, []);
  const reason = result ? (LIVE_ARENA.reasons[result.reason] ?? result.reason) : null;
  const opponent = me === null ? null : view.players[me === 0 ? 1 : 0];
  return (
    <div ref={ref} className="scroll-mt-20">
      <Card
        className={cn(
          'relative overflow-hidden p-5 text-center sm:p-6',
          tone === 'win' && 'border border-success/50',
          tone === 'loss' && 'border border-danger/40',
        )}
        data-testid="match-result"
        role="status"
      >
        <div
          aria-hidden
          className={cn('absolute inset-x-0 top-0 h-1', tone === 'win' ? 'bg-success' : tone === 'loss' ? 'bg-danger' : 'bg-border')}
        />
        <Trophy
          className={cn('mx-auto mb-2 size-10', tone === 'win' ? 'text-success' : tone === 'loss' ? 'text-muted' : 'text-warning')}
          aria-hidden
        />
        <p className="text-3xl font-black tracking-tight" data-testid="result-title">
          {title}
        </p>
        <p
          className={cn('mt-1 text-lg font-bold', tone === 'win' ? 'text-success' : tone === 'loss' ? 'text-danger' : 'text-fg')}
          data-testid="result-payout"
        >
          {detail}
        </p>
        <p className="mt-2 text-sm text-muted">
          {names[0]} {view.series.wins[0]} – {view.series.wins[1]} {names[1]}
          {reason && ` · by ${reason}`}
          {rating && ` · ${LIVE_ARENA.rating(rating.before, rating.after)}`}
        </p>
        {me !== null && (
          <div className="mt-4 flex flex-wrap justify-center gap-2">
            {opponent && (
              <Button asChild>
                <Link to={rematchPath(view.gameType, opponent.id)} data-testid="rematch">
                  <RotateCcw className="size-4" aria-hidden />
                  {LIVE_ARENA.rematch}
                </Link>
              </Button>
            )}
            <Button variant="secondary" asChild>
              <Link to="/live-arena">{LIVE_ARENA.backToMatches}</Link>
            </Button>
          </div>
        )}
      </Card>
    </div>
  );
}
