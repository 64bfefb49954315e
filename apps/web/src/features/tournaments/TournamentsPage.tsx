import { Link, useSearchParams } from 'react-router';
import { Tabs } from 'radix-ui';
import { CalendarClock, PlusCircle, Trophy, Users } from 'lucide-react';
import { TOURNAMENT_VIEW } from '@versus/domain';
import { GAMES } from '@versus/domain/catalogue';
import { TOURNAMENT_GAMES, TOURNAMENT_LIST_TABS, type TournamentSummary } from '@versus/domain/tournaments';
import { useDocumentTitle } from '../../app/document-title.ts';
import { Badge, Button, Card, FilterRow, FilterSelect, cn } from '../../ui/index.ts';
import { LoadFailed, Loading } from '../../ui/QueryState.tsx';
import { useTournamentList } from './tournaments.api.ts';
import {
  entryLabel,
  fieldLabel,
  formatLabel,
  listFiltersFrom,
  listParams,
  poolLabel,
  timeControlText,
  type EntryFilter,
  type ListFilters,
  type ListTab,
} from './tournaments.logic.ts';

const TAB_LABEL: Record<ListTab, string> = { upcoming: 'Upcoming', live: 'Live', finished: 'Finished' };
const EMPTY: Record<ListTab, string> = {
  upcoming: 'No tournaments open for entry yet. Create one!',
  live: 'No tournament is being played right now.',
  finished: 'No finished tournaments yet.',
};
const GAME_OPTIONS = TOURNAMENT_GAMES.map((g) => ({ value: g, label: GAMES[g].name }));
const ENTRY_OPTIONS: { value: EntryFilter; label: string }[] = [
  { value: 'stake', label: 'Paid entry' },
  { value: 'sponsored', label: `${TOURNAMENT_VIEW.freeEntry} (${TOURNAMENT_VIEW.sponsored.toLowerCase()})` },
];

/** /tournaments: upcoming, live and finished tournaments, by game and entry, live. */
export default function TournamentsPage() {
  useDocumentTitle(TOURNAMENT_VIEW.title);
  const [params, setParams] = useSearchParams();
  const filters = listFiltersFrom(params);
  const list = useTournamentList(filters);
  const set = (next: Partial<ListFilters>) => setParams(listParams({ ...filters, ...next }), { replace: true });

  return (
    <div className="mx-auto w-full max-w-6xl px-3 pt-6 pb-16 sm:px-6 sm:pt-10 lg:px-8" data-testid="tournaments-page">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="flex items-center gap-3 text-3xl font-black sm:text-4xl">
            <Trophy className="size-8 text-warning" aria-hidden />
            {TOURNAMENT_VIEW.title}
          </h1>
          <p className="mt-1 text-sm text-muted">Knockout brackets and timed arenas, with the whole pool paid to the winners.</p>
        </div>
        <Button asChild size="lg">
          <Link to="/tournaments/create" data-testid="create-tournament-link">
            <PlusCircle className="size-5" aria-hidden />
            Create tournament
          </Link>
        </Button>
      </div>

      <Tabs.Root value={filters.tab} onValueChange={(tab) => set({ tab: tab as ListTab })} className="mt-6">
        <div className="glass grid gap-3 rounded-2xl p-3 sm:grid-cols-[auto_minmax(0,1fr)_minmax(0,1fr)] sm:items-end sm:p-4">
          <Tabs.List aria-label="Tournament status" className="flex h-11 gap-1 self-end rounded-xl border border-border bg-bg/60 p-1">
            {TOURNAMENT_LIST_TABS.map((tab) => (
              <Tabs.Trigger
                key={tab}
                value={tab}
                data-testid={`tab-${tab}`}
                className="flex-1 rounded-lg px-3 text-sm font-bold text-muted outline-none hover:text-fg focus-visible:ring-2 focus-visible:ring-accent data-[state=active]:bg-accent-solid data-[state=active]:text-accent-fg"
              >
                {TAB_LABEL[tab]}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <FilterRow>
            <FilterSelect
              label="Game"
              value={filters.game}
              anyLabel="All games"
              options={GAME_OPTIONS}
              onChange={(game) => set({ game })}
              data-testid="filter-game"
            />
            <FilterSelect
              label="Entry"
              value={filters.entry}
              anyLabel="Any entry"
              options={ENTRY_OPTIONS}
              onChange={(entry) => set({ entry })}
              data-testid="filter-entry"
            />
          </FilterRow>
        </div>
        {TOURNAMENT_LIST_TABS.map((tab) => (
          <Tabs.Content key={tab} value={tab} className="mt-6 outline-none">
            {tab !== filters.tab ? null : list.isPending ? (
              <Loading />
            ) : list.isError ? (
              <LoadFailed message={list.error.message} retryLabel="Try again" onRetry={() => void list.refetch()} />
            ) : list.data.length === 0 ? (
              <Card className="p-8 text-center text-muted" data-testid="tournaments-empty">
                {EMPTY[tab]}
              </Card>
            ) : (
              <ul className="grid gap-3" data-testid="tournament-list">
                {list.data.map((t) => (
                  <li key={t.id} className="min-w-0">
                    <TournamentRow t={t} />
                  </li>
                ))}
              </ul>
            )}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </div>
  );
}

function TournamentRow({ t }: { t: TournamentSummary }) {
  const starts = new Date(t.startsAt);
  return (
    <Link
      to={`/tournaments/${t.id}`}
      data-testid="tournament-row"
      data-id={t.id}
      className="glass grid min-w-0 gap-3 rounded-2xl p-4 outline-none hover:border-accent/60 focus-visible:ring-4 focus-visible:ring-accent/30 sm:grid-cols-[minmax(0,1.6fr)_repeat(3,minmax(0,1fr))] sm:items-center"
    >
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2">
          <span className="truncate text-lg font-black">{t.name}</span>
          {t.entered && <Badge tone="success">Entered</Badge>}
          {t.status === 'cancelled' && <Badge tone="neutral">Cancelled</Badge>}
        </p>
        <p className="text-sm text-muted">
          {t.gameName} · {timeControlText(t)} · {formatLabel(t)}
        </p>
      </div>
      <Fact label="Entry" value={entryLabel(t)} />
      <Fact label={TOURNAMENT_VIEW.prizePool} value={poolLabel(t)} strong />
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm sm:grid sm:justify-items-end">
        <span className="flex items-center gap-1.5">
          <Users className="size-4 text-muted" aria-hidden />
          {fieldLabel(t)}
        </span>
        <time dateTime={t.startsAt} className={cn('flex items-center gap-1.5 text-muted')}>
          <CalendarClock className="size-4" aria-hidden />
          {starts.toLocaleString(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit', day: 'numeric', month: 'short' })}
        </time>
      </div>
    </Link>
  );
}

function Fact({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className="flex items-baseline justify-between gap-2 sm:block">
      <p className="text-[0.7rem] font-semibold tracking-wide text-muted uppercase">{label}</p>
      <p className={cn('font-mono tabular-nums', strong ? 'font-black text-success' : 'font-bold')}>{value}</p>
    </div>
  );
}
