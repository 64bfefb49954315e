// The social screen's calls, refreshed by `social.changed` on my user topic and every 30 s (a
// friend going offline is not announced: presence simply ages out).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { linkResponseSchema, okResponseSchema, searchResponseSchema, socialOverviewSchema } from '@versus/domain/social';
import { api } from '../../api/index.ts';
import { useTopicRefetch } from '../../realtime/use-topic-refetch.ts';
import { useAuth } from '../auth/use-auth.ts';

export const socialKeys = {
  all: ['social'] as const,
  overview: ['social', 'overview'] as const,
  search: (q: string) => ['social', 'search', q] as const,
};

const PRESENCE_REFRESH_MS = 30_000;

export const useSocialOverview = () =>
  useQuery({
    queryKey: socialKeys.overview,
    queryFn: ({ signal }) => api.get('/api/social', socialOverviewSchema, { signal }),
    refetchInterval: PRESENCE_REFRESH_MS,
  });

export const useSearchPlayers = (q: string) =>
  useQuery({
    queryKey: socialKeys.search(q),
    enabled: q.length >= 2,
    queryFn: ({ signal }) =>
      api.get(`/api/social/search?q=${encodeURIComponent(q)}`, searchResponseSchema, { signal }).then((r) => r.players),
    staleTime: 5_000,
  });

/** Everything social on my topic refreshes the lists. */
export function useSocialLive(): void {
  const { user } = useAuth();
  useTopicRefetch(user ? `user:${user.id}` : null, { types: ['social.changed'] }, [socialKeys.all]);
}

export type SocialAction =
  | { kind: 'friend'; userId: string }
  | { kind: 'follow'; userId: string }
  | { kind: 'accept' | 'decline' | 'cancel'; requestId: string }
  | { kind: 'unfriend' | 'unfollow' | 'removeFollower'; userId: string };

export function runAction(action: SocialAction): Promise<unknown> {
  switch (action.kind) {
    case 'friend':
      return api.post('/api/social/friends', { userId: action.userId }, linkResponseSchema);
    case 'follow':
      return api.post('/api/social/follows', { userId: action.userId }, linkResponseSchema);
    case 'accept':
      return api.post(`/api/social/requests/${action.requestId}/accept`, {}, linkResponseSchema);
    case 'decline':
    case 'cancel':
      return api.post(`/api/social/requests/${action.requestId}/${action.kind}`, {}, okResponseSchema);
    case 'unfriend':
      return api.delete(`/api/social/friends/${action.userId}`);
    case 'unfollow':
      return api.delete(`/api/social/follows/${action.userId}`);
    case 'removeFollower':
      return api.delete(`/api/social/followers/${action.userId}`);
  }
}

export function useSocialAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: runAction,
    onSettled: () => client.invalidateQueries({ queryKey: socialKeys.all }),
  });
}
