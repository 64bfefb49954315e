// The calls the marketplace and the wizard make to /api/challenges, and the query keys their
// data is cached under.
import { CHALLENGE, GENERIC } from '@versus/domain';
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
import { ApiError, api, errorFrom, parse } from '../../api/index.ts';
import { freshToken, refreshSession } from '../auth/session-store.ts';

export const challengeKeys = {
  all: ['challenges'] as const,
  open: (query: ListChallengesQuery) => ['challenges', 'open', query] as const,
  openAll: ['challenges', 'open'] as const,
  detail: (id: string) => ['challenges', 'detail', id] as const,
};

/**
 * Every wallet query starts with this (the header's ['wallet', 'balance', userId, ...] and the
 * wallet page's): invalidated after a stake is locked or released. The cache holds one player's
 * data at a time (it is cleared on sign-out).
 */
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

export const acceptChallenge = (id: string, body: { code?: string; gamertag?: string }) =>
  api.post(`/api/challenges/${encodeURIComponent(id)}/accept`, body, acceptChallengeResponseSchema);

export const cancelChallenge = (id: string) => api.post(`/api/challenges/${encodeURIComponent(id)}/cancel`, undefined, cancelChallengeResponseSchema);

const CREATE_TIMEOUT_MS = 20_000;

async function postCreate(request: CreateChallengeRequest, idempotencyKey: string, token: string): Promise<Response> {
  try {
    return await fetch('/api/challenges', {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'idempotency-key': idempotencyKey,
      },
      body: JSON.stringify(request),
      credentials: 'same-origin',
      signal: AbortSignal.timeout(CREATE_TIMEOUT_MS),
    });
  } catch (error) {
    if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      throw new ApiError(0, 'timeout', GENERIC.timeout);
    }
    throw new ApiError(0, 'network', GENERIC.network);
  }
}

/**
 * POST /api/challenges with an Idempotency-Key (the shared client sends no custom headers):
 * a retry with the same key returns the same challenge and locks nothing more. A 401 refreshes
 * the session once and tries again, as the shared client does.
 */
export async function createChallenge(request: CreateChallengeRequest, idempotencyKey: string): Promise<CreateChallengeResponse> {
  const token = await freshToken();
  if (!token) throw new ApiError(401, 'unauthenticated', CHALLENGE.signInToCreate);
  let response = await postCreate(request, idempotencyKey, token);
  if (response.status === 401) {
    const fresh = await refreshSession();
    if (!fresh) throw new ApiError(401, 'unauthenticated', CHALLENGE.signInToCreate);
    response = await postCreate(request, idempotencyKey, fresh);
  }
  if (!response.ok) throw await errorFrom(response);
  return parse(response, createChallengeResponseSchema);
}

/** A fresh key per launch; Retry reuses it. */
export function newIdempotencyKey(): string {
  return `wizard-${crypto.randomUUID()}`;
}
