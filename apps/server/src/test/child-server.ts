// A real server process for tests that need one (`tsx apps/server/src/main.ts`): whether it
// stays up is then a plain fact (its exit code), not something an in-process test infers.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export interface ChildServer {
  process: ChildProcess;
  port: number;
  /** http://127.0.0.1:port */
  http: string;
  /** ws://127.0.0.1:port/realtime */
  ws: string;
  /** Everything it printed so far. */
  output(): string;
  /** SIGKILL if still running. */
  kill(): void;
}

/** Starts the server on `databaseUrl` and a free port; resolves once /api/health answers 200. */
export async function startChildServer(databaseUrl: string, env: Record<string, string> = {}): Promise<ChildServer> {
  const port = await freePort();
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      WEB_DIR: '',
      RUN_JOBS: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const http = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${http}/api/health`).catch(() => undefined);
    if (res?.ok) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      if (child.exitCode === null) child.kill('SIGKILL');
      throw new Error(`child server did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    process: child,
    port,
    http,
    ws: `ws://127.0.0.1:${port}/realtime`,
    output: () => output,
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
