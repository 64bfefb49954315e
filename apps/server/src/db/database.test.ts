import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { isDatabaseUnavailable, openPostgres } from './database.ts';

describe('PostgreSQL LISTEN connection', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  it('listens again after its connection is killed', async () => {
    const seen: string[] = [];
    await t.db.listen('versus_test_channel', (payload) => seen.push(payload));
    await t.db.query(`SELECT pg_notify('versus_test_channel', 'before')`);
    await expect.poll(() => seen).toEqual(['before']);

    await t.db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
    );
    await expect
      .poll(
        async () => {
          await t.db.query(`SELECT pg_notify('versus_test_channel', 'after')`);
          return seen.includes('after');
        },
        { timeout: 10_000, interval: 300 },
      )
      .toBe(true);
  });

  it('says when it listens again, so listeners can catch up on what the lost connection missed', async () => {
    let resumed = 0;
    const stop = await t.db.listen(
      'versus_resume_channel',
      () => undefined,
      () => resumed++,
    );
    await t.db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
    );
    await expect.poll(() => resumed, { timeout: 10_000 }).toBe(1);
    await stop();
  });
});

describe('a connection lost during a transaction', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ max: 2 });
    await t.db.exec('CREATE TABLE cut_probe (n int PRIMARY KEY)');
  });
  afterAll(() => t.drop());

  it('fails that transaction as unavailable, changes nothing, and leaves the process and the pool working', async () => {
    const work = t.db.transaction(async (tx) => {
      await tx.query('INSERT INTO cut_probe VALUES (1)');
      // Its own backend is terminated while the transaction is open (an idle checked-out client).
      const [me] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await t.db.query('SELECT pg_terminate_backend($1)', [me!.pid]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await tx.query('INSERT INTO cut_probe VALUES (2)');
    });
    const error = await work.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    expect(await t.db.query('SELECT n FROM cut_probe')).toEqual([]);
    // The broken client left the pool: the next transactions get working ones.
    for (let i = 0; i < 3; i++) await t.db.transaction((tx) => tx.query('INSERT INTO cut_probe VALUES ($1)', [10 + i]));
    expect(await t.db.query('SELECT count(*)::int AS n FROM cut_probe')).toEqual([{ n: 3 }]);
  });

  it('gives up connecting to a host that never answers, as unavailable, within seconds', async () => {
    // A peer that accepts and then stays silent, as a host behind a network partition does.
    const held: net.Socket[] = [];
    const silent = net.createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const db = openPostgres(`postgres://postgres@127.0.0.1:${port}/versus`, { max: 1 });
    try {
      const started = performance.now();
      const error = await db.query('SELECT 1').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
      expect(performance.now() - started).toBeLessThan(8_000);
    } finally {
      await db.close();
      for (const socket of held) socket.destroy();
      silent.close();
    }
  }, 15_000);

  it('survives a backend terminated in the same packet as its startup ends', async () => {
    // ReadyForQuery and a FATAL 57P01 read in one chunk: the pool hands the client out on the
    // first, and the error follows before the caller has attached its own listener.
    const message = (type: string, body: Buffer) => {
      const head = Buffer.alloc(5);
      head.write(type, 0, 'latin1');
      head.writeInt32BE(body.length + 4, 1);
      return Buffer.concat([head, body]);
    };
    const fields = ['SFATAL', 'VFATAL', 'C57P01', 'Mterminating connection due to administrator command'];
    const fatal = message('E', Buffer.from(`${fields.join('\0')}\0\0`, 'latin1'));
    const startupEnds = Buffer.concat([message('R', Buffer.from([0, 0, 0, 0])), message('Z', Buffer.from('I'))]);
    const server = net.createServer((socket) => {
      socket.once('data', () => socket.end(Buffer.concat([startupEnds, fatal])));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const db = openPostgres(`postgres://postgres@127.0.0.1:${port}/versus`, { max: 1 });
    try {
      const error = await db
        .transaction((tx) => tx.query('SELECT 1'))
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    } finally {
      await db.close();
      server.close();
    }
  });

  it('tells a lost or refused connection from a refused statement', () => {
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', '53300', 'ECONNREFUSED', 'ECONNRESET']) {
      expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code })), code).toBe(true);
    }
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    for (const code of ['23505', '40P01', '22P02', 'P0001', undefined]) {
      expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code })), String(code)).toBe(false);
    }
    expect(isDatabaseUnavailable('Connection terminated')).toBe(false);
  });
});

describe('PostgreSQL transactions (BEGIN pipelined with the first statement)', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await t.db.exec('CREATE TABLE tx_probe (n int PRIMARY KEY)');
  });
  afterAll(() => t.drop());

  it('runs every statement, the first one too, inside one transaction', async () => {
    const [first, second] = await t.db.transaction(async (tx) => {
      const [a] = await tx.query<{ xid: string | null; now: Date }>('SELECT txid_current()::text AS xid, now()');
      await new Promise((resolve) => setTimeout(resolve, 20));
      const [b] = await tx.query<{ xid: string | null; now: Date }>('SELECT txid_current_if_assigned()::text AS xid, now()');
      return [a!, b!];
    });
    expect(second.xid).toBe(first.xid);
    expect(second.now.getTime()).toBe(first.now.getTime());
  });

  it('keeps nothing of a transaction whose first statement succeeded and a later one failed', async () => {
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query('INSERT INTO tx_probe VALUES (1)');
        await tx.query('INSERT INTO tx_probe VALUES (1)');
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(await t.db.query('SELECT n FROM tx_probe')).toEqual([]);
  });

  it('keeps nothing when the work throws after its first statement, and the connection serves the next one', async () => {
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query('INSERT INTO tx_probe VALUES (2)');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await expect(
      t.db.transaction(async (tx) => (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM tx_probe'))[0]!.n),
    ).resolves.toBe(0);
  });

  it('sends BEGIN and the first statement in one write to the socket', async () => {
    await t.db.transaction((tx) => tx.query('SELECT 1')); // a connection open and idle in the pool
    const writes: string[] = [];
    const record = (chunks: Buffer[]) => writes.push(Buffer.concat(chunks).toString('latin1'));
    // Every write a socket makes reaches the kernel through one of these two.
    type Write = (this: net.Socket, ...args: unknown[]) => void;
    const proto = net.Socket.prototype as unknown as { _writev: Write; _write: Write };
    const { _writev: writev, _write: write } = proto;
    proto._writev = function (chunks, cb) {
      record((chunks as { chunk: Buffer }[]).map((c) => Buffer.from(c.chunk)));
      writev.call(this, chunks, cb);
    };
    proto._write = function (chunk, encoding, cb) {
      record([Buffer.from(chunk as Buffer)]);
      write.call(this, chunk, encoding, cb);
    };
    try {
      await t.db.transaction((tx) => tx.query('SELECT 2 AS probe'));
    } finally {
      proto._writev = writev;
      proto._write = write;
    }
    expect(writes).toHaveLength(2);
    expect(writes[0]).toContain('BEGIN');
    expect(writes[0]).toContain('SELECT 2 AS probe');
    expect(writes[1]).toContain('COMMIT');
  });

  it('begins alone when the first statement comes later, and still runs it inside the transaction', async () => {
    const [row] = await t.db.transaction(async (tx) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      await tx.query('INSERT INTO tx_probe VALUES (7)');
      return tx.query<{ n: number; open: boolean }>(`SELECT count(*)::int AS n, now() <> statement_timestamp() AS open FROM tx_probe`);
    });
    expect(row).toEqual({ n: 1, open: true });
    await t.db.query('DELETE FROM tx_probe');
  });

  it('answers statements sent together, each with its own rows', async () => {
    const rows = await t.db.transaction((tx) =>
      Promise.all([1, 2, 3].map((n) => tx.query<{ n: number }>('SELECT $1::int AS n', [n], 'tx_probe_n'))),
    );
    expect(rows.map(([row]) => row!.n)).toEqual([1, 2, 3]);
  });
});

describe('pool figures (for /metrics)', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ max: 1 });
  });
  afterAll(() => t.drop());

  it('counts the connection in use and the calls waiting for it', async () => {
    await t.db.query('SELECT 1');
    expect(t.db.stats!().pool).toEqual({ inUse: 0, idle: 1, max: 1, waiting: 0 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = t.db.transaction(async (tx) => {
      await tx.query('SELECT 1');
      await held;
    });
    await expect.poll(() => t.db.stats!().pool.inUse).toBe(1);
    const queued = t.db.query('SELECT 2');
    expect(t.db.stats!().pool).toEqual({ inUse: 1, idle: 0, max: 1, waiting: 1 });
    release();
    await Promise.all([transaction, queued]);
    expect(t.db.stats!().pool).toEqual({ inUse: 0, idle: 1, max: 1, waiting: 0 });
  });
});
