// Several server processes on one database: events cross between them through LISTEN/NOTIFY
// (two app instances in this process and one real child server).
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALTIME_CLOSE } from '@versus/domain/realtime';
import { buildApp, type App } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openPostgres, type Database } from '../db/database.ts';
import { startChildServer } from '../test/child-server.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { publish, topics } from './publish.ts';
import { pruneEvents } from './realtime.repository.ts';
import { listen, signUp, TestSocket } from './test-socket.ts';

describe('realtime across server processes', () => {
  let database: TestDatabase;
  let secondDb: Database;
  let appA: App;
  let appB: App;
  let urlA: string;
  let urlB: string;
  let child: ChildProcess;
  let childPort: number;
  let user: { userId: string; token: string };
  const sockets: TestSocket[] = [];

  const connect = async (url: string) => {
    const socket = await TestSocket.signedIn(url, user.token);
    sockets.push(socket);
    return socket;
  };
  const subscribe = async (socket: TestSocket, topic: string, since?: number) => {
    socket.send({ t: 'sub', d: since === undefined ? { topic } : { topic, since } });
    return (await socket.next('subscribed', 10_000)).d.v;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    // Separate Database objects: separate pools and separate LISTEN connections.
    secondDb = openPostgres(database.url);
    const config = loadConfig({ WEB_DIR: '', SEED_DEMO: 'false', RUN_JOBS: 'false' });
    appA = await buildApp({ config, db: database.db, logger: false });
    appB = await buildApp({ config, db: secondDb, logger: false });
    urlA = await listen(appA);
    urlB = await listen(appB);
    user = await signUp(appA, 'cluster');

    const server = await startChildServer(database.url);
    child = server.process;
    childPort = server.port;
  }, 60_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    if (child.exitCode === null) child.kill('SIGKILL');
    await appA.close();
    await appB.close();
    await secondDb.close();
    await database.drop();
  });

  it('an event published through one app reaches a socket on the other, both ways', async () => {
    const topic = topics.user(user.userId);
    const onA = await connect(urlA);
    const onB = await connect(urlB);
    const v = await subscribe(onA, topic);
    expect(await subscribe(onB, topic)).toBe(v);

    await secondDb.transaction((tx) => publish(tx, topic, 'from-b', { n: 1 }));
    await database.db.transaction((tx) => publish(tx, topic, 'from-a', { n: 2 }));

    for (const socket of [onA, onB]) {
      const events = await socket.events(2);
      expect(events.map((e) => [e.v, e.type])).toEqual([
        [v + 1, 'from-b'],
        [v + 2, 'from-a'],
      ]);
    }
  });

  it('a request served by the child process reaches a socket here, and back', async () => {
    const topic = topics.user(user.userId);
    const here = await connect(urlA);
    const there = await connect(`ws://127.0.0.1:${childPort}/realtime`);
    const v = await subscribe(here, topic);
    await subscribe(there, topic);

    // A real API request handled by the child: the profile change publishes on user:{id}.
    const res = await fetch(`http://127.0.0.1:${childPort}/api/auth/user`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ display_name: 'Across Processes' }),
    });
    expect(res.status).toBe(200);
    const [event] = await here.events(1, 10_000);
    expect(event).toMatchObject({ topic, v: v + 1, type: 'profile.updated' });
    expect(JSON.stringify(event!.payload)).toContain('Across Processes');

    // And an event published here reaches the child's socket.
    await database.db.transaction((tx) => publish(tx, topic, 'to-child', {}));
    const fromChild = await there.events(2, 10_000);
    expect(fromChild.map((e) => [e.v, e.type])).toEqual([
      [v + 1, 'profile.updated'],
      [v + 2, 'to-child'],
    ]);
  });

  it('resumes on another process with exactly what was missed', async () => {
    const topic = topics.user(user.userId);
    const first = await connect(urlA);
    const seen = await subscribe(first, topic);
    first.close();
    await first.waitClosed();
    for (let n = 1; n <= 5; n++) await secondDb.transaction((tx) => publish(tx, topic, 'missed', { n }));

    const again = await connect(`ws://127.0.0.1:${childPort}/realtime`);
    again.send({ t: 'sub', d: { topic, since: seen } });
    const events = await again.events(5, 10_000);
    expect(events.map((e) => [e.v, (e.payload as { n: number }).n])).toEqual([1, 2, 3, 4, 5].map((n) => [seen + n, n]));
    expect((await again.next('subscribed')).d.v).toBe(seen + 5);
  });

  it('prunes concurrently from several processes without deleting twice or failing', async () => {
    for (let n = 0; n < 30; n++) await database.db.transaction((tx) => publish(tx, 'challenges', 'old', { n }));
    const [{ count } = { count: 0 }] = await database.db.query<{ count: number }>(
      `WITH aged AS (UPDATE realtime_events SET created_at = now() - interval '2 days' RETURNING 1)
       SELECT count(*)::int AS count FROM aged`,
    );
    const deleted = await Promise.all([
      pruneEvents(database.db, 86_400_000, 7),
      pruneEvents(secondDb, 86_400_000, 7),
      pruneEvents(database.db, 86_400_000, 7),
    ]);
    expect(deleted.reduce((a, b) => a + b, 0)).toBe(count);
    expect(await database.db.query('SELECT 1 FROM realtime_events')).toEqual([]);
  });

  it('closes its sockets with 1012 when a server shuts down (SIGTERM on the child, close() on an app)', async () => {
    const onChild = await connect(`ws://127.0.0.1:${childPort}/realtime`);
    const onB = await connect(urlB);
    await subscribe(onChild, 'challenges');
    await subscribe(onB, 'challenges');

    child.kill('SIGTERM');
    expect(await onChild.waitClosed(10_000)).toMatchObject({ code: REALTIME_CLOSE.restart });
    const exitCode = await new Promise<number | null>((resolve) =>
      child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
    );
    expect(exitCode).toBe(0);

    await appB.close();
    expect(await onB.waitClosed()).toMatchObject({ code: REALTIME_CLOSE.restart });

    // The survivor still delivers.
    const onA = await connect(urlA);
    const v = await subscribe(onA, 'challenges');
    await database.db.transaction((tx) => publish(tx, 'challenges', 'still-up', {}));
    expect((await onA.events(1))[0]).toMatchObject({ v: v + 1, type: 'still-up' });
  }, 30_000);
});
