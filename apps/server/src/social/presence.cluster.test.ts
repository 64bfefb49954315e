// A player with a socket on one instance shows online to a friend asking another, through the heartbeat table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCIAL_LIMITS } from '@versus/domain/social';
import { buildApp, type App } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openPostgres, type Database } from '../db/database.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { listen, signUp, TestSocket } from '../realtime/test-socket.ts';

describe('presence across processes', () => {
  let database: TestDatabase;
  let secondDb: Database;
  let appA: App;
  let appB: App;
  let socket: TestSocket | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    secondDb = openPostgres(database.url);
    const config = loadConfig({ WEB_DIR: '', SEED_DEMO: 'false', RUN_JOBS: 'false' });
    appA = await buildApp({ config, db: database.db, logger: false });
    appB = await buildApp({ config, db: secondDb, logger: false });
    await appA.ready();
  });
  afterAll(async () => {
    socket?.close();
    await appA?.close();
    await appB?.close();
    await secondDb?.close();
    await database?.drop();
  });

  it('a socket on instance B makes its player online for a friend asking instance A', async () => {
    const urlB = await listen(appB);
    const a = await signUp(appA, 'presA');
    const b = await signUp(appA, 'presB');
    const as = (p: { token: string }) => ({ authorization: `Bearer ${p.token}` });
    const sent = await appA.inject({ method: 'POST', url: '/api/social/friends', headers: as(a), payload: { userId: b.userId } });
    expect(sent.statusCode).toBe(201);
    const accepted = await appA.inject({
      method: 'POST',
      url: `/api/social/requests/${sent.json<{ link: { id: string } }>().link.id}/accept`,
      headers: as(b),
    });
    expect(accepted.statusCode).toBe(200);
    const friendOf = async () =>
      (await appA.inject({ method: 'GET', url: '/api/social', headers: as(a) })).json<{
        friends: { user: { id: string }; presence: { online: boolean } }[];
      }>().friends[0]!;
    expect((await friendOf()).presence.online).toBe(false);

    socket = await TestSocket.signedIn(urlB, b.token);
    const deadline = Date.now() + SOCIAL_LIMITS.presenceBeatMs * 2;
    while (!(await friendOf()).presence.online) {
      if (Date.now() > deadline) throw new Error('B never showed online through instance A');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect((await friendOf()).user.id).toBe(b.userId);
  }, 40_000);
});
