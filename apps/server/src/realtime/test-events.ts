// For tests: the events a topic has had; an unstored topic's exist only in their NOTIFYs, so a tap LISTENs from its start.
import crypto from 'node:crypto';
import type { Database } from '../db/database.ts';
import { ProcessInbox, REALTIME_CHANNEL, sendAfterCommit, type EventNote, type GapNote } from './process-protocol.ts';
import { isUnstoredTopic } from './publish.ts';

export interface HeardEvent {
  type: string;
  payload: Record<string, unknown>;
}

export interface EventTap {
  /** Every event of `topic` in version order: stored from the store, unstored as heard (all sent before the call). */
  events(topic: string): Promise<HeardEvent[]>;
  stop(): Promise<void>;
}

export async function tapEvents(db: Database): Promise<EventTap> {
  const heard = new Map<string, Map<number, HeardEvent>>();
  const waiting = new Map<string, () => void>();
  const hear = (topic: string, version: number, event: HeardEvent) => {
    if (!isUnstoredTopic(topic)) return;
    let events = heard.get(topic);
    if (!events) heard.set(topic, (events = new Map<number, HeardEvent>()));
    events.set(version, event);
  };
  const hearNote = (note: EventNote | GapNote) => {
    if ('gap' in note) return hear(note.topic, note.version, { type: '(too large to travel: a gap)', payload: {} });
    const payload = JSON.parse(note.payloadJson) as Record<string, unknown> | null;
    hear(note.topic, note.version, { type: note.type, payload: payload ?? {} });
  };
  const inbox = new ProcessInbox(REALTIME_CHANNEL, console);
  const stop = await inbox.listen(db, (message) => {
    if (message.t === 'hint') waiting.get(message.d.topic)?.();
    else if (message.t === 'event') hearNote(message.d);
    else if (message.t === 'gap') hearNote({ ...message.d, gap: true });
    else if (message.t === 'events') message.d.forEach(hearNote);
  });
  return {
    async events(topic) {
      if (!isUnstoredTopic(topic)) {
        return db.query<HeardEvent>('SELECT type, payload FROM realtime_events WHERE topic = $1 ORDER BY version', [topic]);
      }
      // A marker queued after every earlier notification: once heard, so is everything committed before this call.
      const marker = `tap:${crypto.randomUUID()}`;
      const arrived = new Promise<void>((resolve) => waiting.set(marker, resolve));
      sendAfterCommit(db, { t: 'hint', d: { topic: marker, type: 'tap', payload: null } });
      await arrived;
      waiting.delete(marker);
      return [...(heard.get(topic) ?? new Map<number, HeardEvent>()).entries()].sort(([a], [b]) => a - b).map(([, event]) => event);
    },
    stop,
  };
}
