// The verification screen's calls and the admin review queue's, refreshed by their topics.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  platformAccount,
  queueResponseSchema,
  reviewResponseSchema,
  verificationStateSchema,
  type IdentityRequest,
  type LinkedGamertag,
  type VerificationStatus,
  type VerifyPlatform,
} from '@versus/domain/verification';
import { api } from '../../api/index.ts';
import { useTopicRefetch, type RefetchOn } from '../../realtime/use-topic-refetch.ts';
import { useAuth } from '../auth/use-auth.ts';

export const verificationKeys = {
  all: ['verification'] as const,
  mine: ['verification', 'mine'] as const,
  queue: (status: VerificationStatus | 'all') => ['verification', 'queue', status] as const,
};

export const useVerification = (enabled = true) =>
  useQuery({
    queryKey: verificationKeys.mine,
    enabled,
    queryFn: ({ signal }) => api.get('/api/verification', verificationStateSchema, { signal }),
  });

/** On my topic: my reviews (verification.updated) or a gap refresh my state. */
export const MINE_REFETCH: RefetchOn = { types: ['verification.updated'] };
/** On the admin topic: any verification.* event (new and reviewed requests) or a gap refreshes the queue. */
export const QUEUE_REFETCH: RefetchOn = { types: /^verification\./ };
const MINE_KEYS = [verificationKeys.mine];
const QUEUE_KEYS = [['verification', 'queue']];

/** My reviews come back on my topic. */
export function useVerificationLive(): void {
  const { user } = useAuth();
  useTopicRefetch(user ? `user:${user.id}` : null, MINE_REFETCH, MINE_KEYS);
}

function useRefreshing<T>(fn: (input: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => client.invalidateQueries({ queryKey: verificationKeys.all }) });
}

export const useLinkGamertag = () =>
  useRefreshing(({ platform, gamertag }: { platform: VerifyPlatform; gamertag: string }) =>
    api.put(`/api/verification/gamertags/${platform}`, { gamertag }, verificationStateSchema),
  );
export const useUnlinkGamertag = () => useRefreshing((platform: VerifyPlatform) => api.delete(`/api/verification/gamertags/${platform}`));
export const useRequestIdentity = () =>
  useRefreshing((input: IdentityRequest) => api.post('/api/verification/identity', input, verificationStateSchema));

export const useVerificationQueue = (status: VerificationStatus | 'all', enabled: boolean) =>
  useQuery({
    queryKey: verificationKeys.queue(status),
    enabled,
    queryFn: ({ signal }) => api.get(`/api/admin/verification?status=${status}`, queueResponseSchema, { signal }).then((r) => r.requests),
  });

export const useReview = () =>
  useRefreshing(({ id, decision, reason }: { id: string; decision: 'approve' | 'reject'; reason?: string }) =>
    api.post(`/api/admin/verification/${encodeURIComponent(id)}/${decision}`, reason ? { reason } : {}, reviewResponseSchema),
  );

/** The admin topic carries new and reviewed requests. */
export function useQueueLive(enabled: boolean): void {
  useTopicRefetch(enabled ? 'admin' : null, QUEUE_REFETCH, QUEUE_KEYS);
}

/** The wizard's gamertag for a platform from my linked accounts (pc uses Steam), or null. */
export function gamertagFor(platform: string | null | undefined, linked: readonly LinkedGamertag[] | undefined): string | null {
  const account = platformAccount(platform);
  if (!account || !linked) return null;
  return linked.find((g) => g.platform === account)?.gamertag ?? null;
}
