// The match screen's "Here" / "Away"; mount it with the match's subscription so the answers to this
// tab's arrival are not missed.
import { useEffect, useState } from 'react';
import { useRealtime } from '../../realtime/index.ts';
import { NOBODY, heard, isHere, nextExpiry, presenceHint, type Presence } from './presence.ts';

export type HereCheck = (userId: string) => boolean;

export function useMatchPresence(topicId: string | null): HereCheck {
  const [presence, setPresence] = useState<Presence>(NOBODY);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => setPresence(NOBODY), [topicId]);
  useRealtime(topicId && `match:${topicId}`, (update) => {
    if (update.kind !== 'hint') return;
    const hint = presenceHint(update.type, update.payload);
    if (!hint) return;
    const at = Date.now();
    setPresence((p) => heard(p, hint, at));
    setNow(at);
  });
  useEffect(() => {
    const expiry = nextExpiry(presence);
    if (expiry === null) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, expiry - Date.now()) + 50);
    return () => clearTimeout(timer);
  }, [presence, now]);
  return (userId) => isHere(presence, userId, now);
}
