// "When topic T has an event of these types, or a gap, refetch": the one realtime rule most
// screens follow, as a listener (tested without React) and a hook around it.
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { RealtimeListener, RealtimeUpdate } from './client.ts';
import { useRealtime } from './react.tsx';

export interface RefetchOn {
  /** The event types that refetch: a list of names, a pattern, or a test. */
  types: ReadonlySet<string> | readonly string[] | RegExp | ((type: string) => boolean);
  /** Hints of those types refetch too (hints carry state kept elsewhere). Default false. */
  hints?: boolean;
  /** Refetch after a reconnect too: needed for what hints refresh, as hints are not replayed. */
  resumed?: boolean;
}

function typeMatches(types: RefetchOn['types'], type: string): boolean {
  if (types instanceof RegExp) return types.test(type);
  if (typeof types === 'function') return types(type);
  if (types instanceof Set) return types.has(type);
  return (types as readonly string[]).includes(type);
}

/** Whether `update` calls for a refetch under `on`. A gap, or the start of following, always does. */
export function refetchesOn(update: RealtimeUpdate, on: RefetchOn): boolean {
  switch (update.kind) {
    case 'gap':
    case 'subscribed':
      return true;
    case 'resumed':
      return on.resumed === true;
    case 'event':
      return typeMatches(on.types, update.type);
    case 'hint':
      return on.hints === true && typeMatches(on.types, update.type);
    case 'error':
      return false;
  }
}

/** The listener that calls `refetch` for each update `on` asks it to. */
export function topicRefetchListener(on: RefetchOn, refetch: () => void): RealtimeListener {
  return (update) => {
    if (refetchesOn(update, on)) refetch();
  };
}

/** `refetch`: query keys to invalidate, or a function for screens that refetch their own way. */
export function useTopicRefetch(topic: string | null | undefined, on: RefetchOn, refetch: readonly QueryKey[] | (() => void)): void {
  const client = useQueryClient();
  const run = typeof refetch === 'function' ? refetch : () => refetch.forEach((queryKey) => void client.invalidateQueries({ queryKey }));
  useRealtime(topic, topicRefetchListener(on, run));
}
