import { useState } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Challenge } from '@versus/domain/challenges';
import { snapshotMayBeBehind, useRealtime } from '../../realtime/index.ts';
import { challengeKeys, fetchOpenChallenges } from '../challenges/challenges.api.ts';
import { toListQuery, type MarketFilters } from './filters.ts';
import { addToList, liveChange, removeFromList, replaceInList } from './live.ts';

const LIST_STALE_MS = 15_000;

/** Takes a challenge off every cached open list (it was accepted, cancelled or expired). */
export function removeEverywhere(queryClient: QueryClient, id: string): void {
  queryClient.setQueriesData<Challenge[]>({ queryKey: challengeKeys.openAll }, (list) => removeFromList(list, id));
}

/** Puts a fresher copy of a challenge (its views counted) into every cached open list. */
export function replaceEverywhere(queryClient: QueryClient, challenge: Challenge): void {
  queryClient.setQueriesData<Challenge[]>({ queryKey: challengeKeys.openAll }, (list) => replaceInList(list, challenge));
}

/** The open list kept live; `gone` covers a fetch already on its way when a challenge closed. */
export function useOpenChallenges(filters: MarketFilters) {
  const queryClient = useQueryClient();
  const query = toListQuery(filters);
  const key = challengeKeys.open(query);
  const [gone, setGone] = useState<ReadonlySet<string>>(() => new Set());
  const [fresh, setFresh] = useState<ReadonlySet<string>>(() => new Set());

  const list = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => fetchOpenChallenges(query, signal),
    staleTime: LIST_STALE_MS,
  });

  useRealtime('challenges', (update) => {
    if (snapshotMayBeBehind(update)) {
      void queryClient.invalidateQueries({ queryKey: challengeKeys.openAll });
      return;
    }
    if (update.kind !== 'event') return;
    const change = liveChange(update.type, update.payload, filters);
    switch (change.kind) {
      case 'add':
        queryClient.setQueryData<Challenge[]>(key, (current) => addToList(current, change.challenge));
        // Lists for other filters learn about it when they are next shown.
        void queryClient.invalidateQueries({ queryKey: challengeKeys.openAll, refetchType: 'none' });
        setFresh((current) => new Set(current).add(change.challenge.id));
        break;
      case 'remove':
        removeEverywhere(queryClient, change.id);
        setGone((current) => new Set(current).add(change.id));
        break;
      case 'refetch':
        void queryClient.invalidateQueries({ queryKey: challengeKeys.openAll });
        break;
      case 'none':
        break;
    }
  });

  const markGone = (id: string) => {
    removeEverywhere(queryClient, id);
    setGone((current) => new Set(current).add(id));
  };

  return { list, gone, fresh, markGone };
}
