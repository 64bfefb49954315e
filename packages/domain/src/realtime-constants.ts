// The realtime protocol's constants and topic rule, without the message schemas (realtime.ts).

/** Bumped on any change a peer on the previous version would misread. */
export const REALTIME_PROTOCOL = 1;

/** Where the socket lives on the server. */
export const REALTIME_PATH = '/realtime';

export const REALTIME_LIMITS = {
  /** Without a valid `hello` within this time the server closes the socket (4401). */
  helloTimeoutMs: 10_000,
  /** Topics one socket may follow at once. */
  maxTopicsPerSocket: 200,
  /** A resume that would replay more events than this gets `gap` instead (a snapshot is cheaper). */
  maxReplay: 1000,
  /** Events are kept this long for resuming; older ones are pruned. */
  retentionMs: 24 * 60 * 60 * 1000,
  /** Open sockets of one account on one server process (a few tabs and devices need far fewer). */
  socketsPerAccount: 20,
  /** Open sockets from one address on one server process (a NAT or an office shares one). */
  socketsPerAddress: 200,
  /**
   * Messages of every kind (pings and unreadable ones too) from one account's sockets together,
   * or from one socket before its hello: a bucket of `messageBurst` that refills at
   * `messagesPerSecond`. Beyond it the socket that sent the message is closed with `tooMany`.
   * The burst exceeds maxTopicsPerSocket, so a client may subscribe to its fill at once.
   */
  messageBurst: 300,
  messagesPerSecond: 30,
} as const;

/** WebSocket close codes the server uses; clients reconnect on all but `protocol`. */
export const REALTIME_CLOSE = {
  /** The server is restarting or shutting down: reconnect (to another process). */
  restart: 1012,
  /** No valid `hello` in time, or its token was refused: get a fresh token, then reconnect. */
  unauthenticated: 4401,
  /** The client speaks another protocol version: reloading the app is the fix. */
  protocol: 4426,
  /** The server saw no sign of life from the client. */
  dead: 4408,
  /** Too many sockets for the account or the address, or too many messages: reconnect, but slowly. */
  tooMany: 4429,
} as const;

/** A topic is `prefix` or `prefix:id` (at most 160 characters in all). */
export const TOPIC_PATTERN = /^[a-z][a-z-]{0,31}(?::[A-Za-z0-9_.-]{1,120})?$/;

export const isTopic = (value: string): boolean => value.length <= 160 && TOPIC_PATTERN.test(value);

/**
 * Who is on a match's screen (the live arena's "Here" / "Away"): a hint `presence` on
 * `match:{id}` with MatchPresenceHint. A player's socket announces itself when it subscribes
 * (`ask`: the others present answer at once), `here: false` when its last socket on that server
 * process leaves, and again every `beatMs` while it stays. A player not heard of for `timeoutMs`
 * (three beats: a process that died says nothing) shows as Away.
 */
export const MATCH_PRESENCE = {
  hintType: 'presence',
  beatMs: 10_000,
  timeoutMs: 30_000,
} as const;

export interface MatchPresenceHint {
  userId: string;
  here: boolean;
  /** A newcomer's announcement: the players present answer with their own. */
  ask?: true;
}
