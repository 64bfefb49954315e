// /live-arena: my active matches and, with ?match={id}, that match's board (SPEC §2).
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Gamepad2 } from 'lucide-react';
import { LIVE_ARENA, SHELL } from '@versus/domain';
import { useDocumentTitle } from '../../app/document-title.ts';
import { Card, cn } from '../../ui/index.ts';
import { useTopicRefetch } from '../../realtime/index.ts';
import { useAuth } from '../auth/use-auth.ts';
import { arenaKeys, fetchActiveMatches } from './arena.api.ts';
import { matchQueryFn } from './use-live-match.ts';
import { preloadGameBoards, preloadLudoBoard } from './boards/index.ts';
import { MatchList } from './MatchList.tsx';
import { MatchScreen } from './MatchScreen.tsx';
import { PrivateRoomPanel } from '../rooms/PrivateRoomPanel.tsx';

/** SPEC §2: on /live-arena the game screens preload after 3 s and ludo 2 s after that. */
function usePreloadBoards() {
  useEffect(() => {
    const games = setTimeout(preloadGameBoards, SHELL.preloadArenaGamesMs);
    const ludo = setTimeout(preloadLudoBoard, SHELL.preloadArenaGamesMs + SHELL.preloadLudoAfterMs);
    return () => {
      clearTimeout(games);
      clearTimeout(ludo);
    };
  }, []);
}

/** A match or challenge event on my topic, or a gap, refreshes my list of matches. */
const LIST_REFETCH = { types: /^(match|challenge)\./ };
const LIST_KEYS = [arenaKeys.list];

export default function LiveArenaPage() {
  const [params] = useSearchParams();
  const matchId = params.get('match');
  const autoReady = params.get('auto_ready') === 'true';
  const { user, isVirtual } = useAuth();
  const title = isVirtual ? LIVE_ARENA.virtualTitle : LIVE_ARENA.title;
  useDocumentTitle(title);
  usePreloadBoards();

  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: arenaKeys.list, queryFn: ({ signal }) => fetchActiveMatches(signal), staleTime: 15_000 });
  // The open match is live on screen: its entry in the list follows it (turn, score, ready).
  const open = useQuery({
    queryKey: arenaKeys.match(matchId ?? '', 'player'),
    queryFn: matchQueryFn(queryClient, matchId ?? '', 'player'),
    enabled: false,
  }).data;
  const matches = list.data?.map((m) =>
    open && m.id === open.id
      ? {
          ...m,
          status: open.status,
          yourTurn: open.yourTurn,
          score: open.series.wins,
          ready: [open.players[0].ready, open.players[1].ready] as [boolean, boolean],
        }
      : m,
  );
  const noMatches = matches?.length === 0;
  // A match made, started or finished for this player changes the list.
  useTopicRefetch(user ? `user:${user.id}` : null, LIST_REFETCH, LIST_KEYS);

  return (
    <div className="mx-auto w-full max-w-7xl px-3 py-5 sm:px-6 sm:py-8 lg:px-8" data-testid="live-arena">
      {/* On a phone the match needs the room: the title is for screen readers there. */}
      <div className={cn('mb-4 flex items-center gap-3 sm:mb-6', matchId && 'max-sm:sr-only')}>
        <h1 className="text-2xl font-black tracking-tight sm:text-3xl">{title}</h1>
        {!isVirtual && <span className="size-2.5 animate-live-pulse rounded-full bg-danger" aria-hidden />}
      </div>
      <div className="grid gap-5 lg:grid-cols-[14rem_minmax(0,1fr)] lg:gap-8">
        <aside className={cn('min-w-0', matchId && 'order-last lg:order-none')}>
          <MatchList
            matches={matches}
            selected={matchId}
            loading={list.isPending}
            error={list.error ? list.error.message : null}
            onRetry={() => void list.refetch()}
          />
          <PrivateRoomPanel className="mt-5" />
        </aside>
        <section className="min-w-0" aria-label="Match">
          {matchId ? (
            <MatchScreen key={matchId} matchId={matchId} mode="player" autoReady={autoReady} />
          ) : (
            // With no match at all, "choose a match" would point at nothing; on a phone the box is dropped.
            <Card
              className={cn(
                'flex min-h-64 flex-col items-center justify-center gap-3 p-8 text-center text-muted',
                noMatches && 'max-lg:hidden',
              )}
            >
              <Gamepad2 className="size-10 text-accent" aria-hidden />
              <p>{noMatches ? LIVE_ARENA.boardWaiting : LIVE_ARENA.chooseMatch}</p>
            </Card>
          )}
        </section>
      </div>
    </div>
  );
}
