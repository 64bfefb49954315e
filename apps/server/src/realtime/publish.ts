import { isTopic } from '@versus/domain/realtime-constants';
import type { Queryable } from '../db/database.ts';
import { INLINE_LIMIT, REALTIME_CHANNEL, encode, encodeEvent, type EventNote } from './process-protocol.ts';

/**
 * Topics whose events are not stored (docs/decisions.md, "A move's write is its move"): a
 * match's. Their versions are their owner's (match:{id} at version v is the match at version v;
 * every change of a match bumps it by one and announces itself there), their events travel only
 * inline in NOTIFYs, to the processes that follow the match (arena.writer.ts), and each hub keeps
 * the last few in memory for a socket that resumes. A resume from further back is a `gap`, and
 * the client reloads the match, whose view holds every move. So a move costs PostgreSQL its move
 * row and its match row, not an event row and a topic row too.
 */
export const isUnstoredTopic = (topic: string): boolean => topic.startsWith('match:');

/**
 * The notification of one committed event: the event itself when it fits; otherwise a reference
 * to read it back from the store, or, for an unstored topic (nothing to read back), a gap marker
 * whose followers get `gap` and reload.
 */
export const eventNotification = (e: EventNote): string => encodeEvent(e, isUnstoredTopic(e.topic) ? 'gap' : 'ref');

/** Sends the notification of an event (eventNotification) once the caller's transaction commits. */
export function notifyEvent(tx: Queryable, e: EventNote): void {
  tx.notifyAfterCommit(REALTIME_CHANNEL, eventNotification(e));
}

export interface RealtimeEvent {
  topic: string;
  version: number;
  type: string;
  payload: unknown;
}

/**
 * Records an event on `topic` inside the caller's transaction. The NOTIFY that carries it to
 * every server process is sent only after that transaction commits, so an event of a
 * rolled-back change is never seen (and the NOTIFY does not slow the commit: see
 * Queryable.notifyAfterCommit).
 */
export async function publish(tx: Queryable, topic: string, type: string, payload: unknown): Promise<RealtimeEvent> {
  if (!isTopic(topic)) throw new Error(`publish: "${topic}" is not a topic (prefix or prefix:id)`);
  if (isUnstoredTopic(topic)) throw new Error(`publish: "${topic}" is numbered by its owner; use announce()`);
  const json = JSON.stringify(payload ?? null);
  // One statement, one round trip: the topic's next version and the event under it.
  const [row] = await tx.query<{ version: number }>(
    `WITH t AS (
       INSERT INTO realtime_topics (topic, version) VALUES ($1, 1)
       ON CONFLICT (topic) DO UPDATE SET version = realtime_topics.version + 1
       RETURNING version
     )
     INSERT INTO realtime_events (topic, version, type, payload)
     SELECT $1, t.version, $2, $3::jsonb FROM t
     RETURNING version`,
    [topic, type, json],
  );
  const version = row!.version;
  notifyEvent(tx, { topic, version, type, payloadJson: json });
  return { topic, version, type, payload };
}

/**
 * Announces an event on an unstored topic (isUnstoredTopic) at the version its owner gave it
 * in the caller's transaction (a match's new version), after that transaction commits.
 */
export function announce(tx: Queryable, topic: string, version: number, type: string, payloadJson: string): void {
  if (!isUnstoredTopic(topic)) throw new Error(`announce: "${topic}" is a stored topic; use publish()`);
  notifyEvent(tx, { topic, version, type, payloadJson });
}

/**
 * Sends a hint on `topic` after the caller's transaction commits (nothing if it rolls back): a
 * passing notice about state kept elsewhere, such as a balance the ledger already stores. Unlike
 * an event it is not stored and takes no version, so the transaction pays no row and no topic
 * lock for it; a client that was offline refreshes that state when it re-subscribes instead of
 * replaying hints. The payload must be small: hints never travel by reference.
 */
export function hint(tx: Queryable, topic: string, type: string, payload: unknown): void {
  if (!isTopic(topic)) throw new Error(`hint: "${topic}" is not a topic (prefix or prefix:id)`);
  const text = encode({ t: 'hint', d: { topic, type, payload: payload ?? null } });
  if (Buffer.byteLength(text) >= INLINE_LIMIT) throw new Error(`hint: the ${type} payload is too large for a hint; publish an event`);
  tx.notifyAfterCommit(REALTIME_CHANNEL, text, HINT_GATHER_MS);
}

/**
 * How long a hint may wait for other notifications to share its NOTIFY. A client acts on a
 * balance hint only 500 ms later (web BALANCE_REFRESH), so this costs it nothing; under load it
 * turns a NOTIFY round trip per money movement into one per few dozen (bench/ledger).
 */
export const HINT_GATHER_MS = 20;

export const topics = {
  user: (id: string) => `user:${id}`,
  match: (id: string) => `match:${id}`,
  room: (code: string) => `room:${code}`,
  challenge: (id: string) => `challenge:${id}`,
  challenges: () => 'challenges',
  arenaJoin: (id: string) => `arena-join:${id}`,
  tournament: (id: string) => `tournament:${id}`,
  tournaments: () => 'tournaments',
} as const;
