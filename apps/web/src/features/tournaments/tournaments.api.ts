// The tournaments' reads and actions over the API; every change on the server is an event on
// tournament:{id} (or tournaments), which refetches these.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import {
  tournamentActionResponseSchema,
  tournamentListResponseSchema,
  tournamentResponseSchema,
  type CreateTournamentRequest,
  type TournamentDetail,
} from '@versus/domain/tournaments';
import { api } from '../../api/index.ts';
import { useTopicRefetch } from '../../realtime/index.ts';
import { listQuery, type ListFilters } from './tournaments.logic.ts';

export const tournamentKeys = {
  all: ['tournaments'] as const,
  list: (filters: ListFilters) => ['tournaments', 'list', filters] as const,
  one: (id: string) => ['tournaments', 'one', id] as const,
};

const REFETCH_ON = { types: ['tournament.updated'] };

export function useTournamentList(filters: ListFilters) {
  useTopicRefetch('tournaments', REFETCH_ON, [tournamentKeys.all]);
  return useQuery({
    queryKey: tournamentKeys.list(filters),
    queryFn: async ({ signal }) =>
      (await api.get(`/api/tournaments?${listQuery(filters)}`, tournamentListResponseSchema, { signal })).tournaments,
  });
}

export function useTournament(id: string) {
  useTopicRefetch(`tournament:${id}`, REFETCH_ON, [tournamentKeys.one(id)]);
  return useQuery({
    queryKey: tournamentKeys.one(id),
    queryFn: async ({ signal }) =>
      (await api.get(`/api/tournaments/${encodeURIComponent(id)}`, tournamentResponseSchema, { signal })).tournament,
  });
}

export type TournamentAction = 'join' | 'leave' | 'resume' | 'cancel';

/** Join, leave (a pause in a running arena), come back or cancel; the server's words as a toast either way. */
export function useTournamentAction(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: TournamentAction) =>
      api.post(`/api/tournaments/${encodeURIComponent(id)}/${action}`, undefined, tournamentActionResponseSchema),
    onSuccess: ({ tournament, message }) => {
      client.setQueryData<TournamentDetail>(tournamentKeys.one(id), tournament);
      void client.invalidateQueries({ queryKey: ['tournaments', 'list'] });
      toast.success(message);
    },
    onError: (error) => toast.error(error.message),
  });
}

export const createTournament = async (request: CreateTournamentRequest): Promise<TournamentDetail> =>
  (await api.post('/api/tournaments', request, tournamentResponseSchema)).tournament;
