// `npm run admin`: the command itself (spawned as the operator runs it, password piped in)
// against a test database, then the API with the account it made.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, USERNAME_RULE } from '@versus/domain';
import { auditLedger } from '../ledger/ledger.audit.ts';
import { diskStore } from '../storage/file-store.ts';
import { PostgresFileStore } from '../storage/postgres-file-store.ts';
import { createTestApp, type TestApp } from '../test/app.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let testApp: TestApp;
beforeAll(async () => {
  testApp = await createTestApp();
});
afterAll(() => testApp?.close());

/** Runs the admin command with `password` piped to it, on the test database unless `env` says otherwise. */
function admin(args: string[], password: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['apps/server/src/admin/admin.cli.ts', ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: testApp.database.url, SEED_DEMO: '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(`${password}\n`);
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

async function signIn(email: string, password: string) {
  const res = await testApp.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password, account_type: 'real' } });
  return { status: res.statusCode, body: res.json() };
}

const accounts = async () =>
  (await testApp.database.db.query<{ email: string }>('SELECT email FROM users ORDER BY email')).map((u) => u.email);

describe('npm run admin -- create', () => {
  it("refuses a password registration would refuse, with registration's message, and creates nothing", async () => {
    expect(await admin(['create', '--email', 'root@example.com'], '12345')).toEqual({
      code: 1,
      stdout: '',
      stderr: `${AUTH.passwordTooShort}\n`,
    });
    expect(await accounts()).toEqual([]);
  });

  it('refuses a common password, as registration does, and creates nothing', async () => {
    expect(await admin(['create', '--email', 'root@example.com'], 'password1')).toEqual({
      code: 1,
      stdout: '',
      stderr: `${AUTH.passwordTooCommon}\n`,
    });
    expect(await accounts()).toEqual([]);
  });

  it('creates an admin who signs in through the API and reaches the admin side', async () => {
    const run = await admin(['create', '--email', 'Root@Example.com', '--name', 'Rita Root'], 'a long secret');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('Admin account created: Root@Example.com (username Root)');

    const session = await signIn('root@example.com', 'a long secret');
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ email: 'root@example.com', username: 'Root', role: 'admin', accountType: 'real' });
    const dashboard = await testApp.app.inject({
      method: 'GET',
      url: '/api/admin/dashboard',
      headers: { authorization: `Bearer ${session.body.session.access_token}` },
    });
    expect(dashboard.statusCode).toBe(200);
    expect((await auditLedger(testApp.database.db)).problems).toEqual([]);
  });

  it('asks for --username when the email does not give a valid one', async () => {
    expect(await admin(['create', '--email', 'first.last@example.com'], 'a long secret')).toMatchObject({
      code: 1,
      stderr: `${USERNAME_RULE} Choose one with --username.\n`,
    });
  });

  it('refuses an email already taken, with registration’s message', async () => {
    expect(await admin(['create', '--email', 'root@example.com', '--username', 'other'], 'a long secret')).toMatchObject({
      code: 1,
      stderr: `${AUTH.emailTaken}\n`,
    });
  });
});

describe('npm run admin -- password', () => {
  it('sets a new password and ends the sessions signed in with the old one', async () => {
    const before = await signIn('root@example.com', 'a long secret');
    const run = await admin(['password', '--email', 'root@example.com'], 'another long secret');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect((await signIn('root@example.com', 'a long secret')).status).toBe(401);
    expect((await signIn('root@example.com', 'another long secret')).status).toBe(200);
    const old = await testApp.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { authorization: `Bearer ${before.body.session.access_token}` },
    });
    expect(old.statusCode).toBe(401);
  });

  it('refuses a short password, a common one and an unknown email', async () => {
    expect(await admin(['password', '--email', 'root@example.com'], 'short')).toMatchObject({
      code: 1,
      stderr: `${AUTH.passwordTooShort}\n`,
    });
    expect(await admin(['password', '--email', 'root@example.com'], 'qwerty123')).toMatchObject({
      code: 1,
      stderr: `${AUTH.passwordTooCommon}\n`,
    });
    expect(await admin(['password', '--email', 'nobody@example.com'], 'a long secret')).toMatchObject({
      code: 1,
      stderr: 'No account has the email nobody@example.com.\n',
    });
  });
});

describe('npm run admin, misused', () => {
  it('explains its usage for a missing command or email', async () => {
    const run = await admin([], 'a long secret');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('No command given.');
    expect(run.stderr).toContain('npm run admin -- create --email <email>');
    expect((await admin(['create'], 'a long secret')).stderr).toContain('--email is required.');
  });

  it('says to stop the server when it holds the embedded database', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'versus-admin-'));
    // This test's own process stands in for a running server.
    fs.writeFileSync(path.join(dataDir, 'versus.lock'), String(process.pid));
    try {
      const run = await admin(['create', '--email', 'root@example.com'], 'a long secret', { DATABASE_URL: '', DATA_DIR: dataDir });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`is in use by another Versus server (pid ${process.pid})`);
      expect(run.stderr).toContain('stop the Versus server, run this command, then start the server again');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('npm run admin -- import-files', () => {
  it('copies the uploads of DATA_DIR into the database under the same keys, with their types', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'versus-import-'));
    try {
      const disk = diskStore(dataDir);
      const files = { 'avatars/u1/u1-1.png': 'image/png', 'evidence/m1/shot.jpg': 'image/jpeg', 'feedback/u2/note.webp': 'image/webp' };
      for (const [key, type] of Object.entries(files)) await disk.put(key, Buffer.from(`bytes of ${key}`), type);
      fs.writeFileSync(path.join(dataDir, 'uploads/avatars/u1/half.png.123.tmp'), 'a write that never finished');

      const run = await admin(['import-files'], '', { DATA_DIR: dataDir });
      expect(run).toEqual({ code: 0, stdout: `3 files copied from ${dataDir}/uploads into the database.\n`, stderr: '' });
      const store = new PostgresFileStore(testApp.database.db);
      for (const [key, type] of Object.entries(files)) {
        expect(await store.get(key), key).toEqual({
          data: Buffer.from(`bytes of ${key}`),
          contentType: type,
          size: `bytes of ${key}`.length,
        });
      }
      expect(await admin(['import-files', '--email', 'x@example.com'], '')).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('import-files takes no options.'),
      });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
