// The realtime protocol: one message union per direction in a `{t, d}` envelope; every event carries
// its topic's version so a client that missed one resumes or fetches a snapshot.
import { z } from 'zod';
import { GENERIC } from './messages/shell.ts';
import { isUnstorable, unstorablePath } from './text.ts';

// Constants live apart so a page that needs only them (the first page) does not carry zod.
export * from './realtime-constants.ts';
import { REALTIME_PROTOCOL, REALTIME_LIMITS, TOPIC_PATTERN } from './realtime-constants.ts';

/** A topic is `prefix` or `prefix:id`: `user:{id}`, `match:{id}`, `room:{code}`, `challenges`... */
export const topicSchema = z.string().max(160).regex(TOPIC_PATTERN, 'topic must look like "prefix" or "prefix:id"');

/** Per-topic version: 1 for the first event on a topic, then +1 for each, without gaps. */
export const versionSchema = z.number().int().nonnegative();

// -------------------------------------------------------------------------------------------
// Client → server

export const clientMessageSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('hello'), d: z.object({ token: z.string().min(1).max(8192), protocol: z.number().int() }) }),
  z.object({ t: z.literal('sub'), d: z.object({ topic: topicSchema, since: versionSchema.optional() }) }),
  z.object({ t: z.literal('unsub'), d: z.object({ topic: topicSchema }) }),
  z.object({ t: z.literal('ping'), d: z.unknown().optional() }),
  /** POST /api/matches/:id/moves without an HTTP round trip; answered by `moved` with the same `ref`. */
  z.object({
    t: z.literal('move'),
    d: z.object({
      ref: z.string().max(64).optional(),
      matchId: z.string().max(64),
      move: z.unknown(),
      version: versionSchema,
      lagMs: z.number().min(0).max(60_000).optional(),
      premove: z.boolean().optional(),
      /** `errors`: only a refused move gets `moved`; an applied one is answered by its event alone. */
      ack: z.enum(['always', 'errors']).optional(),
    }),
  }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

// -------------------------------------------------------------------------------------------
// Server → client

export const REALTIME_ERROR_CODES = [
  /** Not JSON, or not one of the client messages. */
  'bad_message',
  /** `hello` named a protocol version this server does not speak. */
  'unsupported_protocol',
  /** The message needs a `hello` first. */
  'unauthenticated',
  /** The `hello` token is missing, forged or expired. */
  'invalid_token',
  /** A second `hello` on an authenticated socket. */
  'already_authenticated',
  /** This user may not follow this topic (or the topic is unknown). */
  'forbidden_topic',
  /** The socket follows too many topics. */
  'too_many_topics',
  /** The server failed; the message may be retried. */
  'internal',
  /** The database was unreachable for a moment; nothing was done, and the message may be retried. */
  'unavailable',
] as const;
export type RealtimeErrorCode = (typeof REALTIME_ERROR_CODES)[number];

export const REALTIME_ERROR_MESSAGES: Record<RealtimeErrorCode, string> = {
  bad_message: 'Unreadable message',
  unsupported_protocol: `This app is out of date: please reload it (protocol ${REALTIME_PROTOCOL} expected)`,
  unauthenticated: 'Say hello with an access token first',
  invalid_token: 'Your session has expired. Please sign in again.',
  already_authenticated: 'Already signed in on this connection',
  forbidden_topic: 'You cannot follow this topic',
  too_many_topics: `At most ${REALTIME_LIMITS.maxTopicsPerSocket} topics per connection`,
  internal: 'Something went wrong on the server; try again',
  unavailable: GENERIC.unavailable,
};

export const realtimeEventSchema = z.object({
  topic: topicSchema,
  v: versionSchema,
  type: z.string(),
  payload: z.unknown(),
});

export const serverMessageSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('welcome'), d: z.object({ userId: z.string(), protocol: z.number().int() }) }),
  z.object({ t: z.literal('event'), d: realtimeEventSchema }),
  /** A passing notice about state kept elsewhere (a balance): never stored, so a missed one is made good on `resumed`. */
  z.object({ t: z.literal('hint'), d: z.object({ topic: topicSchema, type: z.string(), payload: z.unknown() }) }),
  /** Now live on `topic`; `v` is the version the client is at (after any replayed events). */
  z.object({ t: z.literal('subscribed'), d: z.object({ topic: topicSchema, v: versionSchema }) }),
  /** Events the client missed on `topic` are no longer kept: fetch a snapshot. */
  z.object({ t: z.literal('gap'), d: z.object({ topic: topicSchema }) }),
  z.object({
    t: z.literal('error'),
    d: z.object({ code: z.enum(REALTIME_ERROR_CODES), message: z.string(), topic: topicSchema.optional() }),
  }),
  z.object({ t: z.literal('pong'), d: z.unknown().optional() }),
  /** The answer to a `move`: applied at `version`, or refused with what the HTTP route would answer. */
  z.object({
    t: z.literal('moved'),
    d: z.object({
      ref: z.string().optional(),
      matchId: z.string(),
      ok: z.boolean(),
      version: versionSchema.optional(),
      status: z.number().int().optional(),
      code: z.string().optional(),
      message: z.string().optional(),
    }),
  }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

type Envelope<U extends { t: string }, T extends U['t']> = Extract<U, { t: T }>;
export type ClientMessageOf<T extends ClientMessage['t']> = Envelope<ClientMessage, T>;
export type ServerMessageOf<T extends ServerMessage['t']> = Envelope<ServerMessage, T>;

export type RealtimeParseResult<M> = { ok: true; message: M } | { ok: false; error: string };

function parseWith<M>(schema: z.ZodType<M>, raw: unknown, refuseUnstorable = false): RealtimeParseResult<M> {
  const text = typeof raw === 'string' ? raw : String(raw);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not JSON: ${(error as Error).message}` };
  }
  // From a client, a NUL or an unpaired surrogate (JSON's \u escapes spell both) would reach SQL in a topic or a move.
  // Only an escape or the text itself can hold one: most messages need no walk through what they parsed.
  const at = refuseUnstorable && (text.includes('\\u') || isUnstorable(text)) ? unstorablePath(data) : null;
  if (at !== null) return { ok: false, error: at ? `${at}: ${GENERIC.invalidCharacters}` : GENERIC.invalidCharacters };
  if (refuseUnstorable && isPlainMove(data)) return { ok: true, message: data as M };
  const result = schema.safeParse(data);
  if (result.success) return { ok: true, message: result.data };
  const [issue] = result.error.issues;
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return { ok: false, error: `${where}${issue?.message ?? 'invalid message'}` };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const optionalString = (value: unknown) => value === undefined || (typeof value === 'string' && value.length <= 64);
const MOVE_KEYS = new Set(['ref', 'matchId', 'move', 'version', 'lagMs', 'premove', 'ack']);

// Every move a client sends takes this hand check of the schema's `move` shape; anything it does not accept exactly goes
// to zod, which accepts or words the error as it always did (the check accepts nothing zod refuses: realtime.test.ts).
function isPlainMove(data: unknown): boolean {
  if (!isRecord(data) || data.t !== 'move' || !isRecord(data.d)) return false;
  let keys = 0;
  for (const key in data) if (Object.hasOwn(data, key)) keys++;
  if (keys !== 2) return false;
  const d = data.d;
  for (const key in d) if (Object.hasOwn(d, key) && !MOVE_KEYS.has(key)) return false;
  const { version, lagMs, premove, ack } = d;
  return (
    Object.hasOwn(d, 'move') &&
    typeof d.matchId === 'string' &&
    d.matchId.length <= 64 &&
    optionalString(d.ref) &&
    typeof version === 'number' &&
    Number.isSafeInteger(version) &&
    version >= 0 &&
    (lagMs === undefined || (typeof lagMs === 'number' && lagMs >= 0 && lagMs <= 60_000)) &&
    (premove === undefined || typeof premove === 'boolean') &&
    (ack === undefined || ack === 'always' || ack === 'errors')
  );
}

/** Parses one text frame from a client; never throws. */
export const parseClientMessage = (raw: unknown): RealtimeParseResult<ClientMessage> => parseWith(clientMessageSchema, raw, true);

/** Parses one text frame from the server; never throws. */
export const parseServerMessage = (raw: unknown): RealtimeParseResult<ServerMessage> => parseWith(serverMessageSchema, raw);

/** `match:123` → { prefix: 'match', id: '123' }; `challenges` → { prefix: 'challenges' }. */
export function splitTopic(topic: string): { prefix: string; id: string | undefined } {
  const colon = topic.indexOf(':');
  return colon < 0 ? { prefix: topic, id: undefined } : { prefix: topic.slice(0, colon), id: topic.slice(colon + 1) };
}
