// The leaderboards' one read: a page of a board with my own row.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { leaderboardSchema, type LeaderboardScope } from '@versus/domain/profile';
import { api } from '../../api/index.ts';

export const PAGE_SIZE = 20;

export const leaderboardKeys = {
  all: ['leaderboards'] as const,
  page: (game: LeaderboardScope, page: number) => ['leaderboards', game, page] as const,
};

export const useLeaderboard = (game: LeaderboardScope, page: number, enabled: boolean) =>
  useQuery({
    queryKey: leaderboardKeys.page(game, page),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 15_000,
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ game, page: String(page), pageSize: String(PAGE_SIZE) });
      return api.get(`/api/leaderboards?${query}`, leaderboardSchema, { signal });
    },
  });
