import { isTopic } from '@versus/domain/realtime-constants';
import type { Queryable } from '../db/database.ts';

export const REALTIME_CHANNEL = 'versus_realtime';
// NOTIFY payloads are capped at 8000 bytes; larger events travel by reference.
const INLINE_LIMIT = 7000;

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
  const inline = `{"topic":${JSON.stringify(topic)},"version":${version},"type":${JSON.stringify(type)},"payload":${json}}`;
  // The limit is in bytes: a payload of non-ASCII text is longer on the wire than in .length.
  const message = Buffer.byteLength(inline) < INLINE_LIMIT ? inline : JSON.stringify({ topic, version, ref: true });
  tx.notifyAfterCommit(REALTIME_CHANNEL, message);
  return { topic, version, type, payload };
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
  // The NOTIFY carries the very frame the sockets get (hub.ts sends it on as it is).
  const frame = `{"t":"hint","d":{"topic":${JSON.stringify(topic)},"type":${JSON.stringify(type)},"payload":${JSON.stringify(payload ?? null)}}}`;
  if (Buffer.byteLength(frame) >= INLINE_LIMIT) throw new Error(`hint: the ${type} payload is too large for a hint; publish an event`);
  tx.notifyAfterCommit(REALTIME_CHANNEL, frame, HINT_GATHER_MS);
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
} as const;
