import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { ArrowLeft, Ban, Eye, Flame, Gamepad2, Pause, Play, Swords, Timer, Trophy } from 'lucide-react';
import { TOURNAMENT_VIEW } from '@versus/domain';
import { clockPerGame } from '@versus/domain/arena';
import { formatMoney, toMinor } from '@versus/domain/money';
import { cancelRefusal, type TournamentDetail, type TournamentPlayer } from '@versus/domain/tournaments';
import { useTickingClock } from '../../app/clock.ts';
import { useDocumentTitle } from '../../app/document-title.ts';
import { Badge, Button, Card, Dialog, DialogActions, DialogContent, cn, type BadgeTone } from '../../ui/index.ts';
import { LoadFailed, Loading } from '../../ui/QueryState.tsx';
import { useAuth } from '../auth/use-auth.ts';
import { useTournament, useTournamentAction } from './tournaments.api.ts';
import {
  availableActions,
  bracketRounds,
  entryLabel,
  fieldLabel,
  formatLabel,
  poolLabel,
  timeControlText,
  timeLeft,
  type BracketRound,
} from './tournaments.logic.ts';

const STATUS_TONE: Record<TournamentDetail['status'], BadgeTone> = {
  scheduled: 'accent',
  running: 'danger',
  finished: 'success',
  cancelled: 'neutral',
};

/** The player's own buttons, in this order; a pause is a leave while an arena runs. */
const PLAYER_ACTIONS = [
  { kind: 'join', request: 'join', variant: 'primary', Icon: Swords },
  { kind: 'leave', request: 'leave', variant: 'secondary', Icon: null },
  { kind: 'pause', request: 'leave', variant: 'secondary', Icon: Pause },
  { kind: 'resume', request: 'resume', variant: 'primary', Icon: Play },
] as const;

/** /tournaments/:id: rules and money before entering, then the bracket or the standings, live. */
export default function TournamentPage() {
  const { id = '' } = useParams();
  const query = useTournament(id);
  useDocumentTitle(query.data?.name ?? TOURNAMENT_VIEW.title);
  return (
    <div className="mx-auto w-full max-w-6xl px-3 pt-6 pb-16 sm:px-6 sm:pt-10 lg:px-8" data-testid="tournament-page">
      <Link to="/tournaments" className="inline-flex items-center gap-1.5 text-sm font-semibold text-muted hover:text-fg">
        <ArrowLeft className="size-4" aria-hidden />
        {TOURNAMENT_VIEW.title}
      </Link>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <>
          <h1 className="sr-only">{TOURNAMENT_VIEW.title}</h1>
          <LoadFailed
            className="mt-4"
            message={query.error.message}
            retryLabel={TOURNAMENT_VIEW.retry}
            onRetry={() => void query.refetch()}
          />
        </>
      ) : (
        <Tournament t={query.data} />
      )}
    </div>
  );
}

function Tournament({ t }: { t: TournamentDetail }) {
  const { user } = useAuth();
  const now = useTickingClock();
  const action = useTournamentAction(t.id);
  const can = availableActions(t);
  const left = t.status === 'running' ? timeLeft(t.endsAt, now) : null;
  const currentMatch = t.me?.currentMatchId ?? null;
  // The server's own rule: an admin while scheduled or running, the creator before the start.
  const mayCancel = user !== null && cancelRefusal(t, { userId: user.id, role: user.role }).ok;
  const [cancelOpen, setCancelOpen] = useState(false);

  return (
    <div className="mt-3 space-y-6" data-status={t.status} data-format={t.format}>
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="min-w-0 text-3xl font-black break-words sm:text-4xl" data-testid="tournament-name">
              {t.name}
            </h1>
            <Badge tone={STATUS_TONE[t.status]} data-testid="tournament-status">
              {TOURNAMENT_VIEW.statuses[t.status]}
            </Badge>
          </div>
          <p className="mt-1 text-muted">
            {t.gameName} · {formatLabel(t)} · {fieldLabel(t)}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {PLAYER_ACTIONS.filter(({ kind }) => can[kind]).map(({ kind, request, variant, Icon }) => (
            <Button
              key={kind}
              variant={variant}
              size="lg"
              loading={action.isPending}
              onClick={() => action.mutate(request)}
              data-testid={`${kind}-tournament`}
            >
              {Icon && <Icon className="size-5" aria-hidden />}
              {TOURNAMENT_VIEW.actions[kind]}
              {kind === 'join' && t.entry.kind === 'stake' && ` · ${entryLabel(t)}`}
            </Button>
          ))}
          {mayCancel && (
            <Button variant="secondary" size="lg" onClick={() => setCancelOpen(true)} data-testid="cancel-tournament">
              <Ban className="size-5" aria-hidden />
              {TOURNAMENT_VIEW.cancel}
            </Button>
          )}
        </div>
      </header>

      {currentMatch && (
        <Card className="flex flex-wrap items-center justify-between gap-3 border-accent/60 p-4 shadow-glow" data-testid="my-game">
          <p className="flex items-center gap-2 font-bold">
            <Gamepad2 className="size-5 text-accent" aria-hidden />
            {TOURNAMENT_VIEW.gameReady}
          </p>
          <Button asChild>
            <Link to={`/live-arena?match=${encodeURIComponent(currentMatch)}`} data-testid="play-my-game">
              {TOURNAMENT_VIEW.playNow}
            </Link>
          </Button>
        </Card>
      )}
      {t.me && t.status !== 'scheduled' && <MyPlace t={t} />}
      {t.status === 'cancelled' && (
        <Card className="p-4 text-muted" role="status">
          {TOURNAMENT_VIEW.cancelledNotice}
        </Card>
      )}

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-6">
          {t.format === 'knockout' && t.bracket && (
            <section aria-labelledby="bracket-title">
              <h2 id="bracket-title" className="mb-3 text-xl font-black">
                {TOURNAMENT_VIEW.bracket}
              </h2>
              <Bracket rounds={bracketRounds(t.bracket, t)} me={user?.id ?? null} />
            </section>
          )}
          {t.format === 'arena' && t.standings && (
            <section aria-labelledby="standings-title">
              <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
                <h2 id="standings-title" className="text-xl font-black">
                  {TOURNAMENT_VIEW.standings}
                </h2>
                {left && (
                  <p className="flex items-center gap-1.5 font-mono text-lg font-black tabular-nums" data-testid="arena-time-left">
                    <Timer className="size-5 text-warning" aria-hidden />
                    <span className="sr-only">{TOURNAMENT_VIEW.timeLeft}: </span>
                    {left}
                  </p>
                )}
              </div>
              <Standings t={t} me={user?.id ?? null} />
            </section>
          )}
          <LiveGames t={t} />
          <Players t={t} me={user?.id ?? null} />
        </div>
        <Rules t={t} />
      </div>

      <Dialog open={cancelOpen} onOpenChange={setCancelOpen}>
        <DialogContent title={TOURNAMENT_VIEW.cancelTitle} description={TOURNAMENT_VIEW.cancelBody} data-testid="cancel-dialog">
          <DialogActions>
            <Button variant="secondary" onClick={() => setCancelOpen(false)}>
              {TOURNAMENT_VIEW.keep}
            </Button>
            <Button
              variant="danger"
              loading={action.isPending}
              onClick={() => action.mutate('cancel', { onSettled: () => setCancelOpen(false) })}
              data-testid="confirm-cancel-tournament"
            >
              {TOURNAMENT_VIEW.cancel}
            </Button>
          </DialogActions>
        </DialogContent>
      </Dialog>
    </div>
  );
}

function MyPlace({ t }: { t: TournamentDetail }) {
  const me = t.me!;
  let text: string | null = null;
  if (me.place !== null) text = TOURNAMENT_VIEW.finishedPlace(me.place, me.prize > 0 ? money(t, me.prize) : null);
  else if (me.eliminatedRound !== null || me.withdrawn) text = TOURNAMENT_VIEW.out;
  else if (me.paused) text = TOURNAMENT_VIEW.paused;
  if (!text) return null;
  return (
    <Card className={cn('p-4 font-bold', me.prize > 0 && 'border-success/60 text-success')} data-testid="my-place">
      {text}
    </Card>
  );
}

const money = (t: Pick<TournamentDetail, 'currency'>, units: number) => formatMoney(toMinor(units), t.currency);

function Rules({ t }: { t: TournamentDetail }) {
  const starts = new Date(t.startsAt);
  return (
    <aside className="min-w-0 space-y-4" aria-label={TOURNAMENT_VIEW.rulesAndPrizes}>
      <Card className="space-y-3 p-4">
        <h2 className="text-lg font-black">{TOURNAMENT_VIEW.rules}</h2>
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-2 text-sm">
          <Term label={TOURNAMENT_VIEW.terms.game}>{t.gameName}</Term>
          <Term label={TOURNAMENT_VIEW.terms.timeControl}>
            <span data-testid="tournament-time-control">{clockPerGame(timeControlText(t))}</span>
          </Term>
          <Term label={TOURNAMENT_VIEW.terms.format}>{formatLabel(t)}</Term>
          <Term label={TOURNAMENT_VIEW.terms.entry}>{entryLabel(t)}</Term>
          <Term label={TOURNAMENT_VIEW.players}>
            {t.minPlayers}–{t.maxPlayers}
          </Term>
          <Term label={TOURNAMENT_VIEW.terms.starts}>
            <time dateTime={t.startsAt}>{starts.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}</time>
          </Term>
        </dl>
        <ul className="list-disc space-y-1 pl-5 text-sm text-muted">
          {t.format === 'knockout' ? (
            <>
              <li>{TOURNAMENT_VIEW.seedingRule}</li>
              <li>{TOURNAMENT_VIEW.deciderRule}</li>
            </>
          ) : (
            TOURNAMENT_VIEW.arenaRules.map((rule) => <li key={rule}>{rule}</li>)
          )}
        </ul>
      </Card>
      <Card className="space-y-3 p-4" data-testid="prize-split">
        <h2 className="flex items-center justify-between gap-2 text-lg font-black">
          {TOURNAMENT_VIEW.prizePool}
          <span className="font-mono text-success tabular-nums" data-testid="prize-pool">
            {poolLabel(t)}
          </span>
        </h2>
        <p className="text-sm font-bold">{t.prizeSplit}</p>
        <ol className="space-y-1 text-sm">
          {t.prizes.map((amount, i) => (
            <li key={i} className="flex justify-between gap-2">
              <span className="text-muted">{TOURNAMENT_VIEW.place(i + 1)}</span>
              <span className="font-mono tabular-nums">{money(t, amount)}</span>
            </li>
          ))}
        </ol>
        <p className="text-xs text-muted">{t.status === 'scheduled' ? TOURNAMENT_VIEW.poolGrows : TOURNAMENT_VIEW.poolPaid}</p>
      </Card>
    </aside>
  );
}

function Term({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 font-semibold break-words">{children}</dd>
    </>
  );
}

function Bracket({ rounds, me }: { rounds: BracketRound[]; me: string | null }) {
  return (
    <div className="-mx-3 overflow-x-auto px-3 pb-2 sm:mx-0 sm:px-0" data-testid="bracket">
      <ol className="flex min-w-max gap-4">
        {rounds.map((round) => (
          <li key={round.name} className="flex w-40 flex-col gap-3 sm:w-56" data-testid="bracket-round">
            <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">{round.name}</h3>
            <ul className="flex flex-1 flex-col justify-around gap-3">
              {round.pairs.map((pair) => (
                <li key={pair.key} className="glass rounded-xl p-2" data-testid="bracket-pair" data-decided={pair.decided}>
                  {pair.slots.map((slot, i) => (
                    <p
                      key={i}
                      className={cn(
                        'flex items-center justify-between gap-2 rounded-lg px-2 py-1 text-sm',
                        slot.won && 'bg-success/15 font-bold text-success',
                        slot.id !== null && slot.id === me && 'ring-1 ring-accent',
                        pair.decided && !slot.won && slot.id !== null && 'text-muted line-through',
                      )}
                      data-testid="bracket-slot"
                      data-player={slot.id ?? undefined}
                      data-won={slot.won}
                    >
                      <span className="truncate">
                        {slot.seed !== null && <span className="mr-1.5 font-mono text-xs text-muted">{slot.seed}</span>}
                        {slot.name ?? (pair.bye && i === 1 ? TOURNAMENT_VIEW.bye : '—')}
                      </span>
                      {slot.won && <Trophy className="size-3.5 shrink-0" aria-label={TOURNAMENT_VIEW.winner} />}
                    </p>
                  ))}
                  {pair.liveMatchId && <WatchLink matchId={pair.liveMatchId} className="mt-1 px-2 text-xs" />}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </div>
  );
}

function Standings({ t, me }: { t: TournamentDetail; me: string | null }) {
  const byId = new Map(t.entrants.map((e) => [e.id, e]));
  return (
    <Card className="overflow-x-auto p-0">
      <table className="w-full text-sm" data-testid="standings">
        <thead className="text-left text-xs text-muted uppercase">
          <tr>
            <th className="px-3 py-2">{TOURNAMENT_VIEW.standingsColumns.rank}</th>
            <th className="px-3 py-2">{TOURNAMENT_VIEW.standingsColumns.player}</th>
            <th className="px-3 py-2 text-right">{TOURNAMENT_VIEW.standingsColumns.points}</th>
            <th className="hidden px-3 py-2 text-right sm:table-cell">{TOURNAMENT_VIEW.standingsColumns.wonPlayed}</th>
            <th className="px-3 py-2 text-right">{TOURNAMENT_VIEW.standingsColumns.streak}</th>
          </tr>
        </thead>
        <tbody>
          {(t.standings ?? []).map((s) => {
            const player = byId.get(s.id);
            return (
              <tr key={s.id} className={cn('border-t border-border', s.id === me && 'bg-accent/10')} data-testid="standing-row">
                <td className="px-3 py-2 font-mono font-black tabular-nums">{s.rank}</td>
                <td className="max-w-40 truncate px-3 py-2 font-semibold">
                  {player?.displayName ?? player?.username ?? s.id}
                  {player?.paused && <span className="ml-2 text-xs text-muted">({TOURNAMENT_VIEW.paused})</span>}
                </td>
                <td className="px-3 py-2 text-right font-mono font-black tabular-nums" data-testid="standing-points">
                  {s.score}
                </td>
                <td className="hidden px-3 py-2 text-right font-mono tabular-nums sm:table-cell">
                  {s.wins}/{s.games}
                </td>
                <td className="px-3 py-2 text-right">
                  {s.onFire ? (
                    <Flame className="ml-auto size-4 text-warning" aria-label={TOURNAMENT_VIEW.onFire} />
                  ) : (
                    <span className="font-mono tabular-nums">{player?.winStreak ?? 0}</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Card>
  );
}

function LiveGames({ t }: { t: TournamentDetail }) {
  if (t.format !== 'arena') return null;
  const live = t.games.filter((g) => g.status === 'in_progress');
  if (live.length === 0) return null;
  const name = (id: string) => t.entrants.find((e) => e.id === id)?.displayName ?? '…';
  return (
    <section aria-labelledby="live-games-title">
      <h2 id="live-games-title" className="mb-3 text-xl font-black">
        {TOURNAMENT_VIEW.liveGames}
      </h2>
      <ul className="grid gap-2 sm:grid-cols-2">
        {live.map((g) => (
          <li key={g.matchId}>
            <Card className="flex items-center justify-between gap-2 p-3 text-sm">
              <span className="min-w-0 truncate">{TOURNAMENT_VIEW.versus(name(g.players[0]), name(g.players[1]))}</span>
              <WatchLink matchId={g.matchId} className="shrink-0" />
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}

function WatchLink({ matchId, className }: { matchId: string; className?: string }) {
  return (
    <Link
      to={`/spectate/${matchId}`}
      className={cn('flex items-center gap-1 font-bold text-accent-2 hover:underline', className)}
      data-testid="watch-game"
    >
      <Eye className="size-4" aria-hidden />
      {TOURNAMENT_VIEW.watch}
    </Link>
  );
}

function Players({ t, me }: { t: TournamentDetail; me: string | null }) {
  const sorted = [...t.entrants].sort(
    (a, b) => (a.place ?? 999) - (b.place ?? 999) || (a.seed ?? 999) - (b.seed ?? 999) || b.rating - a.rating,
  );
  return (
    <section aria-labelledby="players-title">
      <h2 id="players-title" className="mb-3 text-xl font-black">
        {TOURNAMENT_VIEW.players} <span className="text-base font-semibold text-muted">({t.players})</span>
      </h2>
      {sorted.length === 0 ? (
        <Card className="p-4 text-sm text-muted">{TOURNAMENT_VIEW.noEntrants}</Card>
      ) : (
        <ul className="grid gap-2 sm:grid-cols-2" data-testid="entrants">
          {sorted.map((p) => (
            <li key={p.id}>
              <PlayerCard p={p} t={t} me={p.id === me} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function PlayerCard({ p, t, me }: { p: TournamentPlayer; t: TournamentDetail; me: boolean }) {
  return (
    <Card className={cn('flex min-w-0 items-center justify-between gap-2 p-3 text-sm', me && 'ring-2 ring-accent')} data-testid="entrant">
      <span className="min-w-0 truncate">
        {p.seed !== null && <span className="mr-1.5 font-mono text-xs text-muted">#{p.seed}</span>}
        <span className="font-semibold">{p.displayName}</span>
        <span className="ml-1.5 text-xs text-muted">{p.rating}</span>
      </span>
      <span className="shrink-0 text-xs font-bold">
        {p.place !== null ? (
          <span className={p.prize > 0 ? 'text-success' : 'text-muted'}>
            {TOURNAMENT_VIEW.place(p.place)}
            {p.prize > 0 && ` · ${money(t, p.prize)}`}
          </span>
        ) : p.eliminatedRound !== null || p.withdrawn ? (
          <span className="text-muted">{TOURNAMENT_VIEW.outShort}</span>
        ) : p.paused ? (
          <span className="text-muted">{TOURNAMENT_VIEW.paused}</span>
        ) : null}
      </span>
    </Card>
  );
}
