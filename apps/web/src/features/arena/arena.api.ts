// The live arena's and spectator screen's calls and query keys; every match view also feeds the one
// server-time sync and lag estimate per tab.
import { arenaMatchListSchema, matchViewResponseSchema, type DrawRequest, type MatchView, type MoveRequest } from '@versus/domain/arena';
import { api } from '../../api/index.ts';
import { ClockSync } from './clock.ts';
import { LagEstimator, timed } from './lag.ts';

export type ViewMode = 'player' | 'spectator';

export const arenaKeys = {
  all: ['arena'] as const,
  list: ['arena', 'matches'] as const,
  match: (id: string, mode: ViewMode) => ['arena', 'match', id, mode] as const,
};

/** The server's time as this tab estimates it (clocks count down in server time). */
export const serverClock = new ClockSync();
/** The running round-trip estimate; a move reports half of it as its lag. */
export const lagEstimate = new LagEstimator();

const path = (id: string, action = '') => `/api/matches/${encodeURIComponent(id)}${action}`;

async function exchange(call: () => Promise<{ match: MatchView }>): Promise<MatchView> {
  const { match } = await timed(call, (sentAt, receivedAt, answer) => {
    serverClock.sample(sentAt, receivedAt, answer.match.serverNow);
    lagEstimate.sample(receivedAt - sentAt);
  });
  return match;
}

export const fetchActiveMatches = (signal?: AbortSignal) =>
  api.get('/api/arena/matches', arenaMatchListSchema, { signal }).then((r) => r.matches);

export const fetchMatch = (id: string, mode: ViewMode, signal?: AbortSignal) =>
  exchange(() => api.get(mode === 'player' ? path(id) : `/api/spectate/${encodeURIComponent(id)}`, matchViewResponseSchema, { signal }));

export const postReady = (id: string) => exchange(() => api.post(path(id, '/ready'), {}, matchViewResponseSchema));

export const postMove = (id: string, body: MoveRequest) => exchange(() => api.post(path(id, '/moves'), body, matchViewResponseSchema));

export const postResign = (id: string, version: number) =>
  exchange(() => api.post(path(id, '/resign'), { version }, matchViewResponseSchema));

export const postDraw = (id: string, body: DrawRequest) => exchange(() => api.post(path(id, '/draw'), body, matchViewResponseSchema));
