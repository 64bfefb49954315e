// Who is on the match screen (MATCH_PRESENCE): what the `presence` hints on match:{id} said of
// each player, and when. Here while heard within the timeout and not said to have left. Pure.
import { MATCH_PRESENCE, type MatchPresenceHint } from '@versus/domain/realtime-constants';

/** Player id → when they were last heard to be here (ms), or null once they left. */
export type Presence = ReadonlyMap<string, number | null>;

export const NOBODY: Presence = new Map();

/** The presence hint in a realtime hint, or null when it is something else. */
export function presenceHint(type: string, payload: unknown): MatchPresenceHint | null {
  if (type !== MATCH_PRESENCE.hintType || typeof payload !== 'object' || payload === null) return null;
  const { userId, here } = payload as Record<string, unknown>;
  return typeof userId === 'string' && typeof here === 'boolean' ? { userId, here } : null;
}

export function heard(presence: Presence, hint: MatchPresenceHint, now: number): Presence {
  const next = new Map(presence);
  next.set(hint.userId, hint.here ? now : null);
  return next;
}

export function isHere(presence: Presence, userId: string, now: number, timeoutMs: number = MATCH_PRESENCE.timeoutMs): boolean {
  const at = presence.get(userId);
  return at !== undefined && at !== null && now - at < timeoutMs;
}

/** When the next "Here" runs out (ms), or null when nobody is here. */
export function nextExpiry(presence: Presence, timeoutMs: number = MATCH_PRESENCE.timeoutMs): number | null {
  let next: number | null = null;
  for (const at of presence.values()) if (at !== null && (next === null || at + timeoutMs < next)) next = at + timeoutMs;
  return next;
}
