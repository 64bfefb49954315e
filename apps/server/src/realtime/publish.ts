import { isTopic } from '@versus/domain/realtime-constants';
import type { Queryable } from '../db/database.ts';
import { INLINE_LIMIT, REALTIME_CHANNEL, encode, encodeEvent, type EventNote } from './process-protocol.ts';

/** A match's topic is not stored ("A move's write is its move"): its versions are the match's, its events travel inline only. */
export const isUnstoredTopic = (topic: string): boolean => topic.startsWith('match:');

/** Its notification: the event when it fits, else a reference to read back, or for an unstored topic a gap marker. */
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

/** Records an event inside the caller's transaction; its NOTIFY goes only after the commit, so a rolled-back change is never seen. */
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

/** Records many events in ONE statement (realtime_publish_jsonb: numbered per topic, in order), each notified after the commit. */
export async function publishMany(tx: Queryable, events: readonly { topic: string; type: string; payload: unknown }[]): Promise<void> {
  if (events.length === 0) return;
  const jsons = events.map((e) => {
    if (!isTopic(e.topic) || isUnstoredTopic(e.topic)) throw new Error(`publishMany: "${e.topic}" is not a stored topic`);
    return JSON.stringify(e.payload ?? null);
  });
  const list = `[${events.map((e, i) => `{"topic":${JSON.stringify(e.topic)},"type":${JSON.stringify(e.type)},"payload":${jsons[i]}}`).join(',')}]`;
  const [row] = await tx.query<{ versions: (number | string)[] }>('SELECT realtime_publish_jsonb($1::jsonb) AS versions', [list]);
  events.forEach((e, i) => notifyEvent(tx, { topic: e.topic, version: Number(row!.versions[i]), type: e.type, payloadJson: jsons[i]! }));
}

/** Announces an unstored topic's event at the version its owner gave it in the caller's transaction, after the commit. */
export function announce(tx: Queryable, topic: string, version: number, type: string, payloadJson: string): void {
  if (!isUnstoredTopic(topic)) throw new Error(`announce: "${topic}" is a stored topic; use publish()`);
  notifyEvent(tx, { topic, version, type, payloadJson });
}

/** A passing notice after the commit, neither stored nor versioned (a re-subscribing client refetches); small: never by reference. */
export function hint(tx: Queryable, topic: string, type: string, payload: unknown): void {
  if (!isTopic(topic)) throw new Error(`hint: "${topic}" is not a topic (prefix or prefix:id)`);
  const text = encode({ t: 'hint', d: { topic, type, payload: payload ?? null } });
  if (Buffer.byteLength(text) >= INLINE_LIMIT) throw new Error(`hint: the ${type} payload is too large for a hint; publish an event`);
  tx.notifyAfterCommit(REALTIME_CHANNEL, text, HINT_GATHER_MS);
}

/** How long a hint may wait to share a NOTIFY; clients act on a balance hint later anyway (decisions.md, "Hints"). */
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
