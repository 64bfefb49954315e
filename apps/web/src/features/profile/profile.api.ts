// The profile screen's calls: my stats, avatar upload and removal, a finished match's replay.
import { useQuery } from '@tanstack/react-query';
import { AUTH, GENERIC, userResponseSchema, type User } from '@versus/domain';
import { replaySchema } from '@versus/domain/arena';
import { myProfileSchema } from '@versus/domain/profile';
import { api, ApiError, errorFrom, parse } from '../../api/index.ts';
import { freshToken, refreshSession, updateUser } from '../auth/session-store.ts';

export const profileKeys = {
  mine: (userId: string) => ['profile', userId] as const,
  replay: (matchId: string) => ['profile', 'replay', matchId] as const,
};

export const useMyProfile = (userId: string | null) =>
  useQuery({
    queryKey: profileKeys.mine(userId ?? ''),
    enabled: userId !== null,
    queryFn: ({ signal }) => api.get('/api/profile', myProfileSchema, { signal }),
  });

export const useReplay = (matchId: string | null) =>
  useQuery({
    queryKey: profileKeys.replay(matchId ?? ''),
    enabled: matchId !== null,
    staleTime: Infinity,
    queryFn: ({ signal }) => api.get(`/api/matches/${encodeURIComponent(matchId ?? '')}/replay`, replaySchema, { signal }),
  });

async function putAvatar(userId: string, file: File, token: string | null): Promise<Response> {
  const form = new FormData();
  form.append('avatar', file);
  try {
    return await fetch(`/api/profiles/${encodeURIComponent(userId)}/avatar`, {
      method: 'PUT',
      body: form,
      credentials: 'same-origin',
      headers: token ? { authorization: `Bearer ${token}`, accept: 'application/json' } : { accept: 'application/json' },
    });
  } catch (error) {
    console.warn('Avatar upload failed to reach the server', error);
    throw new ApiError(0, 'network', GENERIC.network);
  }
}

/** Multipart, so not through the JSON helper; re-reads the user after, so the header shows the new image. */
export async function uploadAvatar(userId: string, file: File): Promise<User> {
  let response = await putAvatar(userId, file, await freshToken());
  if (response.status === 401) {
    const token = await refreshSession();
    if (!token) throw new ApiError(401, 'session_expired', AUTH.authFailedExpired);
    response = await putAvatar(userId, file, token);
  }
  if (!response.ok) throw await errorFrom(response);
  await parse(response, userResponseSchema);
  // An empty change answers the stored user and puts it in the session store.
  return updateUser({});
}

export async function removeAvatar(userId: string): Promise<User> {
  await api.delete(`/api/profiles/${encodeURIComponent(userId)}/avatar`);
  return updateUser({});
}
