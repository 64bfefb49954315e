import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { useQueryClient } from '@tanstack/react-query';
import { MATCHES_SCREEN as T } from '@versus/domain';
import { isWebGame } from '@versus/domain/catalogue';
import { useDocumentTitle } from '../../app/document-title.ts';
import { useTickingClock } from '../../app/clock.ts';
import { Card, cn } from '../../ui/index.ts';
import { LoadFailed, Loading } from '../../ui/QueryState.tsx';
import { useAuth } from '../auth/use-auth.ts';
import { FindAMatchButton } from '../challenges/FindAMatchButton.tsx';
import { DisputeCard } from './DisputeCard.tsx';
import { MatchCard } from './MatchCard.tsx';
import { tabOf, type MatchesTab } from './format.ts';
import { matchKeys, readyUp, useActiveMatches, useHistory, useMatchesLive, useMyDisputes } from './matches-api.ts';

const TABS: { id: MatchesTab; label: string }[] = [
  { id: 'active', label: T.tabActive },
  { id: 'history', label: T.tabHistory },
  { id: 'disputes', label: T.tabDisputes },
];

/** /matches (SPEC §2): tabs upcoming & active, history, disputes; highlight={id}, auto_ready=true. */
export default function MatchesPage() {
  useDocumentTitle(T.title);
  useMatchesLive();
  const { user, isVirtual } = useAuth();
  const [params, setParams] = useSearchParams();
  const tab = tabOf(params.get('tab'));
  const highlight = params.get('highlight');
  const now = useTickingClock();
  const active = useActiveMatches();
  const history = useHistory(tab === 'history');
  const disputes = useMyDisputes(tab === 'disputes');
  useAutoReady(highlight, params.get('auto_ready') === 'true', active.data);

  const select = (next: MatchesTab) => {
    const copy = new URLSearchParams(params);
    if (next === 'active') copy.delete('tab');
    else copy.set('tab', next);
    copy.delete('highlight');
    copy.delete('auto_ready');
    setParams(copy, { replace: true });
  };

  const current = tab === 'active' ? active : tab === 'history' ? history : disputes;
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-6 sm:py-12" data-testid="matches-page">
      <h1 className="text-3xl font-black sm:text-4xl">{T.title}</h1>
      <p className="mt-1 text-muted">{T.subtitle}</p>
      <div role="tablist" className="mt-6 flex gap-1 rounded-xl border border-border bg-surface p-1">
        {TABS.map((t) => (
          <button
            key={t.id}
            role="tab"
            type="button"
            aria-selected={tab === t.id}
            onClick={() => select(t.id)}
            className={cn(
              'min-h-10 flex-1 rounded-lg px-2 py-1.5 text-sm leading-tight font-bold transition sm:px-3 sm:whitespace-nowrap',
              tab === t.id ? 'bg-accent-solid text-accent-fg' : 'text-muted hover:text-fg',
            )}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className="mt-6 space-y-4">
        {current.isPending ? (
          <Loading />
        ) : current.isError ? (
          <LoadFailed
            message={current.error instanceof Error ? current.error.message : T.loadFailed}
            retryLabel={T.retry}
            onRetry={() => void current.refetch()}
          />
        ) : tab === 'disputes' ? (
          (disputes.data ?? []).length === 0 ? (
            <Empty text={T.emptyDisputes} />
          ) : (
            (disputes.data ?? []).map((d) => (
              <DisputeCard key={d.id} dispute={d} meId={user?.id ?? ''} highlighted={highlight === d.matchId || highlight === d.id} />
            ))
          )
        ) : (
          (() => {
            const list = (tab === 'active' ? active.data : history.data) ?? [];
            if (list.length === 0)
              return <Empty text={tab === 'history' ? T.emptyHistory : isVirtual ? T.emptyActiveVirtual : T.emptyActive} next />;
            return list.map((m) => (
              <MatchCard key={m.id} match={m} now={now} highlighted={highlight === m.id} history={tab === 'history'} />
            ));
          })()
        )}
      </div>
    </div>
  );
}

/** An empty tab: what to do next, and (`next`) a button to it. */
function Empty({ text, next = false }: { text: string; next?: boolean }) {
  return (
    <Card className="flex flex-col items-center gap-4 p-8 text-center text-muted" data-testid="matches-empty">
      <p>{text}</p>
      {next && <FindAMatchButton />}
    </Card>
  );
}

/** auto_ready=true with highlight={id}: say I am here for a web game, once. */
function useAutoReady(highlight: string | null, autoReady: boolean, matches: ReturnType<typeof useActiveMatches>['data']) {
  const client = useQueryClient();
  const done = useRef<string | null>(null);
  useEffect(() => {
    if (!autoReady || !highlight || !matches || done.current === highlight) return;
    const match = matches.find((m) => m.id === highlight);
    if (!match || !isWebGame(match.gameType) || match.ready[match.viewerSeat]) return;
    done.current = highlight;
    readyUp(match.id)
      .then(() => client.invalidateQueries({ queryKey: matchKeys.all }))
      .catch((failure: unknown) => toast.error(failure instanceof Error ? failure.message : String(failure)));
  }, [autoReady, highlight, matches, client]);
}
