// For tests: the events a topic has had. A stored topic's are read from realtime_events; an
// unstored topic's (a match's: publish.ts isUnstoredTopic) exist only in the NOTIFYs that carry
// them, so a tap LISTENs from its start and keeps what it hears, as another server process would.
import crypto from 'node:crypto';
import type { Database } from '../db/database.ts';
import { REALTIME_CHANNEL, isUnstoredTopic } from './publish.ts';

export interface HeardEvent {
  type: string;
  payload: Record<string, unknown>;
}

export interface EventTap {
  /** Every event of `topic` in version order: stored ones from the store, unstored ones as heard (after everything sent before the call arrived). */
  events(topic: string): Promise<HeardEvent[]>;
  stop(): Promise<void>;
}

interface Note {
  topic?: string;
  version?: number;
  type?: string;
  payload?: Record<string, unknown>;
  events?: Note[];
  t?: string;
  d?: { topic?: string };
}

export async function tapEvents(db: Database): Promise<EventTap> {
  const heard = new Map<string, Map<number, HeardEvent>>();
  const waiting = new Map<string, () => void>();
  const hear = (note: Note) => {
    if (typeof note.topic !== 'string' || typeof note.version !== 'number' || !isUnstoredTopic(note.topic)) return;
    let topic = heard.get(note.topic);
    if (!topic) heard.set(note.topic, (topic = new Map()));
    topic.set(note.version, { type: note.type ?? '(too large to travel: a gap)', payload: note.payload ?? {} });
  };
  const stop = await db.listen(REALTIME_CHANNEL, (text) => {
    const note = JSON.parse(text) as Note;
    if (note.t === 'hint' && note.d?.topic) waiting.get(note.d.topic)?.();
    for (const one of note.events ?? [note]) hear(one);
  });
  return {
    async events(topic) {
      if (!isUnstoredTopic(topic)) {
        return db.query<HeardEvent>('SELECT type, payload FROM realtime_events WHERE topic = $1 ORDER BY version', [topic]);
      }
      // Notifications arrive in the order they were sent, and this marker goes after every one
      // already queued: once it is heard, so is everything committed before this call.
      const marker = `tap:${crypto.randomUUID()}`;
      const arrived = new Promise<void>((resolve) => waiting.set(marker, resolve));
      db.notifyAfterCommit(REALTIME_CHANNEL, JSON.stringify({ t: 'hint', d: { topic: marker, type: 'tap', payload: null } }));
      await arrived;
      waiting.delete(marker);
      return [...(heard.get(topic) ?? new Map<number, HeardEvent>()).entries()].sort(([a], [b]) => a - b).map(([, event]) => event);
    },
    stop,
  };
}
