// The WebSocket hub, one per process: LISTENs once and fans each committed event out to the local sockets following its topic,
// every version in order, exactly once, from its subscription (or `since`); what live skipped is read back, what is gone is a `gap`.
import crypto from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import {
  REALTIME_CLOSE,
  REALTIME_ERROR_MESSAGES,
  REALTIME_LIMITS,
  REALTIME_PROTOCOL,
  parseClientMessage,
  type ClientMessageOf,
  type RealtimeErrorCode,
  type ServerMessage,
  type ServerMessageOf,
} from '@versus/domain/realtime';
import type { AccessClaims } from '../auth/claims.ts';
import { isDatabaseUnavailable, type Database } from '../db/database.ts';
import { MATCH_PRESENCE } from '@versus/domain/realtime-constants';
import { ProcessInbox, REALTIME_CHANNEL, sendAfterCommit, type EventNote, type MessageOn } from './process-protocol.ts';
import { isUnstoredTopic } from './publish.ts';
import { messageText } from './message-text.ts';
import { TopicPresence, readPresenceHint } from './presence.ts';
import { readEvent, readReplay, type StoredEvent } from './realtime.repository.ts';
import { SOCKET_LIMIT_DEFAULTS, SocketLimits, type Bucket, type SocketLimitOptions } from './socket-limits.ts';

/** A `move` from a signed-in socket, and the answer sent back as `moved`. */
export type MoveCommand = ClientMessageOf<'move'>['d'];
export type MoveAnswer = Omit<ServerMessageOf<'moved'>['d'], 'ref'>;

export interface HubOptions {
  db: Database;
  log: FastifyBaseLogger;
  /** The signed-in user for a `hello` token, or null; with `expiresAt` (epoch seconds) the socket is closed with 4401 at expiry. */
  verify(token: string): Promise<(AccessClaims & { expiresAt?: number; sessionId?: string }) | null>;
  /** Of these sessions, the ids still signed in; asked at each heartbeat, a socket whose session ended is closed with 4401. */
  liveSessions?(sessions: { userId: string; sessionId: string }[]): Promise<Set<string>>;
  /** Whether this user may follow this topic. */
  authorize(user: AccessClaims, topic: string): Promise<boolean>;
  /** An unstored topic's current version (publish.ts isUnstoredTopic); the owner records `follower` so its events come here. */
  ownerVersion?(topic: string, follower: string): Promise<number>;
  /** Plays a socket's `move` (the arena registers it), answered as `moved`; without it, moves are refused as bad messages. */
  move?(user: AccessClaims, move: MoveCommand): Promise<MoveAnswer>;
  /** Whether `user` counts as present on `topic` (presence.ts); without it, or on a no, a subscription announces nobody. */
  presentOn?(user: AccessClaims, topic: string): Promise<boolean>;
  /** How often the present are announced again (default MATCH_PRESENCE.beatMs). */
  presenceBeatMs?: number;
  helloTimeoutMs?: number;
  /** How often sockets are pinged; one that has not answered the previous ping is dropped. */
  heartbeatMs?: number;
  maxReplay?: number;
  /** Sockets per account and per address, and the message budget (socket-limits.ts). */
  limits?: Partial<SocketLimitOptions>;
}

export interface HubStats {
  sockets: number;
  authenticated: number;
  topics: number;
}

/** A version and its frame, built once for every subscriber; a gap marker (an unstored event too large) carries a `gap` frame. */
interface WireEvent {
  version: number;
  frame: Buffer;
  gap?: true;
}

/** A NOTIFY waiting its turn: inline, or a reference to load from realtime_events. */
type Incoming = WireEvent | { version: number; frame?: undefined };

/** How many of an unstored topic's latest events a hub keeps for sockets that resume (~0.9 KB a checkers event: bench/moves "Scale"). */
const RECENT_KEPT = 16;

interface Conn {
  socket: WebSocket;
  /** Its TCP socket, written with whole frames (textFrame); null: frames go through `socket.send`. */
  tcp: Socket | null;
  /** The client's address (counted against socketsPerAddress). */
  address: string;
  /** Its own message budget before hello, its account's shared one after. */
  bucket: Bucket;
  user: AccessClaims | null;
  /** The session the hello token was issued from (when the verifier names it). */
  sessionId: string | null;
  /** When the hello token expires, in ms since the epoch (Infinity: never). */
  expiresAtMs: number;
  openedAt: number;
  /** Cleared at each heartbeat, set by any sign of life. */
  alive: boolean;
  /** Its heartbeat's turn among the ticks (spread: a tick pings a share of the sockets, not all at once). */
  slot: number;
  topics: Map<string, TopicState>;
  /** The topics on which this socket's player counts as present (presence.ts). */
  present: Set<string>;
  /** Messages received and not yet handled; they are handled one at a time, in order. */
  queued: number;
  chain: Promise<void> | undefined;
}

/** A socket catching up on a topic; live events that arrive meanwhile wait in `buffer`. */
interface Pending {
  buffer: WireEvent[];
}

interface TopicState {
  /** Live subscribers and the last version each was sent. */
  subs: Map<Conn, number>;
  joining: Map<Conn, Pending>;
  /** Non-null while an event is being loaded: later events queue behind it to keep the order. */
  inbox: Incoming[] | null;
  /** An unstored topic's latest events, consecutive versions in order (at most RECENT_KEPT). */
  recent: WireEvent[];
}

interface CatchUpEntry {
  conn: Conn;
  pending: Pending;
  /** Send `subscribed` when done (a new subscription, not a repair). */
  announce: boolean;
  /** Send `gap` rather than the missed events (see onListenResumed). */
  gap?: boolean;
}

/** Adds `event` to an unstored topic's latest: a run of consecutive versions, the newest last. */
function keepRecent(recent: WireEvent[], event: WireEvent): void {
  const last = recent.at(-1);
  if (last && event.version <= last.version) return;
  if (event.gap || (last && event.version !== last.version + 1)) recent.length = 0;
  if (event.gap) return;
  recent.push(event);
  if (recent.length > RECENT_KEPT) recent.shift();
}

const OPEN = 1;
// A socket this far behind is not reading; it is cut off and will resume from its last version.
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
// More unhandled messages than this from one socket is a flood.
const MAX_QUEUED_MESSAGES = 100;
const CLOSE_DRAIN_MS = 2000;

/** A whole server text frame (RFC 6455 5.2: FIN, unmasked, no extension): the same bytes for every socket, built once. */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const header = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81;
  if (header === 2) frame[1] = length;
  else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  frame.write(text, header);
  return frame;
}

/** The text a frame carries (for a socket written through `ws`). */
export const framePayload = (frame: Buffer): Buffer => frame.subarray(frame[1] === 126 ? 4 : frame[1] === 127 ? 10 : 2);

export function eventFrame(topic: string, version: number, type: string, payloadJson: string): Buffer {
  return textFrame(
    `{"t":"event","d":{"topic":${JSON.stringify(topic)},"v":${version},"type":${JSON.stringify(type)},"payload":${payloadJson}}}`,
  );
}

const refOf = (d: { ref?: string | undefined }) => (d.ref === undefined ? {} : { ref: d.ref });

const wire = (event: StoredEvent): WireEvent => ({
  version: event.version,
  frame: eventFrame(event.topic, event.version, event.type, event.payloadJson),
});

/** An event this process committed, handed to its own hub without waiting for the NOTIFY. */
export type LocalEvent = EventNote;

/** The longest tick of the shared timer (see Hub.tickMs). */
const TICK_MAX_MS = 100;

export class RealtimeHub {
  /** Tags the NOTIFYs of events this process delivers itself (publishLocal), so its own inbox drops them at a glance. */
  readonly origin = crypto.randomBytes(6).toString('hex');
  /** Reads what the other processes send; counts what it cannot read. */
  readonly inbox: ProcessInbox<typeof REALTIME_CHANNEL>;

  private readonly db: Database;
  private readonly log: FastifyBaseLogger;
  private readonly verify: HubOptions['verify'];
  private readonly authorize: HubOptions['authorize'];
  private readonly ownerVersion: NonNullable<HubOptions['ownerVersion']>;
  private readonly move: HubOptions['move'];
  private readonly liveSessions: HubOptions['liveSessions'];
  private checkingSessions = false;
  private readonly helloTimeoutMs: number;
  private readonly heartbeatMs: number;
  private readonly maxReplay: number;
  private readonly limits: SocketLimits;
  private readonly presentOn: HubOptions['presentOn'];
  private readonly presenceBeatMs: number;
  private readonly presence: TopicPresence;

  private readonly conns = new Set<Conn>();
  private readonly awaitingHello = new Set<Conn>();
  private readonly topics = new Map<string, TopicState>();
  /** Unstored topics whose version is being read (and followed): sockets subscribing meanwhile share the read. */
  private readonly following = new Map<string, Promise<number>>();
  /** While frames are held (together): each socket's, to leave in one write. */
  private held: Map<Conn, Buffer | Buffer[]> | null = null;
  private timer: NodeJS.Timeout | undefined;
  /** The sockets by heartbeat slot: each tick takes the next slot, so a socket's turn comes once every heartbeatMs. */
  private readonly heartbeatSlots: Set<Conn>[];
  private ticks = 0;
  private opened = 0;
  private unlisten: (() => Promise<void>) | undefined;
  private closing = false;

  constructor(options: HubOptions) {
    this.db = options.db;
    this.log = options.log;
    this.verify = options.verify;
    this.authorize = options.authorize;
    this.ownerVersion = options.ownerVersion ?? ((topic) => Promise.reject(new Error(`realtime: no owner tells the version of ${topic}`)));
    this.move = options.move;
    this.liveSessions = options.liveSessions;
    this.helloTimeoutMs = options.helloTimeoutMs ?? REALTIME_LIMITS.helloTimeoutMs;
    this.heartbeatMs = options.heartbeatMs ?? 30_000;
    this.maxReplay = options.maxReplay ?? REALTIME_LIMITS.maxReplay;
    this.limits = new SocketLimits({ ...SOCKET_LIMIT_DEFAULTS, ...options.limits });
    this.presentOn = options.presentOn;
    this.presenceBeatMs = options.presenceBeatMs ?? MATCH_PRESENCE.beatMs;
    const slots = (everyMs: number) => Math.max(1, Math.round(everyMs / this.tickMs));
    this.presence = new TopicPresence((hint, gatherMs) => {
      if (!this.closing) sendAfterCommit(this.db, hint, gatherMs);
    }, slots(this.presenceBeatMs));
    this.heartbeatSlots = Array.from({ length: slots(this.heartbeatMs) }, () => new Set<Conn>());
    this.inbox = new ProcessInbox(REALTIME_CHANNEL, this.log, { ownOrigin: this.origin });
  }

  /**
   * The shared timer's period: a share of the sockets' heartbeats and of the presence beats at each tick. A tenth of a second:
   * at a tick a second, 5,000 matches' presence beat was 1,000 hints written in one 25–45 ms burst, every second.
   */
  get tickMs(): number {
    return Math.max(20, Math.min(TICK_MAX_MS, this.helloTimeoutMs / 4, this.heartbeatMs / 4, this.presenceBeatMs / 4));
  }

  /** Starts listening for events from every process, and the one shared heartbeat timer. */
  async start(): Promise<void> {
    this.unlisten = await this.inbox.listen(this.db, this.onNotify, this.onListenResumed);
    this.timer = setInterval(this.tick, this.tickMs);
    this.timer.unref();
  }

  stats(): HubStats {
    let authenticated = 0;
    for (const conn of this.conns) if (conn.user) authenticated++;
    return { sockets: this.conns.size, authenticated, topics: this.topics.size };
  }

  /** Topics followed, summed over sockets (live or catching up): read on a metrics scrape. */
  subscriptions(): number {
    let count = 0;
    for (const conn of this.conns) count += conn.topics.size;
    return count;
  }

  /** The players with a signed-in socket on this process (presence: see social/presence.ts). */
  signedInUserIds(): Set<string> {
    const ids = new Set<string>();
    for (const conn of this.conns) if (conn.user) ids.add(conn.user.userId);
    return ids;
  }

  /** Takes an upgraded socket (one over its address's cap: 4429 at once); `tcp` carries whole frames when no extension changes them. */
  accept(socket: WebSocket, address = 'unknown', tcp?: Socket): void {
    if (this.closing) {
      socket.close(REALTIME_CLOSE.restart, 'server restart');
      return;
    }
    if (!this.limits.open(address)) {
      socket.close(REALTIME_CLOSE.tooMany, 'too many connections from this address');
      return;
    }
    const conn: Conn = {
      socket,
      tcp: tcp && socket.extensions === '' ? tcp : null,
      address,
      bucket: this.limits.bucket(),
      user: null,
      sessionId: null,
      expiresAtMs: Infinity,
      openedAt: Date.now(),
      alive: true,
      slot: this.opened++ % this.heartbeatSlots.length,
      topics: new Map(),
      present: new Set(),
      queued: 0,
      chain: undefined,
    };
    this.conns.add(conn);
    this.heartbeatSlots[conn.slot]!.add(conn);
    this.awaitingHello.add(conn);
    socket.on('message', (data: RawData, isBinary: boolean) => this.onMessage(conn, data, isBinary));
    socket.on('pong', () => {
      conn.alive = true;
    });
    socket.on('close', () => this.drop(conn));
  }

  /** Closes every socket with 1012 (service restart) so clients reconnect elsewhere, then stops. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearInterval(this.timer);
    try {
      await this.unlisten?.();
    } catch (error) {
      this.log.warn({ err: error }, 'realtime: unlisten failed');
    }
    // What the sockets already sent (a move above all) is answered before they close.
    const handling = [...this.conns].flatMap((conn) => (conn.chain ? [conn.chain] : []));
    if (handling.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled(handling), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_DRAIN_MS)))]);
      clearTimeout(timer);
    }
    const sockets = [...this.conns].map((conn) => conn.socket);
    await new Promise<void>((resolve) => {
      let open = sockets.length;
      if (open === 0) return resolve();
      const force = setTimeout(() => {
        for (const socket of sockets) socket.terminate();
        resolve();
      }, CLOSE_DRAIN_MS);
      force.unref();
      const closed = () => {
        if (--open === 0) {
          clearTimeout(force);
          resolve();
        }
      };
      for (const socket of sockets) {
        if (socket.readyState === 3) closed();
        else {
          socket.once('close', closed);
          socket.close(REALTIME_CLOSE.restart, 'server restart');
        }
      }
    });
  }

  // ---------------------------------------------------------------------------------------
  // Inbound messages

  private onMessage(conn: Conn, data: RawData, isBinary: boolean): void {
    conn.alive = true;
    // Every message counts, pings and unreadable ones too, against the account's sockets together.
    if (!this.limits.take(conn.bucket)) {
      if (conn.socket.readyState !== OPEN) return;
      this.log.warn({ userId: conn.user?.userId, address: conn.address }, 'realtime: message flood, closing socket');
      conn.socket.close(REALTIME_CLOSE.tooMany, 'too many messages');
      return;
    }
    if (isBinary) return this.sendError(conn, 'bad_message');
    const parsed = parseClientMessage(messageText(data));
    if (!parsed.ok) return this.sendError(conn, 'bad_message', `${REALTIME_ERROR_MESSAGES.bad_message}: ${parsed.error}`);
    const message = parsed.message;
    if (message.t === 'ping') return this.send(conn, { t: 'pong' });
    // Closing: a move that comes now is refused as over HTTP (503), to be sent again after reconnecting.
    if (this.closing && message.t === 'move') {
      return this.send(conn, {
        t: 'moved',
        d: {
          ...refOf(message.d),
          matchId: message.d.matchId,
          ok: false,
          status: 503,
          code: 'unavailable',
          message: REALTIME_ERROR_MESSAGES.unavailable,
        },
      });
    }
    if (conn.queued >= MAX_QUEUED_MESSAGES) {
      this.log.warn({ userId: conn.user?.userId }, 'realtime: message flood, closing socket');
      conn.socket.close(1008, 'too many messages');
      return;
    }
    // One at a time, in order: an `unsub` must not overtake the `sub` before it.
    conn.queued++;
    const run = async () => {
      try {
        await this.handle(conn, message);
      } catch (error) {
        // As over HTTP (app.ts): a lost database is a 503 to retry, anything else a 500.
        const unavailable = isDatabaseUnavailable(error);
        const code = unavailable ? 'unavailable' : 'internal';
        if (unavailable) this.log.warn({ err: error, t: message.t }, 'realtime: database unavailable');
        else this.log.error({ err: error, t: message.t }, 'realtime: message failed');
        if (message.t === 'move') {
          this.send(conn, {
            t: 'moved',
            d: {
              ...refOf(message.d),
              matchId: message.d.matchId,
              ok: false,
              status: unavailable ? 503 : 500,
              code,
              message: REALTIME_ERROR_MESSAGES[code],
            },
          });
        } else this.sendError(conn, code, undefined, 'topic' in message.d ? message.d.topic : undefined);
      } finally {
        if (--conn.queued === 0) conn.chain = undefined;
      }
    };
    conn.chain = conn.chain ? conn.chain.then(run) : run();
  }

  private async handle(conn: Conn, message: ClientMessageOf<'hello' | 'sub' | 'unsub' | 'move'>): Promise<void> {
    switch (message.t) {
      case 'hello':
        return this.hello(conn, message);
      case 'sub':
        return this.subscribe(conn, message);
      case 'unsub':
        return this.unsubscribe(conn, message.d.topic);
      case 'move':
        return this.playMove(conn, message);
    }
  }

  private async playMove(conn: Conn, message: ClientMessageOf<'move'>): Promise<void> {
    if (!conn.user) return this.sendError(conn, 'unauthenticated');
    if (!this.move) return this.sendError(conn, 'bad_message', `${REALTIME_ERROR_MESSAGES.bad_message}: moves are not played here`);
    const answer = await this.move(conn.user, message.d);
    if (answer.ok && message.d.ack === 'errors') return; // its event on match:{id} is the answer
    // Not `{ ...refOf(d), ...answer }`: a spread followed by new keys is V8's slow copy.
    this.send(conn, { t: 'moved', d: message.d.ref === undefined ? answer : { ref: message.d.ref, ...answer } });
  }

  private async hello(conn: Conn, message: ClientMessageOf<'hello'>): Promise<void> {
    if (conn.user) return this.sendError(conn, 'already_authenticated');
    if (message.d.protocol !== REALTIME_PROTOCOL) {
      this.sendError(conn, 'unsupported_protocol');
      conn.socket.close(REALTIME_CLOSE.protocol, 'unsupported protocol');
      return;
    }
    const user = await this.verify(message.d.token);
    if (conn.socket.readyState !== OPEN) return;
    if (!user) {
      this.sendError(conn, 'invalid_token');
      conn.socket.close(REALTIME_CLOSE.unauthenticated, 'invalid token');
      return;
    }
    const bucket = this.limits.signIn(user.userId);
    if (!bucket) {
      conn.socket.close(REALTIME_CLOSE.tooMany, 'too many connections for this account');
      return;
    }
    conn.bucket = bucket;
    conn.user = { userId: user.userId, role: user.role, accountType: user.accountType };
    conn.sessionId = user.sessionId ?? null;
    conn.expiresAtMs = user.expiresAt === undefined ? Infinity : user.expiresAt * 1000;
    this.awaitingHello.delete(conn);
    this.send(conn, { t: 'welcome', d: { userId: user.userId, protocol: REALTIME_PROTOCOL } });
  }

  private async subscribe(conn: Conn, message: ClientMessageOf<'sub'>): Promise<void> {
    const { topic, since } = message.d;
    if (!conn.user) return this.sendError(conn, 'unauthenticated', undefined, topic);
    if (!conn.topics.has(topic) && conn.topics.size >= REALTIME_LIMITS.maxTopicsPerSocket) {
      return this.sendError(conn, 'too_many_topics', undefined, topic);
    }
    if (!(await this.authorize(conn.user, topic))) return this.sendError(conn, 'forbidden_topic', undefined, topic);
    if (conn.socket.readyState !== OPEN) return;

    let state = this.topics.get(topic);
    if (!state) {
      state = { subs: new Map(), joining: new Map(), inbox: null, recent: [] };
      this.topics.set(topic, state);
    }
    state.subs.delete(conn);
    const pending: Pending = { buffer: [] };
    state.joining.set(conn, pending);
    conn.topics.set(topic, state);
    await this.catchUp(topic, state, since, [{ conn, pending, announce: true }]);
    await this.markPresent(conn, topic, state);
  }

  /** Counts the socket's player as present on the topic, when the topic has presence and they count. */
  private async markPresent(conn: Conn, topic: string, state: TopicState): Promise<void> {
    if (!this.presentOn || !conn.user || conn.present.has(topic)) return;
    if (!(await this.presentOn(conn.user, topic))) return;
    // Unsubscribed or gone meanwhile.
    if (conn.topics.get(topic) !== state || !this.conns.has(conn) || conn.present.has(topic)) return;
    conn.present.add(topic);
    this.presence.joined(topic, conn.user.userId);
  }

  private unsubscribe(conn: Conn, topic: string): void {
    const state = conn.topics.get(topic);
    if (!state) return;
    conn.topics.delete(topic);
    state.subs.delete(conn);
    state.joining.delete(conn);
    if (conn.present.delete(topic) && conn.user) this.presence.left(topic, conn.user.userId);
    this.forgetIfIdle(topic, state);
  }

  private drop(conn: Conn): void {
    if (!this.conns.has(conn)) return;
    this.limits.closed(conn.address);
    if (conn.user) this.limits.signedOut(conn.user.userId);
    this.conns.delete(conn);
    this.heartbeatSlots[conn.slot]!.delete(conn);
    this.awaitingHello.delete(conn);
    for (const topic of [...conn.topics.keys()]) this.unsubscribe(conn, topic);
  }

  // ---------------------------------------------------------------------------------------
  // Catching up: replay from the store, then switch to live without duplicates or reordering

  /** The topic's version from its owner, which records this process as a follower; one read at a time per topic. */
  private follow(topic: string): Promise<number> {
    const shared = this.following.get(topic);
    if (shared) return shared;
    const read = this.ownerVersion(topic, this.origin).finally(() => this.following.delete(topic));
    this.following.set(topic, read);
    return read;
  }

  /** Brings sockets from `since` (undefined: now) to live; each sits in `state.joining`, so live events wait in its buffer. */
  private async catchUp(topic: string, state: TopicState, since: number | undefined, entries: CatchUpEntry[]): Promise<void> {
    let current: number;
    let events: WireEvent[];
    try {
      if (isUnstoredTopic(topic)) {
        current = await this.follow(topic);
        events = since === undefined ? [] : state.recent.filter((e) => e.version > since && e.version <= current);
      } else {
        const replay = await readReplay(this.db, topic, since, this.maxReplay + 1);
        current = replay.current;
        events = replay.events.map(wire);
      }
    } catch (error) {
      this.log.error({ err: error, topic }, 'realtime: catching up failed');
      // The client reconnects and resumes from its last version once the store answers again.
      for (const { conn, pending } of entries) {
        if (state.joining.get(conn) !== pending) continue;
        this.unsubscribe(conn, topic);
        conn.socket.close(1011, 'store unavailable');
      }
      return;
    }
    for (const entry of entries) this.finishCatchUp(topic, state, since, current, events, entry);
  }

  private finishCatchUp(
    topic: string,
    state: TopicState,
    since: number | undefined,
    current: number,
    events: WireEvent[],
    entry: CatchUpEntry,
  ): void {
    // A replay leaves in one write.
    this.together(() => this.sendCatchUp(topic, state, since, current, events, entry));
  }

  private sendCatchUp(
    topic: string,
    state: TopicState,
    since: number | undefined,
    current: number,
    events: WireEvent[],
    { conn, pending, announce, gap }: CatchUpEntry,
  ): void {
    // Unsubscribed, subscribed again or gone while the store was read.
    if (state.joining.get(conn) !== pending) return;
    state.joining.delete(conn);

    let last = current;
    if (gap) this.send(conn, { t: 'gap', d: { topic } });
    else if (since !== undefined && since !== current) {
      const complete =
        since < current &&
        current - since <= this.maxReplay &&
        events.length === current - since &&
        events.every((event, i) => event.version === since + 1 + i);
      if (complete) for (const event of events) this.sendFrame(conn, event.frame);
      else this.send(conn, { t: 'gap', d: { topic } });
    }
    if (announce) this.send(conn, { t: 'subscribed', d: { topic, v: last } });

    for (let i = 0; i < pending.buffer.length; i++) {
      const event = pending.buffer[i]!;
      if (event.version <= last) continue;
      if (event.version !== last + 1 && !event.gap) {
        // Something committed between the read and the live stream went missing: go round again.
        const again: Pending = { buffer: pending.buffer.slice(i) };
        state.joining.set(conn, again);
        void this.catchUp(topic, state, last, [{ conn, pending: again, announce: false }]);
        return;
      }
      this.sendFrame(conn, event.frame);
      last = event.version;
    }
    state.subs.set(conn, last);
  }

  // ---------------------------------------------------------------------------------------
  // Live events

  /** This process's just-committed events, to its own sockets at once; their tagged NOTIFY still reaches the others. */
  publishLocal(events: readonly LocalEvent[]): void {
    if (this.closing) return;
    this.together(() => {
      for (const event of events) {
        const state = this.topics.get(event.topic);
        if (!state) continue; // nobody here follows it
        const item: WireEvent = { version: event.version, frame: eventFrame(event.topic, event.version, event.type, event.payloadJson) };
        if (state.inbox) state.inbox.push(item);
        else this.deliver(event.topic, state, item);
      }
    });
  }

  // A notification may carry many events: what one socket gets of them leaves in one write.
  private readonly onNotify = (message: MessageOn<typeof REALTIME_CHANNEL>): void => this.together(() => this.notified(message));

  private notified(message: MessageOn<typeof REALTIME_CHANNEL>): void {
    switch (message.t) {
      case 'event':
        return this.incomingEvent(message.d);
      case 'ref':
        return this.incoming(message.d.topic, { version: message.d.version });
      case 'gap':
        return this.incomingGap(message.d.topic, message.d.version);
      case 'refs':
        for (const { topic, version } of message.d) this.incoming(topic, { version });
        return;
      case 'events':
        for (const event of message.d) {
          if ('gap' in event) this.incomingGap(event.topic, event.version);
          else this.incomingEvent(event);
        }
        return;
      case 'hint': {
        const { topic, type, payload } = message.d;
        if (!this.topics.has(topic)) return;
        // Sockets get it as the browser protocol spells it: {t: 'hint', d}.
        this.hint(topic, textFrame(JSON.stringify({ t: 'hint', d: message.d } satisfies ServerMessage)));
        const presence = readPresenceHint(type, payload);
        if (presence?.ask) this.presence.answer(topic, presence.userId);
        return;
      }
    }
  }

  /** LISTEN lost and back: what was sent meanwhile is gone, so each followed topic gets `gap` (a fresh snapshot) and goes on live. */
  private readonly onListenResumed = (): void => {
    if (this.closing) return;
    this.log.warn({ topics: this.topics.size }, 'realtime: listening again after a lost database connection; followers resync');
    for (const [topic, state] of this.topics) {
      for (const conn of state.joining.keys()) this.send(conn, { t: 'gap', d: { topic } });
      this.resync(topic, state, true);
    }
  };

  private incomingEvent(e: EventNote): void {
    if (!this.topics.has(e.topic)) return; // nobody here follows it: no frame to build
    this.incoming(e.topic, { version: e.version, frame: eventFrame(e.topic, e.version, e.type, e.payloadJson) });
  }

  private incomingGap(topic: string, version: number): void {
    this.incoming(topic, { version, gap: true, frame: textFrame(JSON.stringify({ t: 'gap', d: { topic } } satisfies ServerMessage)) });
  }

  /** At once to every follower, those catching up too: a hint has no version, so it neither waits for events nor holds them up. */
  private hint(topic: string, frame: Buffer): void {
    const state = this.topics.get(topic);
    if (!state) return;
    for (const conn of state.subs.keys()) this.sendFrame(conn, frame);
    for (const conn of state.joining.keys()) this.sendFrame(conn, frame);
  }

  /** An event announced by a NOTIFY: delivered in order, loaded from the store when only referenced. */
  private incoming(topic: string, item: Incoming): void {
    const state = this.topics.get(topic);
    if (!state) return; // nobody here follows it
    if (state.inbox) {
      state.inbox.push(item);
    } else if (item.frame) {
      this.deliver(topic, state, item);
    } else {
      state.inbox = [item];
      void this.drain(topic, state);
    }
  }

  /** Delivers queued events in order, loading referenced ones from the store. */
  private async drain(topic: string, state: TopicState): Promise<void> {
    const inbox = state.inbox!;
    for (let item = inbox.shift(); item; item = inbox.shift()) {
      if (item.frame) {
        this.deliver(topic, state, item);
        continue;
      }
      let stored: StoredEvent | undefined;
      try {
        stored = await readEvent(this.db, topic, item.version);
        if (!stored) this.log.warn({ topic, version: item.version }, 'realtime: referenced event not found');
      } catch (error) {
        this.log.error({ err: error, topic, version: item.version }, 'realtime: loading an event failed');
      }
      if (stored) this.deliver(topic, state, wire(stored));
      else this.resync(topic, state);
    }
    state.inbox = null;
    this.forgetIfIdle(topic, state);
  }

  /** O(1) per subscriber: the next version is sent, one behind catches up; a gap marker goes to all behind it, who reload. */
  private deliver(topic: string, state: TopicState, event: WireEvent): void {
    if (isUnstoredTopic(topic)) keepRecent(state.recent, event);
    for (const pending of state.joining.values()) pending.buffer.push(event);
    let behind: Map<number, CatchUpEntry[]> | undefined;
    for (const [conn, last] of state.subs) {
      if (event.version <= last) continue;
      if (event.version === last + 1 || event.gap) {
        state.subs.set(conn, event.version);
        this.sendFrame(conn, event.frame);
        continue;
      }
      state.subs.delete(conn);
      const entry: CatchUpEntry = { conn, pending: { buffer: [event] }, announce: false };
      behind ??= new Map();
      const group = behind.get(last);
      if (group) group.push(entry);
      else behind.set(last, [entry]);
    }
    if (behind) this.catchUpGroups(topic, state, behind);
  }

  /** Every live subscriber reads back from its last version (an event was lost); with `gap`, told so instead (a hint may be lost too). */
  private resync(topic: string, state: TopicState, gap = false): void {
    const groups = new Map<number, CatchUpEntry[]>();
    for (const [conn, last] of state.subs) {
      const entry: CatchUpEntry = { conn, pending: { buffer: [] }, announce: false, gap };
      const group = groups.get(last);
      if (group) group.push(entry);
      else groups.set(last, [entry]);
    }
    state.subs.clear();
    this.catchUpGroups(topic, state, groups);
  }

  // Sockets that fell behind together usually share their last version: one read per group.
  private catchUpGroups(topic: string, state: TopicState, groups: Map<number, CatchUpEntry[]>): void {
    for (const [since, entries] of groups) {
      for (const { conn, pending } of entries) state.joining.set(conn, pending);
      void this.catchUp(topic, state, since, entries);
    }
  }

  private forgetIfIdle(topic: string, state: TopicState): void {
    if (state.subs.size === 0 && state.joining.size === 0 && !state.inbox && this.topics.get(topic) === state) {
      this.topics.delete(topic);
    }
  }

  // ---------------------------------------------------------------------------------------
  // Heartbeat: one shared timer for every socket, each tick a slot's share (no burst of 10,000 pings at once)

  private readonly tick = (): void => {
    const now = Date.now();
    for (const conn of this.awaitingHello) {
      if (now - conn.openedAt < this.helloTimeoutMs) continue;
      this.awaitingHello.delete(conn);
      this.sendError(conn, 'unauthenticated');
      conn.socket.close(REALTIME_CLOSE.unauthenticated, 'no hello');
    }
    this.presence.beat();
    const due = this.heartbeatSlots[this.ticks++ % this.heartbeatSlots.length]!;
    for (const conn of due) {
      if (!conn.alive) {
        conn.socket.terminate();
        continue;
      }
      if (now >= conn.expiresAtMs) {
        this.sendError(conn, 'invalid_token', REALTIME_ERROR_MESSAGES.invalid_token);
        conn.socket.close(REALTIME_CLOSE.unauthenticated, 'session expired');
        continue;
      }
      conn.alive = false;
      conn.socket.ping();
    }
    void this.closeSignedOut(due);
  };

  /** Closes those of these sockets whose session is no longer signed in (see HubOptions.liveSessions). */
  private async closeSignedOut(conns: Iterable<Conn>): Promise<void> {
    if (!this.liveSessions || this.checkingSessions) return;
    const signedIn = [...conns].filter((conn) => conn.user && conn.sessionId);
    if (signedIn.length === 0) return;
    this.checkingSessions = true;
    try {
      const sessions = new Map(signedIn.map((conn) => [conn.sessionId!, { userId: conn.user!.userId, sessionId: conn.sessionId! }]));
      const live = await this.liveSessions([...sessions.values()]);
      for (const conn of signedIn) {
        if (live.has(conn.sessionId!) || conn.socket.readyState !== OPEN) continue;
        this.sendError(conn, 'invalid_token', REALTIME_ERROR_MESSAGES.invalid_token);
        conn.socket.close(REALTIME_CLOSE.unauthenticated, 'signed out');
      }
    } catch (error) {
      // The store is unreachable: the sockets stay until it answers again.
      this.log.warn({ err: error }, 'realtime: could not check sessions');
    } finally {
      this.checkingSessions = false;
    }
  }

  // ---------------------------------------------------------------------------------------
  // Outbound

  private send(conn: Conn, message: ServerMessage): void {
    this.sendFrame(conn, textFrame(JSON.stringify(message)));
  }

  private sendError(conn: Conn, code: RealtimeErrorCode, message = REALTIME_ERROR_MESSAGES[code], topic?: string): void {
    this.send(conn, { t: 'error', d: topic ? { code, message, topic } : { code, message } });
  }

  /** Sends a whole frame (textFrame): held while `together` runs, else written at once. */
  private sendFrame(conn: Conn, frame: Buffer): void {
    const socket = conn.socket;
    if (socket.readyState !== OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.log.warn({ userId: conn.user?.userId }, 'realtime: socket not reading, dropping it');
      socket.terminate();
      return;
    }
    if (!conn.tcp) {
      socket.send(framePayload(frame), { binary: false });
      return;
    }
    const held = this.held;
    if (!held) {
      conn.tcp.write(frame);
      return;
    }
    const before = held.get(conn);
    if (before === undefined) held.set(conn, frame);
    else if (Array.isArray(before)) before.push(frame);
    else held.set(conn, [before, frame]);
  }

  /** Runs `send`: the frames it sends a socket leave together, in one write (one system call). */
  private together(send: () => void): void {
    if (this.held) return send();
    const held = new Map<Conn, Buffer | Buffer[]>();
    this.held = held;
    try {
      send();
    } finally {
      this.held = null;
      for (const [conn, frames] of held) {
        // Closed meanwhile: nothing may follow a close frame.
        if (conn.socket.readyState !== OPEN) continue;
        conn.tcp!.write(Array.isArray(frames) ? Buffer.concat(frames) : frames);
      }
    }
  }
}
