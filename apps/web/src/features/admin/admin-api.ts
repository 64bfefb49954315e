// The admin screens' calls: the dashboard and the dispute queue, refreshed by the admin topic.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { dashboardSchema, disputeListSchema, resolveResponseSchema, type Dispute, type ResolutionOutcome } from '@versus/domain/results';
import { api } from '../../api/index.ts';
import { useRealtime } from '../../realtime/react.tsx';

export interface DisputeFilters {
  game?: string;
  minAgeMinutes?: number;
  minStake?: number;
  maxStake?: number;
  status?: 'open' | 'resolved' | 'all';
}

export const adminKeys = {
  all: ['admin'] as const,
  dashboard: ['admin', 'dashboard'] as const,
  disputes: (filters: DisputeFilters) => ['admin', 'disputes', filters] as const,
};

/** The query string of GET /api/admin/disputes (only the filters set). */
export function disputeQuery(filters: DisputeFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value !== undefined && value !== '' && !(typeof value === 'number' && Number.isNaN(value))) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const useDashboard = (enabled: boolean) =>
  useQuery({
    queryKey: adminKeys.dashboard,
    enabled,
    queryFn: () => api.get('/api/admin/dashboard', dashboardSchema),
    refetchInterval: 30_000,
  });

export const useAdminDisputes = (filters: DisputeFilters, enabled: boolean) =>
  useQuery({
    queryKey: adminKeys.disputes(filters),
    enabled,
    queryFn: () => api.get(`/api/admin/disputes${disputeQuery(filters)}`, disputeListSchema).then((r) => r.disputes),
  });

export const resolveDispute = (id: string, outcome: ResolutionOutcome, reason: string) =>
  api.post(`/api/admin/disputes/${encodeURIComponent(id)}/resolve`, { outcome, reason }, resolveResponseSchema);

/** Everything on the admin topic (and a gap, or the start of following it) refreshes the admin screens; a refused subscription does not. */
export function useAdminLive(enabled: boolean): void {
  const client = useQueryClient();
  useRealtime(enabled ? 'admin' : null, (update) => {
    if (update.kind !== 'error') void client.invalidateQueries({ queryKey: adminKeys.all });
  });
}

/** Whether `userId` may resolve `dispute`: an admin who played the match may not (the server refuses it too). */
export const playedIn = (dispute: Pick<Dispute, 'player1' | 'player2'>, userId: string | undefined): boolean =>
  userId !== undefined && (dispute.player1.id === userId || dispute.player2.id === userId);
