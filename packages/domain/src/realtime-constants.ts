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
  /** A token bucket over all of an account's sockets (`tooMany` beyond); above maxTopicsPerSocket so a full subscribe fits. */
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

/** "Here" / "Away" on a match's screen; `timeoutMs` is three beats, since a process that died says nothing. */
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
