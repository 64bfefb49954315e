// The wizard's gamertag from the player's linked accounts; one the player typed is never overwritten.
import { useEffect } from 'react';
import type { LinkedGamertag } from '@versus/domain/verification';
import { gamertagFor, useVerification } from './verification.api.ts';

/** The gamertag to show after the platform is `platform`: `current` unless it is empty or one of ours. */
export function prefillGamertag(current: string, platform: string | null, linked: readonly LinkedGamertag[]): string {
  const ours = current.trim() === '' || linked.some((g) => g.gamertag === current);
  if (!ours) return current;
  return gamertagFor(platform, linked) ?? '';
}

/** Keeps a wizard draft's gamertag prefilled as its platform changes. */
export function useGamertagPrefill<D extends { gamertag: string }>(
  platform: string | null,
  setDraft: (update: (draft: D) => D) => void,
): void {
  const linked = useVerification().data?.gamertags;
  useEffect(() => {
    if (!linked || linked.length === 0) return;
    setDraft((draft) => {
      const next = prefillGamertag(draft.gamertag, platform, linked);
      return next === draft.gamertag ? draft : { ...draft, gamertag: next };
    });
  }, [platform, linked, setDraft]);
}
