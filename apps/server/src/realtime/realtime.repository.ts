import type { Queryable } from '../db/database.ts';

/** An event as stored, with its payload still as JSON text (it is sent on as is). */
export interface StoredEvent {
  topic: string;
  version: number;
  type: string;
  payloadJson: string;
}

export interface Replay {
  /** The topic's latest committed version (0 when nothing was ever published on it). */
  current: number;
  /** Events after `since`, in version order, at most `limit` of them. */
  events: StoredEvent[];
}

/** The latest version of `topic` and, when `since` is given, the kept events after it. */
export async function readReplay(db: Queryable, topic: string, since: number | undefined, limit: number): Promise<Replay> {
  if (since === undefined) {
    const [row] = await db.query<{ version: number }>('SELECT version FROM realtime_topics WHERE topic = $1', [topic]);
    return { current: row?.version ?? 0, events: [] };
  }
  // One statement, so the latest version and the events come from the same snapshot.
  const rows = await db.query<{ current: number; version: number | null; type: string | null; payload: string | null }>(
    `SELECT t.version AS current, e.version, e.type, e.payload::text AS payload
       FROM realtime_topics t
       LEFT JOIN LATERAL (
         SELECT version, type, payload FROM realtime_events
          WHERE topic = t.topic AND version > $2::bigint
          ORDER BY version LIMIT $3::int
       ) e ON true
      WHERE t.topic = $1
      ORDER BY e.version`,
    [topic, since, limit],
  );
  const events: StoredEvent[] = [];
  for (const row of rows) {
    if (row.version !== null) events.push({ topic, version: row.version, type: row.type ?? '', payloadJson: row.payload ?? 'null' });
  }
  return { current: rows[0]?.current ?? 0, events };
}

/** One event, for NOTIFYs that carry only a reference because the event was too big. */
export async function readEvent(db: Queryable, topic: string, version: number): Promise<StoredEvent | undefined> {
  const [row] = await db.query<{ type: string; payload: string }>(
    'SELECT type, payload::text AS payload FROM realtime_events WHERE topic = $1 AND version = $2',
    [topic, version],
  );
  return row && { topic, version, type: row.type, payloadJson: row.payload };
}

/** Deletes events older than `retentionMs` in batches, skipping rows another process is deleting; answers how many. */
export async function pruneEvents(db: Queryable, retentionMs: number, batch = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await db.query<{ n: number }>(
      `WITH doomed AS (
         SELECT topic, version FROM realtime_events
          WHERE created_at < now() - ($1::bigint * interval '1 millisecond')
          LIMIT $2::int FOR UPDATE SKIP LOCKED
       ), deleted AS (
         DELETE FROM realtime_events e USING doomed d
          WHERE e.topic = d.topic AND e.version = d.version
          RETURNING 1
       )
       SELECT count(*)::int AS n FROM deleted`,
      [retentionMs, batch],
    );
    const n = rows[0]?.n ?? 0;
    total += n;
    if (n < batch) return total;
  }
}
