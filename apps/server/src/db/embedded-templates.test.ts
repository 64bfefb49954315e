// A new embedded data folder starts from the build's template: demo accounts only when the demo is on.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { DEMO_USERS } from '../auth/demo.seed.ts';
import { loadConfig } from '../config.ts';
import { prepareDatabase } from '../startup.ts';
import { writeEmbeddedTemplates } from './embedded-templates.ts';

let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'versus-templates-'));
  await writeEmbeddedTemplates(dir);
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Starts as the server does on a new data folder with `env`, and signs in as the demo admin. */
async function freshStart(env: NodeJS.ProcessEnv) {
  const config = loadConfig({ ...env, DATA_DIR: fs.mkdtempSync(path.join(dir, 'data-')), WEB_DIR: '', RUN_JOBS: 'false' });
  const db = await prepareDatabase(config, dir);
  const app = await buildApp({ config, db, logger: false });
  try {
    const admin = DEMO_USERS.find((user) => user.role === 'admin')!;
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: admin.email, password: admin.password, account_type: admin.accountType },
    });
    const count = async (table: string) => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
    return {
      signIn: signIn.statusCode,
      role: signIn.statusCode === 200 ? signIn.json().user.role : null,
      users: await count('users'),
      challenges: await count('challenges'),
    };
  } finally {
    await app.close();
    await db.close();
  }
}

describe('a new embedded data folder', () => {
  it('holds the demo accounts and challenges in the zero-setup demo (no settings)', async () => {
    const start = await freshStart({});
    expect(start).toMatchObject({ signIn: 200, role: 'admin', users: DEMO_USERS.length });
    expect(start.challenges).toBeGreaterThan(0);
  }, 60_000);

  it('holds no account at all with SEED_DEMO=false', async () => {
    expect(await freshStart({ SEED_DEMO: 'false' })).toEqual({ signIn: 401, role: null, users: 0, challenges: 0 });
  }, 60_000);

  it('holds no account at all with NODE_ENV=production', async () => {
    expect(await freshStart({ NODE_ENV: 'production' })).toEqual({ signIn: 401, role: null, users: 0, challenges: 0 });
  }, 60_000);
});
