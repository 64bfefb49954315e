// The marketplace's filters, kept in the address so a filtered view can be shared and survives a
// reload; also applied to challenges that arrive live.
import { isGameId, isPlatform, type GameId, type Platform } from '@versus/domain/catalogue';
import { SEARCH_MAX, isOpenForBrowsing, type Challenge, type ListChallengesQuery } from '@versus/domain/challenges';

export const STAKE_RANGES = ['any', 'casual', 'pro', 'elite'] as const;
export type StakeRange = (typeof STAKE_RANGES)[number];

/** SPEC §9's tiers as ranges: Casual up to 25, Pro up to 50, Elite above. */
export const STAKE_RANGE_BOUNDS: Record<StakeRange, { label: string; min?: number; max?: number }> = {
  any: { label: 'Any stake' },
  casual: { label: 'Casual · $1–25', min: 1, max: 25 },
  pro: { label: 'Pro · $26–50', min: 26, max: 50 },
  elite: { label: 'Elite · $51+', min: 51, max: 1000 },
};

export interface MarketFilters {
  game: GameId | null;
  platform: Platform | null;
  stake: StakeRange;
  search: string;
}

export const NO_FILTERS: MarketFilters = { game: null, platform: null, stake: 'any', search: '' };

/** The address keys the filters use; the rest (highlight, challenge, opponent) are left alone. */
export const FILTER_PARAMS = { game: 'game', platform: 'platform', stake: 'stake', search: 'q' } as const;

export function filtersFromParams(params: URLSearchParams): MarketFilters {
  const game = params.get(FILTER_PARAMS.game)?.toLowerCase() ?? '';
  const platform = params.get(FILTER_PARAMS.platform)?.toLowerCase() ?? '';
  const stake = params.get(FILTER_PARAMS.stake)?.toLowerCase() ?? '';
  return {
    game: isGameId(game) ? game : null,
    platform: isPlatform(platform) ? platform : null,
    stake: (STAKE_RANGES as readonly string[]).includes(stake) ? (stake as StakeRange) : 'any',
    search: (params.get(FILTER_PARAMS.search) ?? '').slice(0, SEARCH_MAX),
  };
}

/** A copy of `params` with the filters written in (defaults removed). */
export function withFilters(params: URLSearchParams, filters: MarketFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (key: string, value: string | null) => (value ? next.set(key, value) : next.delete(key));
  set(FILTER_PARAMS.game, filters.game);
  set(FILTER_PARAMS.platform, filters.platform);
  set(FILTER_PARAMS.stake, filters.stake === 'any' ? null : filters.stake);
  set(FILTER_PARAMS.search, filters.search.trim() ? filters.search : null);
  return next;
}

export const hasFilters = (filters: MarketFilters): boolean =>
  filters.game !== null || filters.platform !== null || filters.stake !== 'any' || filters.search.trim() !== '';

/** GET /api/challenges's query for these filters. */
export function toListQuery(filters: MarketFilters): ListChallengesQuery {
  const query: ListChallengesQuery = {};
  if (filters.game) query.game = filters.game;
  if (filters.platform) query.platform = filters.platform;
  const bounds = STAKE_RANGE_BOUNDS[filters.stake];
  if (bounds.min !== undefined) query.minStake = bounds.min;
  if (bounds.max !== undefined) query.maxStake = bounds.max;
  const search = filters.search.trim();
  if (search) query.search = search;
  return query;
}

/** The server's search, on the client: title, message, game name and creator, case-insensitive. */
export function matchesSearch(challenge: Challenge, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [challenge.title, challenge.description ?? '', challenge.gameName, challenge.game, challenge.creator.username].some((text) =>
    text.toLowerCase().includes(needle),
  );
}

export function matchesFilters(challenge: Challenge, filters: MarketFilters): boolean {
  if (filters.game && challenge.game !== filters.game) return false;
  if (filters.platform && challenge.platform !== filters.platform) return false;
  const bounds = STAKE_RANGE_BOUNDS[filters.stake];
  if (bounds.min !== undefined && challenge.stake < bounds.min) return false;
  if (bounds.max !== undefined && challenge.stake > bounds.max) return false;
  return matchesSearch(challenge, filters.search);
}

/** Newest first, as the server lists them. */
export function newestFirst(challenges: readonly Challenge[]): Challenge[] {
  return [...challenges].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id.localeCompare(a.id));
}

/** What the grid shows at `now`: open for browsing (SPEC §4), not removed by a live event. */
export function visibleChallenges(challenges: readonly Challenge[], gone: ReadonlySet<string>, now: Date): Challenge[] {
  return challenges.filter(
    (c) =>
      !gone.has(c.id) &&
      isOpenForBrowsing(
        { status: c.status, matchId: c.matchId, acceptedBy: c.acceptedBy, expiresAt: c.expiresAt ? new Date(c.expiresAt) : null },
        now,
      ),
  );
}
