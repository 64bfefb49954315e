// The real server process (`tsx apps/server/src/main.ts`) in production mode: no start on a
// database where a demo account keeps its published password, nor with demo data asked for.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as repo from './auth/auth.repository.ts';
import { DEMO_USERS } from './auth/demo.seed.ts';
import { hashPassword } from './auth/passwords.ts';
import { SEED_DEMO_IN_PRODUCTION } from './config.ts';
import { seedDemo } from './db/seed.ts';
import { demoAccountsRefusal } from './startup.ts';
import { createTestDatabase, type TestDatabase } from './test/database.ts';
import { freePort } from './test/free-port.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const answers = (port: number) =>
  fetch(`http://127.0.0.1:${port}/api/health`).then(
    (res) => res.ok,
    () => false,
  );

interface Start {
  /** It answered /api/health (then it was stopped). */
  listening: boolean;
  code: number | null;
  stderr: string;
  port: number;
}

/** Starts the server with `env` and waits until it exits or answers. */
async function start(env: NodeJS.ProcessEnv): Promise<Start> {
  const port = await freePort();
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      WEB_DIR: '',
      RUN_JOBS: 'false',
      LOG_LEVEL: 'warn',
      SEED_DEMO: '',
      DRAIN_GRACE_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const outcome = await Promise.race([exited, new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), 200))]);
    if (outcome !== 'waiting') return { listening: false, code: outcome, stderr, port };
    if (await answers(port)) {
      child.kill('SIGTERM');
      return { listening: true, code: await exited, stderr, port };
    }
  }
  child.kill('SIGKILL');
  throw new Error(`The server neither started nor exited within 30 s: ${stderr}`);
}

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemo(database.db);
});
afterAll(() => database?.drop());

describe('starting in production', () => {
  it('refuses while demo accounts keep their published passwords, then starts once they are changed', async () => {
    const refused = await start({ NODE_ENV: 'production', DATABASE_URL: database.url });
    expect(refused).toMatchObject({ listening: false, code: 1 });
    expect(refused.stderr.trim()).toBe(demoAccountsRefusal(DEMO_USERS.map((user) => user.email)));
    expect(await answers(refused.port)).toBe(false);

    // Every one but alice changed: alice alone still blocks the start.
    for (const user of DEMO_USERS.filter((u) => u.username !== 'alice')) {
      const credentials = (await repo.findCredentialsByEmail(database.db, user.email))!;
      await repo.updatePasswordHash(database.db, credentials.id, await hashPassword(`${user.password}-changed`));
    }
    expect((await start({ NODE_ENV: 'production', DATABASE_URL: database.url })).stderr.trim()).toBe(
      demoAccountsRefusal(['alice@versus.test']),
    );

    const alice = (await repo.findCredentialsByEmail(database.db, 'alice@versus.test'))!;
    await repo.updatePasswordHash(database.db, alice.id, await hashPassword('a-new-secret'));
    expect(await start({ NODE_ENV: 'production', DATABASE_URL: database.url })).toMatchObject({ listening: true, stderr: '' });
  }, 120_000);

  it('refuses SEED_DEMO=true with a clear message', async () => {
    const refused = await start({ NODE_ENV: 'production', SEED_DEMO: 'true', DATABASE_URL: database.url });
    expect(refused).toMatchObject({ listening: false, code: 1, stderr: `${SEED_DEMO_IN_PRODUCTION}\n` });
  }, 60_000);
});
