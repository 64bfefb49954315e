// Builds the web app and the server, starts the real server on a fresh PostgreSQL database
// with demo data, and hands its address to the specs.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject) {
  if (!fs.existsSync('/usr/bin/chromium') && !process.env.CHROMIUM_PATH) {
    throw new Error('End-to-end tests need Chromium at /usr/bin/chromium (apt-get install -y --no-install-recommends chromium).');
  }
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: path.join(root, 'apps/web'), stdio: 'inherit' });
  execFileSync('node', ['build.mjs'], { cwd: path.join(root, 'apps/server'), stdio: 'inherit' });

  const database = `versus_e2e_${crypto.randomBytes(5).toString('hex')}`;
  await admin(`CREATE DATABASE ${database}`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const port = await freePort();

  const server: ChildProcess = spawn('node', ['apps/server/dist/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: url.toString(),
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      // No load balancer to wait for at teardown.
      DRAIN_GRACE_MS: '0',
      // Every test player signs up and looks up codes from 127.0.0.1; the limits have their own tests.
      SIGNUP_LIMIT_PER_ADDRESS: '1000000',
      SIGNUP_LIMIT_GLOBAL: '1000000',
      CODE_LIMIT_PER_ADDRESS: '1000000',
      // Cheaper password hashes in tests only, as in the integration tests: ~20 ms a sign-in, not ~200.
      ARGON2_MEMORY_COST_KIB: '4096',
      DATA_DIR: path.join(root, 'node_modules/.cache/e2e-data'),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(baseUrl, server);
  project.provide('baseUrl', baseUrl);
  project.provide('databaseUrl', url.toString());

  return async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  };
}

async function waitForHealth(baseUrl: string, server: ChildProcess) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode} before answering`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('The server did not answer /api/health within 60 s');
}
