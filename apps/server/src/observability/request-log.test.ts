// One JSON line per answered request (docs/operations.md, "Logs").
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';

describe('request logs', () => {
  let database: TestDatabase;
  let app: App;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    app = await buildApp({
      config: loadConfig({ WEB_DIR: '', SEED_DEMO: 'false', RUN_JOBS: 'false' }),
      db: database.db,
      logger: { level: 'info', stream },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it('writes one line per request, with its method, path, status and time', async () => {
    lines.length = 0;
    await app.inject({ method: 'GET', url: '/api/nope?x=1' });
    await app.inject({ method: 'GET', url: '/api/health' });
    const requests = lines.filter((line) => line.req !== undefined);
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: '/api/nope?x=1' },
      res: { statusCode: 404 },
    });
    expect(requests[1]).toMatchObject({ req: { method: 'GET', url: '/api/health' }, res: { statusCode: 200 } });
    expect(typeof requests[1]!.responseTime).toBe('number');
  });
});
