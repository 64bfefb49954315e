import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/** Anything that runs SQL: the database itself, or one open transaction. */
export interface Queryable {
  /** `statement` names fixed SQL run on every write, planned once per connection (ignored in transaction pool mode). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], statement?: string): Promise<T[]>;
  /** Runs a script of several statements with no parameters (migrations, seeds). */
  exec(sql: string): Promise<void>;
  /** NOTIFY after commit, never on rollback (inside, it holds the notify lock through the flush); `gatherMs`: may wait for company. */
  notifyAfterCommit(channel: string, payload: string, gatherMs?: number): void;
}

export interface Database extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** PGlite only: the whole data folder as a tar.gz (see PgliteOptions.template). */
  dump?(): Promise<Buffer>;
  /** Runs `work` in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Every NOTIFY on `channel`, from any process; `onResumed` once a lost LISTEN connection is back, as what was sent meanwhile is gone. */
  listen(channel: string, onMessage: (payload: string) => void, onResumed?: () => void): Promise<() => Promise<void>>;
  /** Whether the LISTEN connection is up (readiness); true while nothing listens. */
  listenerUp?(): boolean;
  close(): Promise<void>;
  /** Connections and the LISTEN connection, as they are now (read on a metrics scrape). */
  stats?(): DatabaseStats;
}

export interface DatabaseStats {
  /** Connections running a query or a transaction, open and free, the most there may be; callers waiting for one. */
  pool: { inUse: number; idle: number; max: number; waiting: number };
  /** Whether notifications can be heard now (PGlite: always, in-process). */
  listening: boolean;
}

// bigint (int8) and numeric come back as strings by default; our amounts fit in JS numbers
// (|x| < 2^53 minor units), so parse them once here rather than at every call site.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

/** The socket under a pool client, to cork as node-pg's Query.submit does (outside its typings); undefined if a version moves it. */
function socketOf(client: pg.PoolClient): Corkable | undefined {
  const stream = (client as unknown as { connection?: { stream?: Partial<Corkable> } }).connection?.stream;
  return typeof stream?.cork === 'function' && typeof stream.uncork === 'function' ? (stream as Corkable) : undefined;
}

interface Corkable {
  cork(): void;
  uncork(): void;
}

/** The LISTEN connection is opened again after this long, doubling up to the most. */
const LISTEN_RETRY_FIRST_MS = 250;
const LISTEN_RETRY_MAX_MS = 5_000;

/** Else an unreachable host holds each request for the system's TCP timeout; keepalive finds a silent idle LISTEN peer. */
const CONNECT_TIMEOUT_MS = 5_000;
const KEEPALIVE_IDLE_MS = 30_000;

// The pool's own connectionTimeoutMillis would also bound the wait for a free client under
// load; only connecting is bounded, so the clients set it themselves.
class BoundedClient extends pg.Client {
  constructor(config: pg.ClientConfig = {}) {
    super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true, keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS });
    // Always one listener: the pool leaves a client without one while it connects, and an
    // 'error' then (a backend terminated mid-startup) would end the process. Queries fail on their own.
    this.on('error', () => undefined);
  }
}

export interface PostgresOptions {
  /** Pool size. */
  max?: number;
  /** DATABASE_LISTEN_URL: LISTEN needs its own session, which a transaction-mode PgBouncer cannot give. Default: `url`. */
  listenUrl?: string;
  /** DATABASE_POOL_MODE 'transaction': `url` is a PgBouncer that may lose a prepared statement between connections, so none is named. */
  poolMode?: 'session' | 'transaction';
}

export function openPostgres(url: string, options: PostgresOptions = {}): Database {
  // Named statements are parsed once per connection; through a transaction pooler, every time.
  const named = options.poolMode !== 'transaction';
  // Pipelined, so a transaction's BEGIN travels with its first statement.
  const max = options.max ?? 20;
  const pool = new pg.Pool({ connectionString: url, max, pipeline: true, Client: BoundedClient });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  let closed = false;
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const resumers = new Set<() => void>();

  // One connection LISTENs for the whole process. If it drops, it is opened again with backoff
  // and LISTENs on every channel; then `onResumed` tells the listeners to catch up.
  let listening: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let retrying = false;

  function listenerClient(): Promise<pg.Client> {
    if (listening) return Promise.resolve(listening);
    const attempt = (connecting ??= (async () => {
      const client = new BoundedClient({ connectionString: options.listenUrl ?? url });
      client.on('notification', (msg) => {
        if (client !== listening) return;
        for (const handler of handlers.get(msg.channel) ?? []) handler(msg.payload ?? '');
      });
      // Always listened to: an 'error' with no listener would end the process.
      client.on('error', () => lost(client));
      client.on('end', () => lost(client));
      try {
        await client.connect();
        for (const channel of handlers.keys()) await client.query(`LISTEN ${quoteIdent(channel)}`);
      } catch (error) {
        // Not awaited: ending a half-open connection must not hold up the next try.
        client.end().catch(() => undefined);
        throw error;
      }
      if (closed) {
        client.end().catch(() => undefined);
        throw new Error('The database is closed');
      }
      listening = client;
      return client;
    })());
    attempt.then(
      () => {
        if (connecting === attempt) connecting = undefined;
      },
      () => {
        if (connecting === attempt) connecting = undefined;
      },
    );
    return attempt;
  }

  function lost(client: pg.Client) {
    if (client !== listening) return; // still connecting: that attempt fails and says so
    listening = undefined;
    retryListen(LISTEN_RETRY_FIRST_MS);
  }

  function retryListen(delayMs: number) {
    if (closed || retrying || handlers.size === 0) return;
    retrying = true;
    setTimeout(() => {
      retrying = false;
      if (closed) return;
      listenerClient().then(
        () => {
          for (const resumed of resumers) resumed();
        },
        () => retryListen(Math.min(delayMs * 2, LISTEN_RETRY_MAX_MS)),
      );
    }, delayMs).unref();
  }

  const notifier = batchedNotifier(async (channels, payloads) => {
    // What it announces is already committed, so no disk flush; named, as it follows nearly every write.
    await pool.query({
      name: named ? 'versus_notify' : undefined,
      text: `SELECT set_config('synchronous_commit', 'off', true), pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS n (c, p)`,
      values: [channels, payloads],
    });
  });

  return {
    kind: 'postgres',
    async query<T>(sql: string, params?: unknown[], statement?: string) {
      const result = await pool.query({ name: named ? statement : undefined, text: sql, values: params });
      return result.rows as T[];
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    notifyAfterCommit: notifier,
    async transaction<T>(work: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect();
      // A checked-out client has no listener of the pool's: a connection lost mid-transaction
      // would emit an unhandled 'error' and end the process. Its queries fail on their own.
      let broken: Error | undefined;
      const onError = (error: Error) => {
        broken ??= error;
      };
      client.on('error', onError);
      const notes: [string, string, number | undefined][] = [];
      // BEGIN leaves corked with this tick's statements (one packet, one round trip saved); each waits for it too.
      const socket = socketOf(client);
      socket?.cork();
      const begun = client.query('BEGIN');
      begun.catch(() => undefined);
      if (socket) process.nextTick(() => socket.uncork());
      try {
        const tx: Queryable = {
          async query<R>(sql: string, params?: unknown[], statement?: string) {
            const [, result] = await Promise.all([begun, client.query({ name: named ? statement : undefined, text: sql, values: params })]);
            return result.rows as R[];
          },
          async exec(sql: string) {
            await Promise.all([begun, client.query(sql)]);
          },
          notifyAfterCommit(channel, payload, gatherMs) {
            notes.push([channel, payload, gatherMs]);
          },
        };
        const result = await work(tx);
        await begun;
        await client.query('COMMIT');
        for (const [channel, payload, gatherMs] of notes) notifier(channel, payload, gatherMs);
        return result;
      } catch (error) {
        // A client whose ROLLBACK failed is in no known state: it is destroyed, not pooled again.
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken ??= rollbackError;
        });
        throw error;
      } finally {
        client.removeListener('error', onError);
        client.release(broken);
      }
    },
    async listen(channel, onMessage, onResumed) {
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        try {
          const client = await listenerClient();
          await client.query(`LISTEN ${quoteIdent(channel)}`);
        } catch (error) {
          handlers.delete(channel);
          throw error;
        }
      }
      set.add(onMessage);
      if (onResumed) resumers.add(onResumed);
      return async () => {
        set.delete(onMessage);
        if (onResumed) resumers.delete(onResumed);
      };
    },
    stats() {
      return {
        pool: { inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, max, waiting: pool.waitingCount },
        listening: listening !== undefined,
      };
    },
    listenerUp: () => handlers.size === 0 || listening !== undefined,
    async close() {
      closed = true;
      notifier.stop();
      const client = listening ?? (await connecting?.catch(() => undefined));
      listening = undefined;
      await client?.end().catch(() => undefined);
      await pool.end();
    },
  };
}

export interface PgliteOptions {
  /** A dumped, migrated data folder (tar.gz) to start a NEW database from, much faster than migrating. */
  template?: string;
}

/** The embedded database in `dataDir` ('memory://' keeps it in memory). */
export async function openPglite(dataDir: string, options: PgliteOptions = {}): Promise<Database> {
  const inMemory = dataDir.startsWith('memory://');
  let release = () => {};
  if (!inMemory) {
    fs.mkdirSync(dataDir, { recursive: true });
    release = takeLock(path.join(dataDir, 'versus.lock'));
  }
  const pgDir = inMemory ? dataDir : path.join(dataDir, 'pg');
  const isNew = inMemory || !fs.existsSync(path.join(pgDir, 'PG_VERSION'));
  const template = isNew && options.template && fs.existsSync(options.template) ? options.template : undefined;
  if (template && !inMemory) {
    // Straight onto disk: PGlite's loadDataDir copies through its in-memory file system, far slower.
    fs.rmSync(pgDir, { recursive: true, force: true });
    const unpacking = `${pgDir}.unpacking`;
    fs.rmSync(unpacking, { recursive: true, force: true });
    fs.mkdirSync(unpacking, { recursive: true });
    const { extract } = await import('tar');
    await extract({ file: template, cwd: unpacking, preservePaths: false });
    fs.renameSync(unpacking, pgDir);
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(pgDir, {
    parsers: { 20: (v: string) => Number(v), 1700: (v: string) => Number(v) },
    ...(template && inMemory ? { loadDataDir: new Blob([fs.readFileSync(template)]) } : {}),
  });
  let pending = 0;
  const busy = <R>(call: Promise<R>): Promise<R> => {
    pending++;
    return call.finally(() => pending--);
  };
  const notifier = batchedNotifier(async (channels, payloads) => {
    await db.query('SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS n (c, p)', [channels, payloads]);
  });
  return {
    async dump() {
      return Buffer.from(await (await db.dumpDataDir('gzip')).arrayBuffer());
    },
    kind: 'pglite',
    async query<T>(sql: string, params?: unknown[]) {
      return (await busy(db.query<T>(sql, params))).rows;
    },
    async exec(sql: string) {
      await busy(db.exec(sql));
    },
    notifyAfterCommit: notifier,
    async transaction<T>(work: (tx: Queryable) => Promise<T>) {
      const notes: [string, string, number | undefined][] = [];
      const result = await busy(
        db.transaction(async (tx) =>
          work({
            async query<R>(sql: string, params?: unknown[]) {
              return (await tx.query<R>(sql, params)).rows;
            },
            async exec(sql: string) {
              await tx.exec(sql);
            },
            notifyAfterCommit(channel, payload, gatherMs) {
              notes.push([channel, payload, gatherMs]);
            },
          }),
        ),
      );
      for (const [channel, payload, gatherMs] of notes) notifier(channel, payload, gatherMs);
      return result;
    },
    async listen(channel, onMessage) {
      const unlisten = await db.listen(channel, onMessage);
      return async () => unlisten();
    },
    stats() {
      // One connection: the first call in progress holds it, the others queue behind it.
      return {
        pool: { inUse: Math.min(1, pending), idle: pending > 0 ? 0 : 1, max: 1, waiting: Math.max(0, pending - 1) },
        listening: true,
      };
    },
    async close() {
      notifier.stop();
      await db.close();
      release();
    },
  };
}

/** While one batch is on its way the next gathers, so a burst of commits costs a few round trips; order is kept. */
export function batchedNotifier(send: (channels: string[], payloads: string[]) => Promise<void>) {
  let channels: string[] = [];
  let payloads: string[] = [];
  let sending = false;
  /** Something must leave now: a notification that may not wait, or one whose wait is over. */
  let due = false;
  let waiting: NodeJS.Timeout | undefined;
  async function flush() {
    sending = true;
    while (due && channels.length > 0) {
      // Everything waiting leaves now: a window still running is moot.
      due = false;
      clearTimeout(waiting);
      waiting = undefined;
      const batch = [channels, payloads] as const;
      channels = [];
      payloads = [];
      try {
        await send(...batch);
      } catch (error) {
        // The events are stored; listeners catch up from the table on the next notification.
        process.emitWarning(`NOTIFY of ${batch[0].length} event(s) failed: ${(error as Error).message}`);
      }
    }
    sending = false;
    if (channels.length === 0) due = false;
  }
  function leave() {
    clearTimeout(waiting);
    waiting = undefined;
    due = true;
    if (!sending) void flush();
  }
  const notify = (channel: string, payload: string, gatherMs = 0) => {
    channels.push(channel);
    payloads.push(payload);
    if (gatherMs <= 0) leave();
    // Waits even while a batch is out, or a steady stream of hints leaves in tiny batches back to back.
    else if (!waiting) waiting = setTimeout(leave, gatherMs);
  };
  /** Drops what is still gathering (the database is closing: hints only). */
  notify.stop = () => {
    clearTimeout(waiting);
    waiting = undefined;
  };
  return notify;
}

/** PGlite does not guard its folder and two writers corrupt it; a lock whose pid is gone is stale. */
export function takeLock(lockPath: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(lockPath, 'utf8'));
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new Error(
          `The embedded database in ${path.dirname(lockPath)} is in use by another Versus server (pid ${owner}). ` +
            'Stop that server, or set DATA_DIR or DATABASE_URL to run a second one.',
          { cause: error },
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// SQLSTATEs of a lost or refused connection: class 08 (connection exception), and the server
// shutting down (57P01 admin, 57P02 crash), starting up (57P03) or full (53300).
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300)$/;
// Node's socket errors, and node-pg's own for a connection it lost or never got.
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'timeout expired',
  'timeout exceeded when trying to connect',
];

/** The database was unreachable or the connection lost (not a wrong statement), so the request may be retried. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((start) => message.startsWith(start));
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
