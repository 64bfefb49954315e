import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/** Anything that runs SQL: the database itself, or one open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of several statements with no parameters (migrations, seeds). */
  exec(sql: string): Promise<void>;
  /**
   * Sends a NOTIFY once the surrounding transaction has committed (at once outside one), never
   * if it rolls back. NOTIFY inside a transaction holds a global lock through the commit's disk
   * flush and so lines up every notifying commit behind the others; sent afterwards, batched,
   * with an asynchronous commit, it costs the money transactions nothing. What it announces is
   * already stored, so a NOTIFY lost to a crash only delays delivery (see the realtime hub); a
   * lost hint (publish.ts hint) is made good when the client next resumes and refetches.
   */
  notifyAfterCommit(channel: string, payload: string): void;
}

export interface Database extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** PGlite only: the whole data folder as a tar.gz (see PgliteOptions.template). */
  dump?(): Promise<Buffer>;
  /** Runs `work` in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Calls `onMessage` for every NOTIFY on `channel`, from this or any other process. */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

// bigint (int8) and numeric come back as strings by default; our amounts fit in JS numbers
// (|x| < 2^53 minor units), so parse them once here rather than at every call site.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export function openPostgres(url: string, options: { max?: number } = {}): Database {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 20 });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  let listener: Promise<pg.Client> | undefined;
  let closed = false;
  const handlers = new Map<string, Set<(payload: string) => void>>();

  // One connection LISTENs for the whole process. If it drops, a new one LISTENs again on
  // every channel (the realtime hub re-reads from its event table what passed meanwhile).
  function listenerClient(): Promise<pg.Client> {
    listener ??= (async () => {
      const client = new pg.Client({ connectionString: url });
      client.on('notification', (msg) => {
        for (const handler of handlers.get(msg.channel) ?? []) handler(msg.payload ?? '');
      });
      client.on('error', () => reconnect(client));
      client.on('end', () => reconnect(client));
      await client.connect();
      for (const channel of handlers.keys()) await client.query(`LISTEN ${quoteIdent(channel)}`);
      return client;
    })();
    listener.catch(() => {
      listener = undefined;
    });
    return listener;
  }

  function reconnect(dead: pg.Client) {
    void listener?.then((current) => {
      if (current !== dead) return;
      listener = undefined;
      retryListen(500);
    });
  }

  function retryListen(delayMs: number) {
    if (closed || handlers.size === 0) return;
    setTimeout(() => {
      if (closed) return;
      listenerClient().catch(() => retryListen(Math.min(delayMs * 2, 10_000)));
    }, delayMs).unref();
  }

  const notifier = batchedNotifier(async (channels, payloads) => {
    // synchronous_commit off for this one statement's implicit transaction: the notification
    // is a hint about data already committed, so it need not wait for a disk flush.
    await pool.query(
      `SELECT set_config('synchronous_commit', 'off', true), pg_notify(c, p)
         FROM unnest($1::text[], $2::text[]) AS n (c, p)`,
      [channels, payloads],
    );
  });

  return {
    kind: 'postgres',
    async query<T>(sql: string, params?: unknown[]) {
      const result = await pool.query(sql, params as unknown[]);
      return result.rows as T[];
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    notifyAfterCommit: notifier,
    async transaction<T>(work: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect();
      const notes: [string, string][] = [];
      try {
        await client.query('BEGIN');
        const tx: Queryable = {
          async query<R>(sql: string, params?: unknown[]) {
            return (await client.query(sql, params as unknown[])).rows as R[];
          },
          async exec(sql: string) {
            await client.query(sql);
          },
          notifyAfterCommit(channel, payload) {
            notes.push([channel, payload]);
          },
        };
        const result = await work(tx);
        await client.query('COMMIT');
        for (const [channel, payload] of notes) notifier(channel, payload);
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async listen(channel, onMessage) {
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        const client = await listenerClient();
        await client.query(`LISTEN ${quoteIdent(channel)}`);
      }
      set.add(onMessage);
      return async () => {
        set.delete(onMessage);
      };
    },
    async close() {
      closed = true;
      const client = await listener?.catch(() => undefined);
      await client?.end().catch(() => undefined);
      await pool.end();
    },
  };
}

export interface PgliteOptions {
  /**
   * A dumped, already migrated data folder (tar.gz) to start a NEW database from: loading it
   * takes about half a second where creating a database from nothing takes about six.
   */
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
    // Unpacked straight onto disk, a new database opens like an existing one (PGlite's own
    // loadDataDir copies through its in-memory file system and takes several times longer).
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
  const notifier = batchedNotifier(async (channels, payloads) => {
    await db.query('SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS n (c, p)', [channels, payloads]);
  });
  return {
    async dump() {
      return Buffer.from(await (await db.dumpDataDir('gzip')).arrayBuffer());
    },
    kind: 'pglite',
    async query<T>(sql: string, params?: unknown[]) {
      return (await db.query<T>(sql, params)).rows;
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
    notifyAfterCommit: notifier,
    async transaction<T>(work: (tx: Queryable) => Promise<T>) {
      const notes: [string, string][] = [];
      const result = await db.transaction(async (tx) =>
        work({
          async query<R>(sql: string, params?: unknown[]) {
            return (await tx.query<R>(sql, params)).rows;
          },
          async exec(sql: string) {
            await tx.exec(sql);
          },
          notifyAfterCommit(channel, payload) {
            notes.push([channel, payload]);
          },
        }),
      );
      for (const [channel, payload] of notes) notifier(channel, payload);
      return result;
    },
    async listen(channel, onMessage) {
      const unlisten = await db.listen(channel, onMessage);
      return async () => unlisten();
    },
    async close() {
      await db.close();
      release();
    },
  };
}

/**
 * Sends notifications in batches: while one batch is on its way, the next ones gather, so a
 * burst of commits costs a few round trips rather than one each. Order is kept.
 */
function batchedNotifier(send: (channels: string[], payloads: string[]) => Promise<void>) {
  let channels: string[] = [];
  let payloads: string[] = [];
  let sending = false;
  async function flush() {
    sending = true;
    while (channels.length > 0) {
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
  }
  return (channel: string, payload: string) => {
    channels.push(channel);
    payloads.push(payload);
    if (!sending) void flush();
  };
}

/**
 * PGlite does not guard its data folder against a second process, and two writers would
 * corrupt it. The lock file holds the owner's pid; a lock whose process is gone is stale.
 */
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

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
