import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { PlusCircle, RotateCcw, Repeat, Store, Trophy, X } from 'lucide-react';
import { MARKETPLACE, TOURNAMENT_VIEW, WIZARD } from '@versus/domain';
import { GAMES } from '@versus/domain/catalogue';
import type { Challenge } from '@versus/domain/challenges';
import { useDocumentTitle } from '../../app/document-title.ts';
import { useTickingClock } from '../../app/clock.ts';
import { useRealtimeStatus } from '../../realtime/index.ts';
import { Button, Spinner, cn } from '../../ui/index.ts';
import { useAuth } from '../auth/use-auth.ts';
import { useOpponent } from '../challenges/CreateChallengePage.tsx';
import { gameFromParam } from '../challenges/wizard.ts';
import { ChallengeCard } from './ChallengeCard.tsx';
import { ChallengeDialog, type ActiveChallenge, type DialogMode } from './ChallengeDialog.tsx';
import { CodeSearch } from './CodeSearch.tsx';
import { FiltersBar } from './FiltersBar.tsx';
import { filtersFromParams, hasFilters, visibleChallenges, withFilters, type MarketFilters } from './filters.ts';
import { useChallengeActions } from './use-challenge-actions.ts';
import { replaceEverywhere, useOpenChallenges } from './use-open-challenges.ts';

/** /marketplace (SPEC §2): open public challenges, newest first, live. Hidden in virtual mode. */
function MarketplacePage() {
  const { isVirtual } = useAuth();
  useEffect(() => {
    if (isVirtual) toast.info(MARKETPLACE.virtualHidden, { id: 'marketplace-virtual', description: MARKETPLACE.virtualHiddenDetail });
  }, [isVirtual]);
  if (isVirtual) return <Navigate to="/" replace />;
  return <Marketplace />;
}

export default MarketplacePage;

function Marketplace() {
  useDocumentTitle(MARKETPLACE.title);
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const paramsText = params.toString();
  const filters = useMemo(() => filtersFromParams(new URLSearchParams(paramsText)), [paramsText]);
  const nowMs = useTickingClock();
  const now = new Date(nowMs);
  const realtime = useRealtimeStatus();

  const { list, gone, fresh, markGone } = useOpenChallenges(filters);
  const challenges = visibleChallenges(list.data ?? [], gone, now);
  const actions = useChallengeActions({ onGone: markGone });

  // challenge={id} opens its dialog; the code search opens one without touching the address.
  const [active, setActive] = useState<ActiveChallenge | null>(null);
  const challengeParam = params.get('challenge');
  useEffect(() => {
    if (!challengeParam) {
      setActive((current) => (current && current.code === null ? null : current));
      return;
    }
    setActive((current) =>
      current?.id === challengeParam
        ? current
        : { id: challengeParam, mode: 'details', code: null, initial: findIn(list.data, challengeParam) },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the list is only a head start for the dialog, not a reason to reopen it.
  }, [challengeParam]);

  const setParam = useCallback(
    (key: string, value: string | null) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value === null) next.delete(key);
          else next.set(key, value);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const onFilters = useCallback(
    (next: MarketFilters) => setParams((current) => withFilters(current, next), { replace: true }),
    [setParams],
  );

  const open = (challenge: Challenge, mode: DialogMode) => {
    if (challenge.isPrivate) {
      setActive({ id: challenge.id, mode, code: challenge.code, initial: challenge });
      return;
    }
    setActive({ id: challenge.id, mode, code: null, initial: challenge });
    setParam('challenge', challenge.id);
  };
  const close = () => {
    setActive(null);
    // Always: the address may not show the challenge yet (its open is still navigating), and
    // would then reopen the dialog once it does.
    if (challengeParam || active?.code === null) setParam('challenge', null);
  };

  // highlight={id}: scroll to the card once it is there, and keep it marked.
  const highlight = params.get('highlight');
  const cardRefs = useRef(new Map<string, HTMLElement>());
  const scrolledTo = useRef<string | null>(null);
  const highlightShown = highlight !== null && challenges.some((c) => c.id === highlight);
  useEffect(() => {
    if (!highlight || !highlightShown || scrolledTo.current === highlight) return;
    scrolledTo.current = highlight;
    const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    cardRefs.current.get(highlight)?.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'center' });
  }, [highlight, highlightShown]);

  // Rematch: game={g}&opponent={id}.
  const opponentId = params.get('opponent');
  const rematchGame = gameFromParam(params.get('game'));

  const createHref = `/marketplace/create${filters.game ? `?game=${filters.game}` : ''}`;

  return (
    <div className="mx-auto w-full max-w-7xl px-3 pt-6 pb-16 sm:px-6 sm:pt-10 lg:px-8" data-testid="marketplace-page">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="flex items-center gap-3 text-3xl font-black sm:text-4xl">
            <Store className="size-8 text-accent-2" aria-hidden />
            {MARKETPLACE.title}
          </h1>
          <p className="mt-1 flex items-center gap-2 text-sm text-muted" aria-live="polite">
            <span
              aria-hidden
              className={cn('size-2 rounded-full', realtime === 'connected' ? 'bg-success motion-safe:animate-live-pulse' : 'bg-muted/50')}
            />
            <span data-testid="open-count">
              {list.isSuccess ? `${challenges.length} open challenge${challenges.length === 1 ? '' : 's'}` : 'Loading challenges…'}
            </span>
            <span className="hidden sm:inline">· {realtime === 'connected' ? 'updating live' : 'reconnecting…'}</span>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild size="lg" variant="secondary">
            <Link to="/tournaments" data-testid="marketplace-tournaments">
              <Trophy className="size-5" aria-hidden />
              {TOURNAMENT_VIEW.title}
            </Link>
          </Button>
          <Button asChild size="lg">
            <Link to={createHref}>
              <PlusCircle className="size-5" aria-hidden />
              Create Challenge
            </Link>
          </Button>
        </div>
      </div>

      {opponentId && (
        <RematchBanner
          opponentId={opponentId}
          game={rematchGame}
          onDismiss={() =>
            setParams(
              (current) => {
                const next = new URLSearchParams(current);
                next.delete('opponent');
                return next;
              },
              { replace: true },
            )
          }
        />
      )}

      <div className="glass mt-6 grid gap-4 rounded-2xl p-3 sm:p-4 lg:grid-cols-[minmax(0,1fr)_16rem] lg:items-end">
        <FiltersBar filters={filters} onChange={onFilters} />
        <CodeSearch onFound={(challenge, code) => setActive({ id: challenge.id, mode: 'details', code, initial: challenge })} />
      </div>

      <section aria-label="Open challenges" className="mt-6">
        {list.isPending ? (
          <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3" aria-busy="true">
            {Array.from({ length: 6 }, (_, i) => (
              <li key={i} className="glass h-72 animate-pulse rounded-2xl" />
            ))}
          </ul>
        ) : list.isError && challenges.length === 0 ? (
          <div role="alert" className="glass flex flex-col items-center gap-3 rounded-2xl px-6 py-12 text-center">
            <p className="font-bold">{MARKETPLACE.loadFailed}</p>
            <p className="text-sm text-muted">{list.error.message}</p>
            <Button variant="secondary" onClick={() => void list.refetch()}>
              <RotateCcw className="size-4" aria-hidden />
              Try again
            </Button>
          </div>
        ) : challenges.length === 0 ? (
          <div className="glass flex flex-col items-center gap-3 rounded-2xl px-6 py-14 text-center" data-testid="marketplace-empty">
            <Store className="size-10 text-muted" aria-hidden />
            <p className="font-bold">{hasFilters(filters) ? MARKETPLACE.noneMatch : MARKETPLACE.noneOpen}</p>
            <Button asChild>
              <Link to={createHref}>Create Challenge</Link>
            </Button>
          </div>
        ) : (
          <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3" data-testid="challenge-grid">
            {challenges.map((challenge) => (
              <li key={challenge.id} className="flex min-w-0">
                <ChallengeCard
                  ref={(el) => {
                    if (el) cardRefs.current.set(challenge.id, el);
                    else cardRefs.current.delete(challenge.id);
                  }}
                  challenge={challenge}
                  now={now}
                  own={challenge.creatorId === user?.id}
                  highlighted={challenge.id === highlight}
                  fresh={fresh.has(challenge.id)}
                  busy={actions.pending === challenge.id}
                  onDetails={() => open(challenge, 'details')}
                  onAccept={() => open(challenge, 'accept')}
                  onCancel={() => open(challenge, 'cancel')}
                />
              </li>
            ))}
          </ul>
        )}
        {list.isFetching && !list.isPending && (
          <p className="mt-3 flex items-center gap-2 text-xs text-muted">
            <Spinner className="size-3" /> Refreshing…
          </p>
        )}
      </section>

      <ChallengeDialog
        active={active}
        userId={user?.id ?? ''}
        now={now}
        pending={active !== null && actions.pending === active.id}
        onClose={close}
        onMode={(mode) => setActive((current) => current && { ...current, mode })}
        onViewed={(challenge) => replaceEverywhere(queryClient, challenge)}
        onAccept={(challenge, gamertag) =>
          void actions.accept(challenge, { code: active?.code, gamertag }).then((outcome) => {
            // 'matched' has moved on to the match already.
            if (outcome === 'joined' || outcome === 'gone') close();
          })
        }
        onCancel={(challenge) =>
          void actions.cancel(challenge).then((cancelled) => {
            if (cancelled) close();
          })
        }
      />
    </div>
  );
}

function findIn(list: Challenge[] | undefined, id: string): Challenge | null {
  return list?.find((c) => c.id === id) ?? null;
}

function RematchBanner({
  opponentId,
  game,
  onDismiss,
}: {
  opponentId: string;
  game: ReturnType<typeof gameFromParam>;
  onDismiss: () => void;
}) {
  const opponent = useOpponent(/^[0-9a-f-]{36}$/i.test(opponentId) ? opponentId : null);
  const name = opponent.data ? opponent.data.display_name || opponent.data.username : null;
  const href = `/marketplace/create?${new URLSearchParams({ ...(game ? { game } : {}), opponent: opponentId }).toString()}`;
  return (
    <div
      data-testid="rematch-banner"
      className="mt-5 flex flex-col gap-3 rounded-2xl border border-accent/40 bg-accent/10 p-4 sm:flex-row sm:items-center"
    >
      <Repeat className="hidden size-6 shrink-0 text-accent sm:block" aria-hidden />
      <div className="min-w-0 flex-1">
        <p className="font-bold">
          {opponent.isError ? 'Rematch: this player could not be found.' : WIZARD.rematchAgainst(name ?? '…')}
          {game && <span className="font-normal text-muted"> · {GAMES[game].name}</span>}
        </p>
        {opponent.data && (
          <p className="text-xs text-muted">
            {opponent.data.wins}W – {opponent.data.losses}L · streak {opponent.data.streak} · rank #{opponent.data.rank}
          </p>
        )}
      </div>
      <div className="flex gap-2">
        {!opponent.isError && (
          <Button asChild>
            <Link to={href}>Create rematch</Link>
          </Button>
        )}
        <Button variant="ghost" size="icon" onClick={onDismiss} aria-label="Dismiss rematch">
          <X className="size-5" aria-hidden />
        </Button>
      </div>
    </div>
  );
}
