// The calls /matches and the admin screens make, as react-query hooks and plain helpers.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { arenaMatchListSchema } from '@versus/domain/arena';
import {
  chatListSchema,
  chatMessageSchema,
  disputeListSchema,
  playNowResponseSchema,
  resultStateSchema,
  type ChatMessage,
} from '@versus/domain/results';
import { api } from '../../api/index.ts';
import { useProtectedObjectUrl } from '../../api/object-url.ts';
import { useRealtime } from '../../realtime/react.tsx';
import { useTopicRefetch } from '../../realtime/use-topic-refetch.ts';
import { postForm } from '../auth/post-form.ts';
import { useAuth } from '../auth/use-auth.ts';

export const matchKeys = {
  all: ['matches'] as const,
  active: ['matches', 'active'] as const,
  history: ['matches', 'history'] as const,
  disputes: ['matches', 'disputes'] as const,
  result: (id: string) => ['matches', 'result', id] as const,
  chat: (id: string) => ['matches', 'chat', id] as const,
};

export const useActiveMatches = () =>
  useQuery({ queryKey: matchKeys.active, queryFn: () => api.get('/api/arena/matches', arenaMatchListSchema).then((r) => r.matches) });
export const useHistory = (enabled: boolean) =>
  useQuery({
    queryKey: matchKeys.history,
    enabled,
    queryFn: () => api.get('/api/matches?status=history', arenaMatchListSchema).then((r) => r.matches),
  });
export const useMyDisputes = (enabled: boolean) =>
  useQuery({ queryKey: matchKeys.disputes, enabled, queryFn: () => api.get('/api/disputes', disputeListSchema).then((r) => r.disputes) });
export const useResultState = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: matchKeys.result(id),
    enabled,
    queryFn: () => api.get(`/api/matches/${encodeURIComponent(id)}/result`, resultStateSchema),
  });

/** Every match event on my user topic refreshes what /matches shows (and the balance). */
export function useMatchesLive(): void {
  const { user } = useAuth();
  useTopicRefetch(user ? `user:${user.id}` : null, { types: /^(match|dispute)\./ }, [matchKeys.all, ['wallet']]);
}

/** The match chat: the list, live on match-chat:{id}. */
export function useMatchChat(matchId: string | null): ChatMessage[] | undefined {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: matchKeys.chat(matchId ?? ''),
    enabled: matchId !== null,
    queryFn: () => api.get(`/api/matches/${encodeURIComponent(matchId ?? '')}/chat`, chatListSchema).then((r) => r.messages),
  });
  useRealtime(matchId ? `match-chat:${matchId}` : null, (update) => {
    if (update.kind === 'event') {
      const parsed = chatMessageSchema.safeParse(update.payload);
      if (parsed.success) {
        client.setQueryData<ChatMessage[]>(matchKeys.chat(parsed.data.matchId), (old = []) =>
          old.some((m) => m.id === parsed.data.id) ? old : [...old, parsed.data],
        );
        return;
      }
    }
    void client.invalidateQueries({ queryKey: matchKeys.chat(matchId ?? '') });
  });
  return query.data;
}

export const sendChat = (matchId: string, body: string) =>
  api.post(`/api/matches/${encodeURIComponent(matchId)}/chat`, { body }, chatMessageSchema);

/** POST a form (fields and an optional `evidence` image) with the bearer token; a refusal throws the server's message. */
export async function postEvidenceForm(path: string, fields: Record<string, string>, evidence: File | null): Promise<unknown> {
  const response = await postForm(path, fields, evidence ? { field: 'evidence', blob: evidence } : null);
  return response.json() as Promise<unknown>;
}

const okSchema = z.object({ ok: z.literal(true) });
export const claimNoShow = (id: string) =>
  api.post(`/api/matches/${encodeURIComponent(id)}/no-show`, {}, z.object({ deadline: z.string() }));
export const answerNoShow = (id: string) => api.post(`/api/matches/${encodeURIComponent(id)}/no-show/answer`, {}, okSchema);
export const readyUp = (id: string) => api.post(`/api/matches/${encodeURIComponent(id)}/ready`, {}, z.unknown());
/** An external game: ready to play now (both ready: it starts at once). */
export const playNow = (id: string) => api.post(`/api/matches/${encodeURIComponent(id)}/play-now`, {}, playNowResponseSchema);

/** Evidence (bearer-protected) as an object URL while shown. */
export const useEvidenceUrl = (url: string): string | null => useProtectedObjectUrl(url, 'Evidence');
