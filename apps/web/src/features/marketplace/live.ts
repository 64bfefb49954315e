// Live updates of the open list from the `challenges` topic; pure: an event and a list in, what to do out.
import { CHALLENGE_RULES } from '@versus/domain';
import { challengeSchema, type Challenge } from '@versus/domain/challenges';
import { matchesFilters, newestFirst, type MarketFilters } from './filters.ts';

export type LiveChange =
  /** A new open challenge to show (it matches the filters). */
  | { kind: 'add'; challenge: Challenge }
  /** No longer open: take it off every list. */
  | { kind: 'remove'; id: string }
  /** Something changed we cannot apply from the event alone: refetch. */
  | { kind: 'refetch' }
  | { kind: 'none' };

const REMOVING = new Set(['challenge.accepted', 'challenge.cancelled', 'challenge.expired', 'challenge.completed']);

function idOf(payload: unknown): string | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const id = (payload as { challengeId?: unknown }).challengeId;
  return typeof id === 'string' ? id : null;
}

/** What an event on the `challenges` topic means for a list shown with `filters`. */
export function liveChange(type: string, payload: unknown, filters: MarketFilters): LiveChange {
  if (type === 'challenge.created') {
    const parsed = challengeSchema.safeParse((payload as { challenge?: unknown } | null)?.challenge);
    if (!parsed.success) return { kind: 'refetch' };
    if (parsed.data.isPrivate || parsed.data.status !== 'open') return { kind: 'none' };
    return matchesFilters(parsed.data, filters) ? { kind: 'add', challenge: parsed.data } : { kind: 'none' };
  }
  if (REMOVING.has(type)) {
    const id = idOf(payload);
    return id ? { kind: 'remove', id } : { kind: 'refetch' };
  }
  // challenge.joined (a pool filling): the participant count changed.
  if (type === 'challenge.joined') return { kind: 'refetch' };
  return { kind: 'none' };
}

/** The list with a new challenge in it: once, newest first, at most the server's 50. */
export function addToList(list: readonly Challenge[] | undefined, challenge: Challenge): Challenge[] | undefined {
  if (!list) return list;
  if (list.some((c) => c.id === challenge.id)) return [...list];
  return newestFirst([challenge, ...list]).slice(0, CHALLENGE_RULES.listLimit);
}

export function removeFromList(list: readonly Challenge[] | undefined, id: string): Challenge[] | undefined {
  if (!list) return list;
  return list.filter((c) => c.id !== id);
}

/** A list with one challenge replaced (after a view counted, or a fresh copy). */
export function replaceInList(list: readonly Challenge[] | undefined, challenge: Challenge): Challenge[] | undefined {
  if (!list) return list;
  return list.map((c) => (c.id === challenge.id ? challenge : c));
}
