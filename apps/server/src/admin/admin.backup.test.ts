// `npm run admin -- backup | restore`: the embedded database's backup and restore, run as the
// operator runs them (docs/operations.md names these same commands).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, takeLock } from '../db/database.ts';
import { auditLedger } from '../ledger/ledger.audit.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'versus-backup-'));
const live = path.join(work, 'data');
const backup = path.join(work, 'versus.backup.tar.gz');

function admin(args: string[], dataDir: string, stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['apps/server/src/admin/admin.cli.ts', ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, SEED_DEMO: 'false' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

async function emails(dataDir: string): Promise<string[]> {
  const db = await openPglite(dataDir);
  try {
    expect((await auditLedger(db)).ok).toBe(true);
    return (await db.query<{ email: string }>('SELECT email FROM users ORDER BY email')).map((u) => u.email);
  } finally {
    await db.close();
  }
}

beforeAll(async () => {
  const made = await admin(['create', '--email', 'first@example.com'], live, 'Correct-Horse-Battery-9\n');
  expect(made, made.stderr).toMatchObject({ code: 0 });
}, 120_000);
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('npm run admin -- backup', () => {
  it('refuses while a server holds the data folder, and writes nothing', async () => {
    const release = takeLock(path.join(live, 'versus.lock'));
    try {
      const run = await admin(['backup', '--out', backup], live);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/in use by another Versus server/);
      expect(fs.existsSync(backup)).toBe(false);
    } finally {
      release();
    }
  });

  it('writes the stopped database to a new file, and never over an existing one', async () => {
    const run = await admin(['backup', '--out', backup], live);
    expect(run, run.stderr).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Backup written: /) });
    expect(fs.statSync(backup).size).toBeGreaterThan(1000);
    const again = await admin(['backup', '--out', backup], live);
    expect(again).toMatchObject({ code: 1, stderr: `${backup} already exists; name a new file.\n` });
  });
});

describe('npm run admin -- restore', () => {
  it('restores into an empty folder: the accounts are back and the ledger audit is clean', async () => {
    const fresh = path.join(work, 'restored');
    const run = await admin(['restore', '--from', backup], fresh);
    expect(run, run.stderr).toMatchObject({ code: 0, stdout: `Restored ${backup} into ${fresh} (1 accounts).\n` });
    expect(await emails(fresh)).toEqual(['first@example.com']);
  });

  it('replaces a database only with --replace, keeping the one it replaced', async () => {
    await admin(['create', '--email', 'second@example.com'], live, 'Correct-Horse-Battery-9\n');
    expect(await emails(live)).toEqual(['first@example.com', 'second@example.com']);
    const refused = await admin(['restore', '--from', backup], live);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already holds a database\. Add --replace/);
    expect(await emails(live)).toEqual(['first@example.com', 'second@example.com']);

    const run = await admin(['restore', '--from', backup, '--replace'], live);
    expect(run, run.stderr).toMatchObject({ code: 0 });
    expect(await emails(live)).toEqual(['first@example.com']);
    const kept = fs.readdirSync(live).filter((name) => name.startsWith('pg.before-restore-'));
    expect(kept).toHaveLength(1);
  });

  it('refuses a file that is not a backup and leaves the database as it was', async () => {
    const junk = path.join(work, 'junk.tar.gz');
    fs.writeFileSync(junk, 'not a backup');
    const run = await admin(['restore', '--from', junk, '--replace'], live);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/is not a Versus embedded backup .*nothing was changed\./);
    expect(await emails(live)).toEqual(['first@example.com']);
  });

  it('is for the embedded database: with DATABASE_URL it points to pg_dump', async () => {
    const child = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const p = spawn(path.join(root, 'node_modules/.bin/tsx'), ['apps/server/src/admin/admin.cli.ts', 'backup', '--out', backup], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: 'postgres://127.0.0.1:5432/none' },
      });
      let stderr = '';
      p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      p.once('close', (code) => resolve({ code, stderr }));
    });
    expect(child).toEqual({
      code: 1,
      stderr: 'backup is for the embedded database; with DATABASE_URL, use pg_dump and pg_restore (docs/operations.md).\n',
    });
  });
});
