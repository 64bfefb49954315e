// The embedded path: the same schema and the same SQL on PGlite, plus its folder lock.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, takeLock, type Database } from './database.ts';
import { migrate } from './migrate.ts';
import { decode, REALTIME_CHANNEL } from '../realtime/process-protocol.ts';
import { publish } from '../realtime/publish.ts';
import { openMigratedPglite } from '../test/pglite-app.ts';

const topicOf = (payload: string) => {
  const decoded = decode(payload);
  return decoded.ok && decoded.message.t === 'event' ? decoded.message.d.topic : payload;
};

describe('embedded PGlite database', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openMigratedPglite();
  }, 60_000);
  afterAll(() => db.close());

  it('applies every migration, and a second run applies none', async () => {
    const applied = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(applied.length).toBeGreaterThan(0);
    expect(await migrate(db)).toEqual([]);
  });

  it('reports its one connection for /metrics: in use during a transaction, the calls behind it waiting', async () => {
    expect(db.stats!()).toEqual({ pool: { inUse: 0, idle: 1, max: 1, waiting: 0 }, listening: true });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.query('SELECT 1');
      await held;
    });
    const queued = db.query('SELECT 2');
    expect(db.stats!().pool).toEqual({ inUse: 1, idle: 0, max: 1, waiting: 1 });
    release();
    await Promise.all([transaction, queued]);
    expect(db.stats!().pool).toEqual({ inUse: 0, idle: 1, max: 1, waiting: 0 });
  });

  it('rolls back a failed transaction and delivers NOTIFY only on commit', async () => {
    const seen: string[] = [];
    const stop = await db.listen(REALTIME_CHANNEL, (payload) => seen.push(payload));
    await expect(
      db.transaction(async (tx) => {
        await publish(tx, 'user:rolled-back', 'test', { n: 1 });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await db.transaction((tx) => publish(tx, 'user:committed', 'test', { n: 2 }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await stop();
    expect(seen.map((p) => topicOf(p))).toEqual(['user:committed']);
    expect(await db.query('SELECT topic FROM realtime_events')).toEqual([{ topic: 'user:committed' }]);
  });

  it('can be dumped and loaded as a template for a new data folder', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'versus-pglite-'));
    const template = path.join(dir, 'template.tar.gz');
    fs.writeFileSync(template, await db.dump!());
    const copy = await openPglite(path.join(dir, 'data'), { template });
    try {
      expect(await copy.query('SELECT topic FROM realtime_events')).toEqual([{ topic: 'user:committed' }]);
    } finally {
      await copy.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('embedded database lock', () => {
  it('refuses a second owner while the first lives, and takes over a stale lock', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'versus-lock-'));
    const lock = path.join(dir, 'versus.lock');
    fs.writeFileSync(lock, String(process.ppid));
    expect(() => takeLock(lock)).toThrow(/in use by another Versus server/);
    fs.writeFileSync(lock, '999999999');
    const release = takeLock(lock);
    expect(fs.readFileSync(lock, 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(lock)).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
