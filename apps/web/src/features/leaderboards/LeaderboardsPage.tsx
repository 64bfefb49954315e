import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ChevronLeft, ChevronRight, Crown, Flame, Gamepad2, Trophy } from 'lucide-react';
import { PROFILE } from '@versus/domain';
import { GAME_LIST } from '@versus/domain/catalogue';
import { LEADERBOARD_SCOPES, type LeaderboardEntry, type LeaderboardScope } from '@versus/domain/profile';
import { useDocumentTitle } from '../../app/document-title.ts';
import { initials } from '../../app/nav.ts';
import { Badge, Button, Card, cn } from '../../ui/index.ts';
import { LoadFailed, Loading } from '../../ui/QueryState.tsx';
import { useAuth } from '../auth/use-auth.ts';
import { useLeaderboard } from './leaderboards.api.ts';

const scopeOf = (value: string | null): LeaderboardScope =>
  value && (LEADERBOARD_SCOPES as readonly string[]).includes(value) ? (value as LeaderboardScope) : 'global';
const pageOf = (value: string | null): number => {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : 1;
};

/** /leaderboards: global and per-game rankings by rating, a page at a time, my own row pinned (SPEC §2, §6). */
export default function LeaderboardsPage() {
  useDocumentTitle(PROFILE.leaderboardsTitle);
  const { user, isVirtual } = useAuth();
  const [params, setParams] = useSearchParams();
  const game = scopeOf(params.get('game'));
  const page = pageOf(params.get('page'));
  const board = useLeaderboard(game, page, !isVirtual);

  const go = (next: { game?: LeaderboardScope; page?: number }) => {
    const copy = new URLSearchParams(params);
    const g = next.game ?? game;
    const p = next.page ?? (next.game ? 1 : page);
    if (g === 'global') copy.delete('game');
    else copy.set('game', g);
    if (p === 1) copy.delete('page');
    else copy.set('page', String(p));
    setParams(copy, { replace: true });
  };

  if (isVirtual) {
    return (
      <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-6 sm:py-12" data-testid="leaderboards-page">
        <h1 className="text-3xl font-black sm:text-4xl">{PROFILE.leaderboardsTitle}</h1>
        <Card className="mt-6 p-6 text-center" data-testid="leaderboards-virtual">
          <Trophy className="mx-auto size-10 text-vt" aria-hidden />
          <p className="mt-3 text-lg font-bold">{PROFILE.leaderboardsVirtual}</p>
          <p className="mt-1 text-sm text-muted">Rankings are for real accounts. Switch your account type in your profile to compete.</p>
          <Button asChild variant="secondary" className="mt-4">
            <Link to="/profile">Open profile settings</Link>
          </Button>
        </Card>
      </div>
    );
  }

  const data = board.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-6 sm:py-12" data-testid="leaderboards-page">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-black sm:text-4xl">{PROFILE.leaderboardsTitle}</h1>
          <p className="mt-1 text-muted">Ranked by rating. Equal ratings share a place.</p>
        </div>
        <label className="grid gap-1 text-xs font-semibold tracking-wide text-muted uppercase">
          Board
          <select
            className="h-10 min-w-44 rounded-xl border border-border bg-surface-2 px-3 text-sm font-semibold text-fg normal-case"
            value={game}
            onChange={(event) => go({ game: scopeOf(event.target.value) })}
            data-testid="board-select"
          >
            <option value="global">Global</option>
            {GAME_LIST.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        </label>
      </div>

      <section aria-label={PROFILE.yourPosition} className="mt-6" data-testid="my-position">
        <p className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">{PROFILE.yourPosition}</p>
        {data ? (
          data.me ? (
            <Row entry={data.me} me pinned />
          ) : (
            <Card className="p-4 text-sm text-muted">{PROFILE.notOnBoard}</Card>
          )
        ) : (
          <Card className="h-16 animate-pulse" aria-hidden />
        )}
      </section>

      <section aria-label={data?.title ?? 'Leaderboard'} className="mt-6">
        <div className="mb-2 flex items-center justify-between">
          <h2 className="flex items-center gap-2 text-lg font-black">
            <Crown className="size-5 text-warning" aria-hidden />
            {data?.title ?? (game === 'global' ? 'Global' : '')}
          </h2>
          {data && <p className="text-sm text-muted">{data.total} ranked</p>}
        </div>
        {board.isPending ? (
          <Loading />
        ) : board.isError ? (
          <LoadFailed
            message={board.error instanceof Error ? board.error.message : PROFILE.leaderboardsEmpty}
            retryLabel="Try again"
            onRetry={() => void board.refetch()}
          />
        ) : data && data.entries.length === 0 ? (
          <Card className="p-6 text-center text-muted">{data.total === 0 ? PROFILE.leaderboardsEmpty : 'No players on this page.'}</Card>
        ) : (
          <ol className={cn('grid gap-2 transition-opacity', board.isPlaceholderData && 'opacity-60')} data-testid="leaderboard">
            {(data?.entries ?? []).map((entry) => (
              <li key={entry.userId} className="min-w-0">
                <Row entry={entry} me={entry.userId === user?.id} />
              </li>
            ))}
          </ol>
        )}
        {data && pages > 1 && (
          <nav aria-label="Pages" className="mt-4 flex items-center justify-between gap-3">
            <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => go({ page: page - 1 })} data-testid="page-prev">
              <ChevronLeft className="size-4" aria-hidden />
              Previous
            </Button>
            <p className="text-sm text-muted" aria-live="polite">
              Page {page} of {pages}
            </p>
            <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => go({ page: page + 1 })} data-testid="page-next">
              Next
              <ChevronRight className="size-4" aria-hidden />
            </Button>
          </nav>
        )}
      </section>
    </div>
  );
}

function Row({ entry, me = false, pinned = false }: { entry: LeaderboardEntry; me?: boolean; pinned?: boolean }) {
  const podium = entry.position <= 3 ? ['text-warning', 'text-fg/80', 'text-accent-2'][entry.position - 1] : 'text-muted';
  return (
    <Card
      className={cn('flex min-w-0 items-center gap-3 p-3 sm:gap-4 sm:p-4', me && 'ring-2 ring-accent', pinned && 'shadow-glow')}
      data-testid={pinned ? 'my-row' : 'leaderboard-row'}
      data-user-id={entry.userId}
      aria-current={me && !pinned ? 'true' : undefined}
    >
      <span
        className={cn('w-9 shrink-0 text-center font-mono text-lg font-black tabular-nums sm:w-12 sm:text-xl', podium)}
        aria-label={`Place ${entry.position}`}
      >
        {entry.position}
      </span>
      {entry.avatar ? (
        <img src={entry.avatar} alt="" className="size-10 shrink-0 rounded-full object-cover ring-2 ring-accent/40" />
      ) : (
        <span
          aria-hidden
          className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-accent to-accent-2 text-xs font-black text-white"
        >
          {initials(entry.displayName)}
        </span>
      )}
      <div className="min-w-0 flex-1">
        <p className="flex items-center gap-2 truncate font-bold">
          <span className="truncate" data-testid="row-name">
            {entry.displayName}
          </span>
          {me && (
            <Badge tone="accent" className="hidden sm:inline-flex">
              You
            </Badge>
          )}
          {me && <span className="sr-only sm:hidden">(you)</span>}
        </p>
        <p className="truncate text-xs text-muted">
          @{entry.username} · Lv {entry.level}
        </p>
      </div>
      <dl className="hidden shrink-0 grid-cols-3 gap-4 text-center text-sm sm:grid">
        <Stat label="Wins" value={entry.wins} icon={<Trophy className="size-3.5" aria-hidden />} />
        <Stat label="Losses" value={entry.losses} />
        <Stat label="Streak" value={entry.streak} icon={<Flame className="size-3.5 text-warning" aria-hidden />} />
      </dl>
      <div className="shrink-0 text-right">
        <p className="font-mono text-lg font-black tabular-nums sm:text-xl" data-testid="row-rating">
          {entry.rating}
          {entry.provisional && (
            <span className="text-muted" title="Provisional rating">
              ?
            </span>
          )}
        </p>
        <p className="text-[0.7rem] text-muted sm:hidden">
          {entry.wins}W {entry.losses}L · <Flame className="inline size-3 text-warning" aria-label="Streak" /> {entry.streak}
        </p>
        <p className="hidden items-center justify-end gap-1 text-[0.7rem] text-muted sm:flex">
          <Gamepad2 className="size-3" aria-hidden />
          {entry.games}
        </p>
      </div>
    </Card>
  );
}

function Stat({ label, value, icon }: { label: string; value: number; icon?: ReactNode }) {
  return (
    <div className="min-w-10">
      <dt className="text-[0.65rem] font-semibold tracking-wide text-muted uppercase">{label}</dt>
      <dd className="flex items-center justify-center gap-1 font-mono font-bold tabular-nums">
        {icon}
        {value}
      </dd>
    </div>
  );
}
