// The protocol between server processes: every NOTIFY is one of these messages, built by this module's encoders and read by
// ProcessInbox alone (docs/decisions.md, "One protocol between processes").
import { z } from 'zod';
import type { Database, Queryable } from '../db/database.ts';

/** Bumped by any change to a message's shape on the wire. */
export const PROCESS_PROTOCOL = 1;

export const REALTIME_CHANNEL = 'versus_realtime';
/** Committed notifications, for their deliverers (notifications/notify.ts). */
export const NOTIFICATION_COMMITTED_CHANNEL = 'versus_notification_committed';

// NOTIFY payloads are capped at 8000 bytes; larger events travel by reference.
export const INLINE_LIMIT = 7000;

/** An event as a notification carries it, its payload already JSON text. */
export interface EventNote {
  topic: string;
  version: number;
  type: string;
  payloadJson: string;
}

/** An event named only: its topic and version. */
export interface EventRef {
  topic: string;
  version: number;
}

/** An unstored event too large to travel: its followers get `gap` and reload. */
export interface GapNote extends EventRef {
  gap: true;
}

interface HintNote {
  topic: string;
  type: string;
  payload: unknown;
}

export type ProcessMessage =
  /** One committed event, whole (publish.ts publish, announce). */
  | { t: 'event'; d: EventNote }
  /** A stored event too large to travel: read it back from realtime_events. */
  | { t: 'ref'; d: EventRef }
  /** An unstored event (a match's) too large to travel. */
  | { t: 'gap'; d: EventRef }
  /** Stored events that process `o` delivered to its own sockets already, by reference (arena.writer.ts). */
  | { t: 'refs'; o: string; d: EventRef[] }
  /** A match's events that process `o` delivered to its own sockets already, whole or as gaps (arena.writer.ts). */
  | { t: 'events'; o: string; d: (EventNote | GapNote)[] }
  /** A passing notice, neither stored nor versioned (publish.ts hint; presence.ts). */
  | { t: 'hint'; d: HintNote }
  /** A notification committed: one process claims and delivers it (notifications/notify.ts). */
  | { t: 'notification'; d: { id: string } };

export type ProcessMessageOf<T extends ProcessMessage['t']> = Extract<ProcessMessage, { t: T }>;

const CHANNEL_OF = {
  event: REALTIME_CHANNEL,
  ref: REALTIME_CHANNEL,
  gap: REALTIME_CHANNEL,
  refs: REALTIME_CHANNEL,
  events: REALTIME_CHANNEL,
  hint: REALTIME_CHANNEL,
  notification: NOTIFICATION_COMMITTED_CHANNEL,
} as const satisfies Record<ProcessMessage['t'], string>;

type ProcessChannel = (typeof CHANNEL_OF)[keyof typeof CHANNEL_OF];
/** The messages that travel on `C`. */
type Kind = keyof typeof CHANNEL_OF;
type TypesOn<C extends ProcessChannel> = { [T in Kind]: (typeof CHANNEL_OF)[T] extends C ? T : never }[Kind];
export type MessageOn<C extends ProcessChannel> = ProcessMessageOf<TypesOn<C>>;

export const channelOf = (message: ProcessMessage): ProcessChannel => CHANNEL_OF[message.t];

// ---------------------------------------------------------------------------------------
// Encoding: templates, as a match's events are on the move path and their payloads are JSON text already.

const HEAD = `{"p":${PROCESS_PROTOCOL},`;
const originHead = (origin: string) => `${HEAD}"o":${JSON.stringify(origin)},`;

const eventBody = (e: EventNote) =>
  `{"topic":${JSON.stringify(e.topic)},"v":${e.version},"type":${JSON.stringify(e.type)},"payload":${e.payloadJson}}`;
const refBody = (e: EventRef) => `{"topic":${JSON.stringify(e.topic)},"v":${e.version}}`;
const gapBody = (e: EventRef) => `{"topic":${JSON.stringify(e.topic)},"v":${e.version},"gap":true}`;
const hintBody = (h: HintNote) =>
  `{"topic":${JSON.stringify(h.topic)},"type":${JSON.stringify(h.type)},"payload":${JSON.stringify(h.payload ?? null)}}`;
const eventMessage = (e: EventNote) => `${HEAD}"t":"event","d":${eventBody(e)}}`;
const refItem = (e: EventRef) => `[${JSON.stringify(e.topic)},${e.version}]`;

/** The payload of `message` (no size check: see encodeEvent, encodeBatches, hint). */
export function encode(message: ProcessMessage): string {
  switch (message.t) {
    case 'event':
      return eventMessage(message.d);
    case 'ref':
    case 'gap':
      return `${HEAD}"t":"${message.t}","d":${refBody(message.d)}}`;
    case 'refs':
      return `${originHead(message.o)}"t":"refs","d":[${message.d.map(refItem).join(',')}]}`;
    case 'events':
      return `${originHead(message.o)}"t":"events","d":[${message.d.map((e) => ('gap' in e ? gapBody(e) : eventBody(e))).join(',')}]}`;
    case 'hint':
      return `${HEAD}"t":"hint","d":${hintBody(message.d)}}`;
    case 'notification':
      return `${HEAD}"t":"notification","d":{"id":${JSON.stringify(message.d.id)}}}`;
  }
}

// The limit is in bytes: a payload of non-ASCII text is longer on the wire than in .length.
const fits = (text: string) => Buffer.byteLength(text) < INLINE_LIMIT;

/** One committed event: itself when it fits, else `tooLarge`: a `ref` to read back, or a `gap` for an unstored topic. */
export function encodeEvent(e: EventNote, tooLarge: 'ref' | 'gap'): string {
  const inline = eventMessage(e);
  return fits(inline) ? inline : encode({ t: tooLarge, d: { topic: e.topic, version: e.version } });
}

/** Events `origin` delivered itself, for the others, in as few payloads as fit: stored by reference, unstored whole. */
export function encodeBatches(origin: string, stored: readonly EventRef[], unstored: readonly EventNote[]): string[] {
  const head = originHead(origin);
  const events = unstored.map((e) => {
    const body = eventBody(e);
    return fits(body) ? body : gapBody(e);
  });
  return [...packed(`${head}"t":"refs","d":[`, stored.map(refItem)), ...packed(`${head}"t":"events","d":[`, events)];
}

/** `items` in as few payloads `${head}item,item...]}` as fit under the limit (each item fits alone). */
function packed(head: string, items: string[]): string[] {
  const out: string[] = [];
  let run: string[] = [];
  let size = head.length + 2;
  for (const item of items) {
    const bytes = Buffer.byteLength(item) + 1;
    if (run.length > 0 && size + bytes >= INLINE_LIMIT) {
      out.push(`${head}${run.join(',')}]}`);
      run = [];
      size = head.length + 2;
    }
    run.push(item);
    size += bytes;
  }
  if (run.length > 0) out.push(`${head}${run.join(',')}]}`);
  return out;
}

/** Sends `message` on its channel once the caller's transaction commits (`gatherMs`: Queryable.notifyAfterCommit). */
export function sendAfterCommit(q: Queryable, message: ProcessMessage, gatherMs?: number): void {
  q.notifyAfterCommit(channelOf(message), encode(message), gatherMs);
}

// ---------------------------------------------------------------------------------------
// Decoding

type Decoded = { ok: true; message: ProcessMessage } | { ok: false; problem: 'version' | 'shape'; error: string };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isVersion = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function readRef(d: unknown): EventRef | null {
  if (!isObject(d) || typeof d.topic !== 'string' || !isVersion(d.v)) return null;
  return { topic: d.topic, version: d.v };
}

function readEvent(d: unknown): EventNote | null {
  if (!isObject(d)) return null;
  const { topic, v, type } = d;
  if (typeof topic !== 'string' || !isVersion(v) || typeof type !== 'string' || !('payload' in d)) return null;
  return { topic, version: v, type, payloadJson: JSON.stringify(d.payload) };
}

function readRefItem(item: unknown): EventRef | null {
  if (!Array.isArray(item) || item.length !== 2 || typeof item[0] !== 'string' || !isVersion(item[1])) return null;
  return { topic: item[0], version: item[1] };
}

function readEventItem(item: unknown): EventNote | GapNote | null {
  if (isObject(item) && item.gap === true) {
    const ref = readRef(item);
    return ref && { ...ref, gap: true };
  }
  return readEvent(item);
}

/** Every item read, or null when one is not. */
function readAll<T>(items: unknown, read: (item: unknown) => T | null): T[] | null {
  if (!Array.isArray(items)) return null;
  const out: T[] = [];
  for (const item of items) {
    const one = read(item);
    if (!one) return null;
    out.push(one);
  }
  return out;
}

// Hints and notifications are not on the move path: their schemas say it.
const hintSchema = z.object({ topic: z.string(), type: z.string(), payload: z.unknown() });
const notificationSchema = z.object({ id: z.string().regex(/^[0-9a-f-]{36}$/i) });

function readMessage(note: Json): ProcessMessage | null {
  const { t, d, o } = note;
  switch (t) {
    case 'event': {
      const e = readEvent(d);
      return e && { t, d: e };
    }
    case 'ref':
    case 'gap': {
      const ref = readRef(d);
      return ref && { t, d: ref };
    }
    case 'refs': {
      const refs = typeof o === 'string' ? readAll(d, readRefItem) : null;
      return refs && { t, o: o as string, d: refs };
    }
    case 'events': {
      const events = typeof o === 'string' ? readAll(d, readEventItem) : null;
      return events && { t, o: o as string, d: events };
    }
    case 'hint': {
      const hint = hintSchema.safeParse(d);
      return hint.success ? { t, d: { topic: hint.data.topic, type: hint.data.type, payload: hint.data.payload ?? null } } : null;
    }
    case 'notification': {
      const n = notificationSchema.safeParse(d);
      return n.success ? { t, d: { id: n.data.id } } : null;
    }
    default:
      return null;
  }
}

/** Reads one payload; never throws. */
export function decode(text: string): Decoded {
  let note: unknown;
  try {
    note = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: 'shape', error: `not JSON: ${(error as Error).message}` };
  }
  if (!isObject(note)) return { ok: false, problem: 'shape', error: 'not an object' };
  if (note.p !== PROCESS_PROTOCOL) {
    const error = `protocol ${JSON.stringify(note.p) ?? 'none'}, this process speaks ${PROCESS_PROTOCOL}`;
    return { ok: false, problem: 'version', error };
  }
  const message = readMessage(note);
  return message ? { ok: true, message } : { ok: false, problem: 'shape', error: `not a message: t=${JSON.stringify(note.t) ?? 'none'}` };
}

export interface ProcessLog {
  warn(obj: object, msg: string): void;
}

interface InboxOptions {
  /** This process's origin (RealtimeHub.origin): its own `refs` and `events` are skipped unread. */
  ownOrigin?: string;
  /** Called for each payload not understood, after it is logged and counted. */
  onUnread?: () => void;
}

/** One listener's reader of a channel; what it cannot read is counted by reason and logged at the 1st, 2nd, 4th, 8th… of each. */
export class ProcessInbox<C extends ProcessChannel> {
  readonly unread = { version: 0, shape: 0 };
  private readonly ownPrefix: string | undefined;

  constructor(
    readonly channel: C,
    private readonly log: ProcessLog,
    private readonly options: InboxOptions = {},
  ) {
    this.ownPrefix = options.ownOrigin === undefined ? undefined : originHead(options.ownOrigin);
  }

  /** The message, or null: one of this process's own (ownOrigin), or not understood (logged and counted). */
  read(text: string): MessageOn<C> | null {
    if (this.ownPrefix !== undefined && text.startsWith(this.ownPrefix)) return null;
    const decoded = decode(text);
    if (decoded.ok && channelOf(decoded.message) === this.channel) return decoded.message as MessageOn<C>;
    const problem = decoded.ok ? 'shape' : decoded.problem;
    const count = ++this.unread[problem];
    if ((count & (count - 1)) === 0) {
      const error = decoded.ok ? `a ${decoded.message.t} message on ${this.channel}` : decoded.error;
      const about = { channel: this.channel, problem, count, error, text: text.slice(0, 200) };
      this.log.warn(about, 'realtime: a notification from another process not understood');
    }
    this.options.onUnread?.();
    return null;
  }

  /** Listens on the channel; `onMessage` gets what read() understood. Returns the unlisten. */
  listen(db: Database, onMessage: (message: MessageOn<C>) => void, onResumed?: () => void): Promise<() => Promise<void>> {
    return db.listen(
      this.channel,
      (text) => {
        const message = this.read(text);
        if (message) onMessage(message);
      },
      onResumed,
    );
  }
}
