import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { CHALLENGE } from '@versus/domain';
import { isWebGame } from '@versus/domain/catalogue';
import type { Challenge } from '@versus/domain/challenges';
import { ApiError } from '../../api/index.ts';
import { WALLET_KEY, acceptChallenge, cancelChallenge } from '../challenges/challenges.api.ts';

/** Refusals after which the challenge is surely not open for this player any more. */
const CLOSED_CODES = new Set(['already_accepted', 'not_available']);

function messageOf(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

export interface ChallengeActionsOptions {
  /** The challenge left the open list (accepted, cancelled, or refused as no longer open). */
  onGone: (id: string) => void;
}

/** Accept and cancel, with SPEC §8's toasts: the server's message as it is, success or refusal. */
export function useChallengeActions({ onGone }: ChallengeActionsOptions) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [pending, setPending] = useState<string | null>(null);

  /** 'matched': navigated to the match; 'joined': a pool took the stake; 'gone': no longer open; 'failed': nothing changed. */
  const accept = async (
    challenge: Challenge,
    options: { code?: string | null; gamertag?: string },
  ): Promise<'matched' | 'joined' | 'gone' | 'failed'> => {
    setPending(challenge.id);
    try {
      const result = await acceptChallenge(challenge.id, {
        ...(options.code ? { code: options.code } : {}),
        ...(options.gamertag?.trim() ? { gamertag: options.gamertag.trim() } : {}),
      });
      toast.success(result.message);
      void queryClient.invalidateQueries({ queryKey: WALLET_KEY });
      if (!result.match) return 'joined';
      onGone(challenge.id);
      navigate(isWebGame(result.match.gameType) ? `/live-arena?match=${result.match.id}` : `/matches?highlight=${result.match.id}`);
      return 'matched';
    } catch (error) {
      toast.error(messageOf(error, CHALLENGE.acceptFailed));
      if (error instanceof ApiError && (CLOSED_CODES.has(error.code) || error.status === 404)) {
        onGone(challenge.id);
        return 'gone';
      }
      return 'failed';
    } finally {
      setPending(null);
    }
  };

  const cancel = async (challenge: Challenge): Promise<boolean> => {
    setPending(challenge.id);
    try {
      const result = await cancelChallenge(challenge.id);
      toast.success(result.message);
      onGone(challenge.id);
      void queryClient.invalidateQueries({ queryKey: WALLET_KEY });
      return true;
    } catch (error) {
      toast.error(messageOf(error, CHALLENGE.createFailed));
      if (error instanceof ApiError && error.code === 'not_open') onGone(challenge.id);
      return false;
    } finally {
      setPending(null);
    }
  };

  return { accept, cancel, pending };
}
