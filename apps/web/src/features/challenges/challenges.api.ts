// The calls the marketplace and the wizard make to /api/challenges, and the query keys their
// data is cached under.
import {
  acceptChallengeResponseSchema,
  cancelChallengeResponseSchema,
  challengeListSchema,
  challengeResponseSchema,
  createChallengeResponseSchema,
  type CreateChallengeRequest,
  type CreateChallengeResponse,
  type ListChallengesQuery,
} from '@versus/domain/challenges';
import { ApiError, api } from '../../api/index.ts';

export const challengeKeys = {
  all: ['challenges'] as const,
  open: (query: ListChallengesQuery) => ['challenges', 'open', query] as const,
  openAll: ['challenges', 'open'] as const,
  detail: (id: string) => ['challenges', 'detail', id] as const,
};

/** Every wallet query's prefix, invalidated after a stake is locked or released (the cache is cleared on sign-out). */
export const WALLET_KEY = ['wallet'] as const;

export function listQueryString(query: ListChallengesQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const fetchOpenChallenges = (query: ListChallengesQuery, signal?: AbortSignal) =>
  api.get(`/api/challenges${listQueryString(query)}`, challengeListSchema, { signal }).then((r) => r.challenges);

/** One challenge (the server counts a view). */
export const fetchChallenge = (id: string, signal?: AbortSignal) =>
  api.get(`/api/challenges/${encodeURIComponent(id)}`, challengeResponseSchema, { signal }).then((r) => r.challenge);

export const findChallengeByCode = (code: string) =>
  api.get(`/api/challenges/code/${encodeURIComponent(code)}`, challengeResponseSchema).then((r) => r.challenge);

/** Kept while an accept is in doubt, so retrying a pool join the server did take is answered as that join. */
const acceptKeys = new Map<string, string>();

export async function acceptChallenge(id: string, body: { code?: string; gamertag?: string }) {
  const key = acceptKeys.get(id) ?? crypto.randomUUID();
  acceptKeys.set(id, key);
  try {
    const result = await api.post(`/api/challenges/${encodeURIComponent(id)}/accept`, body, acceptChallengeResponseSchema, {
      idempotencyKey: key,
    });
    acceptKeys.delete(id);
    return result;
  } catch (error) {
    // No answer, or a gateway's (a 5xx): the server may have taken it, so the retry keeps the key.
    if (!(error instanceof ApiError && (error.status === 0 || error.status >= 500))) acceptKeys.delete(id);
    throw error;
  }
}

export const cancelChallenge = (id: string) =>
  api.post(`/api/challenges/${encodeURIComponent(id)}/cancel`, undefined, cancelChallengeResponseSchema);

const CREATE_TIMEOUT_MS = 20_000;

/** A retry with the same Idempotency-Key returns the same challenge and locks nothing more. */
export function createChallenge(request: CreateChallengeRequest, idempotencyKey: string): Promise<CreateChallengeResponse> {
  return api.post('/api/challenges', request, createChallengeResponseSchema, { idempotencyKey, timeoutMs: CREATE_TIMEOUT_MS });
}

/** A fresh key per launch; Retry reuses it. */
export function newIdempotencyKey(): string {
  return `wizard-${crypto.randomUUID()}`;
}
