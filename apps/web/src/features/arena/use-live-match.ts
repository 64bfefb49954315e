// One match kept live: fetched, then stepped by `match:{id}` events; moves go over the socket while
// connected, the rest over HTTP.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ARENA, GENERIC, LIVE_ARENA } from '@versus/domain';
import type { DrawRequest, MatchView, PlayerJoinedEvent } from '@versus/domain/arena';
import type { DecidedOutcome } from '@versus/domain/games/game';
import { ApiError } from '../../api/index.ts';
import {
  MoveUnanswered,
  SocketUnavailable,
  snapshotMayBeBehind,
  useRealtime,
  useRealtimeClient,
  useRealtimeStatus,
  type MoveAnswer,
} from '../../realtime/index.ts';
import { useAuth } from '../auth/use-auth.ts';
import { walletKeys } from '../wallet/use-balance.ts';
import { useMatchPresence } from './use-match-presence.ts';
import { arenaKeys, fetchMatch, lagEstimate, postDraw, postMove, postReady, postResign, type ViewMode } from './arena.api.ts';
import { playerName } from './format.ts';
import { applyMatchEvent, fetchNewer, needsRefetch, newerView, readMatchEvent } from './match-sync.ts';

/** A game of the series that just ended, shown for a few seconds while the next one starts. */
export interface FinishedGame {
  index: number;
  outcome: DecidedOutcome;
  /** Its final position as a spectator sees it (from the event), when known. */
  view: unknown;
}

const FINISHED_SHOWN_MS = 6_000;
const POLL_MS = 3_000;
/** How long a socket move waits for its event before fetching the match instead. */
const MOVE_EVENT_WAIT_MS = 2_000;
/** What a realtime topic id may hold; anything else is no match of ours (and no topic). */
const TOPIC_ID = /^[A-Za-z0-9_.-]{1,120}$/;
const NO_RETRY = new Set([401, 403, 404]);
/** ?auto_ready=true: how many times the arrival ready is tried, and the wait before a retry (× the tries so far). */
const AUTO_READY_TRIES = 3;
const AUTO_READY_RETRY_MS = 1_000;

export const isWaiting = (view: Pick<MatchView, 'status'>): boolean => view.status === 'pending' || view.status === 'accepted';
export const isOverStatus = (view: Pick<MatchView, 'status'>): boolean => view.status === 'completed' || view.status === 'cancelled';

/** The match query's fetch for every observer of its key: one with a plain fetch let a refetch undo an event applied meanwhile. */
export const matchQueryFn =
  (client: QueryClient, matchId: string, mode: ViewMode) =>
  ({ signal }: { signal: AbortSignal }): Promise<MatchView> =>
    fetchNewer(
      () => client.getQueryData<MatchView>(arenaKeys.match(matchId, mode)),
      () => fetchMatch(matchId, mode, signal),
    );

export function useLiveMatch(matchId: string, mode: ViewMode, options: { autoReady?: boolean } = {}) {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const key = useMemo(() => arenaKeys.match(matchId, mode), [matchId, mode]);

  // Without the socket (reconnecting, or blocked by a proxy) a match being played is polled instead.
  const connected = useRealtimeStatus() === 'connected';
  const query = useQuery({
    queryKey: key,
    queryFn: matchQueryFn(queryClient, matchId, mode),
    retry: (count, error) => count < 2 && !(error instanceof ApiError && NO_RETRY.has(error.status)),
    staleTime: 10_000,
    refetchInterval: (q) => (!connected && q.state.data && !isOverStatus(q.state.data) ? POLL_MS : false),
  });
  const view = query.data;

  const refetch = useCallback(() => void queryClient.invalidateQueries({ queryKey: key, exact: true }), [queryClient, key]);
  const apply = useCallback(
    (fresh: MatchView) => queryClient.setQueryData<MatchView>(key, (current) => newerView(current, fresh)),
    [queryClient, key],
  );

  // ---- the game that just ended ----------------------------------------------------------
  const [finished, setFinished] = useState<FinishedGame | null>(null);
  const showFinished = useCallback((next: FinishedGame) => {
    setFinished((shown) => (shown && shown.index === next.index && shown.view !== null ? shown : next));
  }, []);
  useEffect(() => {
    if (!finished) return;
    const timer = setTimeout(() => setFinished(null), FINISHED_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [finished]);
  // A game that ended by this player's own move (the answer came before the event) or while away.
  const played = useRef<number | null>(null);
  useEffect(() => {
    if (!view) return;
    const before = played.current;
    played.current = view.series.played;
    if (before === null || view.series.played <= before) return;
    const last = view.series.games.filter((g) => g.outcome !== null).at(-1);
    if (last?.outcome) showFinished({ index: last.index, outcome: last.outcome, view: null });
  }, [view, showFinished]);

  // ---- live events -----------------------------------------------------------------------
  const topicId = TOPIC_ID.test(matchId) ? matchId : null;
  const isHere = useMatchPresence(topicId);
  useRealtime(topicId && `match:${topicId}`, (update) => {
    if (snapshotMayBeBehind(update)) return refetch();
    if (update.kind !== 'event') return;
    const event = readMatchEvent(update.payload);
    if (!event || event.matchId.toLowerCase() !== matchId.toLowerCase()) return;
    const over = event.gameOver;
    if (over?.summary.outcome) showFinished({ index: over.summary.index, outcome: over.summary.outcome, view: over.view });
    const current = queryClient.getQueryData<MatchView>(key);
    if (!current) return refetch();
    const result = applyMatchEvent(current, { ...event, matchId: current.id });
    if (result.kind === 'gap') return refetch();
    if (result.kind !== 'applied') return;
    queryClient.setQueryData(key, result.view);
    if (needsRefetch(current, event, update.type)) refetch();
  });

  useRealtime(mode === 'player' && topicId ? `arena-join:${topicId}` : null, (update) => {
    if (update.kind !== 'event' || update.type !== 'player_joined') return;
    const joined = update.payload as Partial<PlayerJoinedEvent>;
    if (!joined.userId || joined.userId === user?.id) return;
    const current = queryClient.getQueryData<MatchView>(key);
    // Heard late (a reconnect's catch-up) when the match is already over: no longer news.
    if (current && isOverStatus(current)) return;
    const name =
      joined.username ?? (current && (joined.seat === 0 || joined.seat === 1) ? playerName(current.players[joined.seat]) : 'Your opponent');
    // SPEC §9: the opponent-ready toast stays until dismissed.
    toast.success(ARENA.opponentJoined, {
      id: `joined:${matchId}`,
      description: LIVE_ARENA.playerJoined(name),
      duration: Number.POSITIVE_INFINITY,
      closeButton: true,
    });
  });

  // ---- the end of the match: balances and the list change ---------------------------------
  const wasOver = useRef<boolean | null>(null);
  useEffect(() => {
    if (!view) return;
    const over = isOverStatus(view);
    if (wasOver.current === false && over) {
      if (user) void queryClient.invalidateQueries({ queryKey: walletKeys.all(user.id) });
      void queryClient.invalidateQueries({ queryKey: arenaKeys.list });
    }
    wasOver.current = over;
  }, [view, user, queryClient]);

  // ---- actions -----------------------------------------------------------------------------
  const [sending, setSending] = useState(false);
  const busy = useRef(false);

  const act = useCallback(
    async (call: (current: MatchView) => Promise<MatchView>): Promise<boolean> => {
      const current = queryClient.getQueryData<MatchView>(key);
      if (!current || busy.current) return false;
      busy.current = true;
      setSending(true);
      try {
        apply(await call(current));
        return true;
      } catch (error) {
        toast.error(error instanceof Error && error.message ? error.message : GENERIC.other);
        // A stale version, a move out of turn, a match that changed: show the server's state.
        if (error instanceof ApiError && (error.status === 409 || error.status === 400)) refetch();
        return false;
      } finally {
        busy.current = false;
        setSending(false);
      }
    },
    [queryClient, key, apply, refetch],
  );

  // A socket move is answered by `moved`; the new state arrives as the match's event. The view
  // at (or after) the answered version: from the cache once the event is in, else fetched.
  const viewAtLeast = useCallback(
    (version: number): Promise<MatchView> =>
      new Promise<MatchView>((resolve, reject) => {
        const cached = () => {
          const current = queryClient.getQueryData<MatchView>(key);
          return current && current.version >= version ? current : undefined;
        };
        const now = cached();
        if (now) return resolve(now);
        const done = () => {
          unsubscribe();
          clearTimeout(timer);
        };
        const unsubscribe = queryClient.getQueryCache().subscribe(() => {
          const found = cached();
          if (!found) return;
          done();
          resolve(found);
        });
        const timer = setTimeout(() => {
          done();
          fetchMatch(matchId, mode).then(resolve, reject);
        }, MOVE_EVENT_WAIT_MS);
      }),
    [queryClient, key, matchId, mode],
  );

  const realtime = useRealtimeClient();
  const move = useCallback(
    (input: unknown, opts: { premove?: boolean } = {}) =>
      act(async (current) => {
        const body = { move: input, version: current.version, lagMs: lagEstimate.lagMs(), ...(opts.premove ? { premove: true } : {}) };
        if (mode !== 'player') return postMove(matchId, body);
        let answer: MoveAnswer;
        try {
          answer = await realtime.sendMove({ matchId, ...body });
        } catch (error) {
          // Not sent at all: HTTP instead. Sent but unanswered: the server's state tells.
          if (error instanceof SocketUnavailable) return postMove(matchId, body);
          if (error instanceof MoveUnanswered) throw new ApiError(409, 'move_unconfirmed', ARENA.moveUnconfirmed);
          throw error;
        }
        if (!answer.ok) throw new ApiError(answer.status ?? 400, answer.code ?? 'move_refused', answer.message ?? GENERIC.other);
        return viewAtLeast(answer.version ?? current.version + 1);
      }),
    [act, matchId, mode, realtime, viewAtLeast],
  );
  const ready = useCallback(() => act(() => postReady(matchId)), [act, matchId]);
  const resign = useCallback(() => act((current) => postResign(matchId, current.version)), [act, matchId]);
  const draw = useCallback(
    (action: DrawRequest['action']) => act((current) => postDraw(matchId, { action, version: current.version })),
    [act, matchId],
  );

  // ?auto_ready=true: ready on arrival. A ready that did not go through (another action was in
  // flight, the network or the server failed) is tried again a little later, a few times.
  const autoReadied = useRef<{ matchId: string; tries: number; pending: boolean } | null>(null);
  const [autoReadyRetry, setAutoReadyRetry] = useState(0);
  useEffect(() => {
    if (!options.autoReady || mode !== 'player' || !view || view.viewerSeat === null) return;
    if (!isWaiting(view) || view.players[view.viewerSeat].ready) return;
    const attempt = autoReadied.current?.matchId === matchId ? autoReadied.current : { matchId, tries: 0, pending: false };
    autoReadied.current = attempt;
    if (attempt.pending || attempt.tries >= AUTO_READY_TRIES) return;
    attempt.tries++;
    attempt.pending = true;
    void ready().then((done) => {
      attempt.pending = false;
      if (!done) setTimeout(() => setAutoReadyRetry((n) => n + 1), AUTO_READY_RETRY_MS * attempt.tries);
    });
  }, [options.autoReady, mode, view, matchId, ready, autoReadyRetry]);

  return { view, query, refetch, finished, sending, move, ready, resign, draw, isHere };
}

export type LiveMatch = ReturnType<typeof useLiveMatch>;
