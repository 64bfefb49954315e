// The browser side of /realtime: one socket per tab, topics followed by reference count and resumed
// from their last version after a reconnect; React bindings are in react.tsx.
import { REALTIME_CLOSE, REALTIME_PATH, REALTIME_PROTOCOL, isTopic } from '@versus/domain/realtime-constants';
import type {
  ClientMessage,
  ClientMessageOf,
  RealtimeErrorCode,
  ServerMessage,
  ServerMessageOf,
  parseServerMessage,
} from '@versus/domain/realtime';
import { RECONNECT, backoffDelay, checkVersion } from './backoff.ts';

/** After a 4429 the backoff starts here: 16 s at the default minimum, so 8–16 s (then 30 s). */
const TOO_MANY_ATTEMPT = 5;

export type RealtimeStatus =
  /** Not started, stopped, or signed out (no token). */
  | 'idle'
  /** Opening the first connection since `connect()`. */
  | 'connecting'
  /** Signed in on the socket; subscriptions are live. */
  | 'connected'
  /** The connection failed or was lost; trying again (with backoff). */
  | 'reconnecting';

/** What a topic's listeners receive. */
export type RealtimeUpdate =
  | { kind: 'event'; topic: string; v: number; type: string; payload: unknown }
  /** A passing notice about state kept elsewhere (a balance): no version, never replayed. */
  | { kind: 'hint'; topic: string; type: string; payload: unknown }
  /** Following again after a reconnect: missed events are replayed but hints are not, so refresh what hints refresh. */
  | { kind: 'resumed'; topic: string }
  /** A first subscription sends nothing earlier, so a snapshot fetched before it may be behind: refetch it. */
  | { kind: 'subscribed'; topic: string }
  /** Events on this topic were missed and are no longer kept: refetch its snapshot. */
  | { kind: 'gap'; topic: string }
  /** The server refused the subscription (forbidden_topic, too_many_topics) or failed. */
  | { kind: 'error'; topic: string; code: RealtimeErrorCode; message: string };

export type RealtimeListener = (update: RealtimeUpdate) => void;

/** A gap, or a topic only just followed (perhaps after the snapshot was taken). */
export const snapshotMayBeBehind = (update: RealtimeUpdate): boolean => update.kind === 'gap' || update.kind === 'subscribed';

export interface RealtimeClientOptions {
  /** The current access token; null when signed out (the client then stays idle). */
  getToken: () => Promise<string | null>;
  /** Default: ws(s)://<this host>/realtime. */
  url?: string;
  /** Default: the browser's WebSocket. Tests pass the `ws` package. */
  createSocket?: (url: string) => WebSocket;
  backoff?: { minMs?: number; maxMs?: number };
  /** Default Math.random; injected for deterministic tests. */
  random?: () => number;
  /** The client pings this often; a ping unanswered by the next one means the link is dead. */
  pingIntervalMs?: number;
  /** Give up on a connection attempt that has not been welcomed within this time. */
  connectTimeoutMs?: number;
  /** Where `online` events come from. Default: window. */
  events?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
  /** Errors not tied to a topic (bad token, protocol) and listeners that throw. */
  onError?: (error: { code: RealtimeErrorCode | 'listener_failed'; message: string; cause?: unknown }) => void;
}

interface TopicEntry {
  listeners: Set<{ listener: RealtimeListener }>;
  /** The last version delivered; undefined before the first `subscribed`. */
  v: number | undefined;
  /** Subscribed again after a reconnect: its `subscribed` is announced as `resumed`. */
  resuming: boolean;
  /** Its `subscribed` has come (and was announced) since it was last followed from nothing. */
  confirmed: boolean;
}

const OPEN = 1;

/** A move sent on the socket (the `ref` and the acknowledgement mode are the client's business). */
export type SocketMove = Omit<ClientMessageOf<'move'>['d'], 'ref' | 'ack'>;
export type MoveAnswer = ServerMessageOf<'moved'>['d'];

/** `sendMove` found no open, authenticated socket: nothing was sent (use HTTP instead). */
export class SocketUnavailable extends Error {
  override readonly name = 'SocketUnavailable';
}

/** The move was sent but its answer never came (the socket dropped, or it took too long). */
export class MoveUnanswered extends Error {
  override readonly name = 'MoveUnanswered';
}

interface PendingMove {
  resolve(answer: MoveAnswer): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** Loaded with the first connection, which only a signed-in player makes, so a visitor's page carries no zod. */
let parser: Promise<typeof parseServerMessage> | undefined;
const loadParser = (): Promise<typeof parseServerMessage> =>
  (parser ??= import('@versus/domain/realtime').then((m) => m.parseServerMessage));

export function defaultRealtimeUrl(): string {
  const location = globalThis.location;
  if (!location) throw new Error('RealtimeClient needs a url outside the browser');
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${REALTIME_PATH}`;
}

export class RealtimeClient {
  private readonly options: RealtimeClientOptions;
  private readonly topics = new Map<string, TopicEntry>();
  private readonly statusListeners = new Set<() => void>();
  private status: RealtimeStatus = 'idle';
  private running = false;
  private socket: WebSocket | null = null;
  private welcomed = false;
  /** A welcome came before: the next ones are reconnections, whose hints may have been missed. */
  private welcomedBefore = false;
  private awaitingPong = false;
  /** Failed attempts since the last welcome. */
  private attempt = 0;
  /** Bumped by every attempt and stop, so a stale token fetch or socket is ignored. */
  private generation = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private connectTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private userId: string | null = null;
  private parse: typeof parseServerMessage | null = null;
  private readonly pendingMoves = new Map<string, PendingMove>();
  private moveRefs = 0;

  constructor(options: RealtimeClientOptions) {
    this.options = options;
  }

  // ---------------------------------------------------------------------------------------
  // Public API

  /** Starts (or keeps) the connection. Call after sign-in; harmless when already running. */
  connect(): void {
    if (this.running) return;
    this.running = true;
    this.attempt = 0;
    this.eventSource()?.addEventListener('online', this.onOnline);
    void this.open();
  }

  /** Closes the connection and stays idle until `connect()`. Subscriptions are kept. */
  disconnect(): void {
    if (!this.running) return;
    this.running = false;
    this.generation++;
    this.eventSource()?.removeEventListener('online', this.onOnline);
    clearTimeout(this.retryTimer);
    this.dropSocket(1000, 'client disconnect');
    this.setStatus('idle');
  }

  /** A move over the socket instead of POST …/moves; after MoveUnanswered the match's state tells whether it was played. */
  sendMove(move: SocketMove, timeoutMs = 10_000): Promise<MoveAnswer> {
    if (!this.welcomed || this.socket?.readyState !== OPEN)
      return Promise.reject(new SocketUnavailable('The realtime socket is not connected'));
    const ref = `m${++this.moveRefs}`;
    return new Promise<MoveAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pendingMoves.delete(ref);
        reject(new MoveUnanswered('The move was not answered in time'));
      }, timeoutMs);
      this.pendingMoves.set(ref, { resolve, reject, timer });
      this.send({ t: 'move', d: { ...move, ref } });
    });
  }

  /** Follows `topic`; returns the function that stops following it. */
  subscribe(topic: string, listener: RealtimeListener): () => void {
    if (!isTopic(topic)) throw new Error(`"${topic}" is not a realtime topic`);
    let entry = this.topics.get(topic);
    if (!entry) {
      entry = { listeners: new Set(), v: undefined, resuming: false, confirmed: false };
      this.topics.set(topic, entry);
      if (this.welcomed) this.send({ t: 'sub', d: { topic } });
    }
    const handle = { listener };
    entry.listeners.add(handle);
    const owner = entry;
    return () => {
      owner.listeners.delete(handle);
      if (owner.listeners.size > 0) return;
      // Deferred, so an unmount followed at once by a mount (React StrictMode, route changes
      // that keep the topic) does not unsubscribe and subscribe again.
      queueMicrotask(() => {
        if (owner.listeners.size > 0 || this.topics.get(topic) !== owner) return;
        this.topics.delete(topic);
        if (this.welcomed) this.send({ t: 'unsub', d: { topic } });
      });
    };
  }

  readonly getStatus = (): RealtimeStatus => this.status;

  /** Calls `listener` whenever the status changes; returns the unsubscribe function. */
  readonly onStatus = (listener: () => void): (() => void) => {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  };

  /** The last version delivered on `topic`, if it is followed. */
  lastVersion(topic: string): number | undefined {
    return this.topics.get(topic)?.v;
  }

  /** The signed-in user on the current connection (from `welcome`). */
  currentUserId(): string | null {
    return this.welcomed ? this.userId : null;
  }

  // ---------------------------------------------------------------------------------------
  // Connection

  private async open(): Promise<void> {
    const generation = ++this.generation;
    this.setStatus(this.attempt === 0 ? 'connecting' : 'reconnecting');
    let token: string | null;
    try {
      this.parse ??= await loadParser();
    } catch (error) {
      if (generation !== this.generation) return;
      this.options.onError?.({ code: 'internal', message: 'Could not load the realtime protocol', cause: error });
      this.retryLater();
      return;
    }
    try {
      token = await this.options.getToken();
    } catch (error) {
      if (generation !== this.generation) return;
      this.options.onError?.({ code: 'internal', message: 'Could not get an access token', cause: error });
      this.retryLater();
      return;
    }
    if (generation !== this.generation || !this.running) return;
    if (!token) {
      // Signed out: nothing to connect as. The app calls connect() again after sign-in.
      this.running = false;
      this.eventSource()?.removeEventListener('online', this.onOnline);
      this.setStatus('idle');
      return;
    }

    let socket: WebSocket;
    try {
      socket = (this.options.createSocket ?? ((url: string) => new WebSocket(url)))(this.options.url ?? defaultRealtimeUrl());
    } catch (error) {
      this.options.onError?.({ code: 'internal', message: 'Could not open the realtime socket', cause: error });
      this.retryLater();
      return;
    }
    this.socket = socket;
    this.welcomed = false;
    this.awaitingPong = false;
    socket.onopen = () => this.send({ t: 'hello', d: { token, protocol: REALTIME_PROTOCOL } });
    socket.onmessage = (event: MessageEvent) => this.onMessage(socket, event.data);
    socket.onclose = (event: CloseEvent) => this.onClose(socket, event.code);
    socket.onerror = () => {
      // The close event that follows carries what there is to know; reconnecting starts there.
    };
    this.connectTimer = setTimeout(() => this.lose(socket), this.options.connectTimeoutMs ?? 10_000);
    this.pingTimer = setInterval(() => this.heartbeat(socket), this.options.pingIntervalMs ?? 25_000);
  }

  private onMessage(socket: WebSocket, data: unknown): void {
    if (socket !== this.socket) return;
    this.awaitingPong = false;
    const parsed = this.parse!(typeof data === 'string' ? data : String(data));
    if (!parsed.ok) {
      this.options.onError?.({ code: 'bad_message', message: `Unreadable server message: ${parsed.error}` });
      return;
    }
    this.handle(parsed.message);
  }

  private handle(message: ServerMessage): void {
    switch (message.t) {
      case 'welcome': {
        clearTimeout(this.connectTimer);
        this.welcomed = true;
        this.userId = message.d.userId;
        this.attempt = 0;
        const reconnected = this.welcomedBefore;
        this.welcomedBefore = true;
        for (const [topic, entry] of this.topics) {
          // Without a version to resume from, the topic is followed from nothing again.
          entry.resuming = reconnected && entry.v !== undefined;
          if (entry.v === undefined) entry.confirmed = false;
          this.send({ t: 'sub', d: entry.v === undefined ? { topic } : { topic, since: entry.v } });
        }
        this.setStatus('connected');
        return;
      }
      case 'event': {
        const { topic, v, type, payload } = message.d;
        const entry = this.topics.get(topic);
        if (!entry) return;
        const verdict = checkVersion(entry.v, v);
        if (verdict === 'duplicate') return;
        if (verdict === 'gap') this.emit(topic, entry, { kind: 'gap', topic });
        entry.v = v;
        this.emit(topic, entry, { kind: 'event', topic, v, type, payload });
        return;
      }
      case 'subscribed': {
        const entry = this.topics.get(message.d.topic);
        if (!entry) return;
        entry.v = message.d.v;
        const kind = entry.resuming ? 'resumed' : entry.confirmed ? null : 'subscribed';
        entry.resuming = false;
        entry.confirmed = true;
        if (kind) this.emit(message.d.topic, entry, { kind, topic: message.d.topic });
        return;
      }
      case 'hint': {
        const { topic, type, payload } = message.d;
        const entry = this.topics.get(topic);
        if (entry) this.emit(topic, entry, { kind: 'hint', topic, type, payload });
        return;
      }
      case 'gap': {
        const entry = this.topics.get(message.d.topic);
        if (!entry) return;
        entry.v = undefined;
        this.emit(message.d.topic, entry, { kind: 'gap', topic: message.d.topic });
        return;
      }
      case 'error': {
        const { code, message: text, topic } = message.d;
        const entry = topic === undefined ? undefined : this.topics.get(topic);
        if (entry && topic !== undefined) this.emit(topic, entry, { kind: 'error', topic, code, message: text });
        else this.options.onError?.({ code, message: text });
        return;
      }
      case 'pong':
        return;
      // The answer to a move sent with sendMove.
      case 'moved': {
        const pending = message.d.ref === undefined ? undefined : this.pendingMoves.get(message.d.ref);
        if (!pending) return;
        this.pendingMoves.delete(message.d.ref!);
        clearTimeout(pending.timer);
        pending.resolve(message.d);
        return;
      }
      default:
        return assertNever(message);
    }
  }

  private onClose(socket: WebSocket, code: number): void {
    if (socket !== this.socket) return;
    this.clearSocket();
    if (!this.running) return;
    // An outdated app will not get better by hammering the server: wait the longest.
    if (code === REALTIME_CLOSE.protocol) this.attempt = Math.max(this.attempt, 30);
    // Over a limit (too many sockets or messages): coming straight back would only meet it again.
    if (code === REALTIME_CLOSE.tooMany) this.attempt = Math.max(this.attempt, TOO_MANY_ATTEMPT);
    this.retryLater();
  }

  private heartbeat(socket: WebSocket): void {
    if (socket !== this.socket || socket.readyState !== OPEN) return;
    if (this.awaitingPong) {
      this.lose(socket);
      return;
    }
    this.awaitingPong = true;
    this.send({ t: 'ping' });
  }

  /** The socket is dead or stuck: stop waiting for its close event and try again now. */
  private lose(socket: WebSocket): void {
    if (socket !== this.socket) return;
    this.dropSocket(REALTIME_CLOSE.dead, 'no answer');
    if (this.running) this.retryLater();
  }

  private retryLater(): void {
    clearTimeout(this.retryTimer);
    const { minMs = RECONNECT.minMs, maxMs = RECONNECT.maxMs } = this.options.backoff ?? {};
    const delay = backoffDelay(this.attempt, (this.options.random ?? Math.random)(), minMs, maxMs);
    this.attempt++;
    this.setStatus('reconnecting');
    this.retryTimer = setTimeout(() => void this.open(), delay);
  }

  private readonly onOnline = (): void => {
    // Back online: do not sit out the backoff.
    if (!this.running || this.socket) return;
    clearTimeout(this.retryTimer);
    void this.open();
  };

  private dropSocket(code: number, reason: string): void {
    const socket = this.socket;
    if (!socket) return;
    this.clearSocket();
    socket.onopen = socket.onmessage = socket.onclose = null;
    // Closing a socket still connecting fires an error event; this one is ours and expected.
    socket.onerror = ignoreError;
    if (socket.readyState <= OPEN) socket.close(code, reason);
  }

  private clearSocket(): void {
    this.socket = null;
    this.welcomed = false;
    // Answers to moves sent on this socket can no longer arrive.
    for (const pending of this.pendingMoves.values()) {
      clearTimeout(pending.timer);
      pending.reject(new MoveUnanswered('The connection was lost before the move was answered'));
    }
    this.pendingMoves.clear();
    clearTimeout(this.connectTimer);
    clearInterval(this.pingTimer);
  }

  // ---------------------------------------------------------------------------------------

  private send(message: ClientMessage): void {
    if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify(message));
  }

  private emit(topic: string, entry: TopicEntry, update: RealtimeUpdate): void {
    for (const { listener } of [...entry.listeners]) {
      try {
        listener(update);
      } catch (error) {
        this.options.onError?.({ code: 'listener_failed', message: `A listener on ${topic} failed`, cause: error });
        if (!this.options.onError) console.error(error);
      }
    }
  }

  private setStatus(status: RealtimeStatus): void {
    if (status === this.status) return;
    this.status = status;
    for (const listener of [...this.statusListeners]) listener();
  }

  private eventSource(): Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | undefined {
    if (this.options.events) return this.options.events;
    return typeof globalThis.addEventListener === 'function' ? globalThis : undefined;
  }
}

function ignoreError(): void {}

function assertNever(value: never): never {
  throw new Error(`Unexpected realtime message ${JSON.stringify(value)}`);
}
