// A real server process for tests that need one (apps/server/src/main.ts on tsx's loader): whether it
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
  /** Settles with the exit code (null: ended by a signal) once the process has exited. */
  exited: Promise<number | null>;
}

export interface ChildServerOptions {
  /** Listen here (a process restarted in place) rather than on a free port. */
  port?: number;
  /** Resolve once this answers 200 (default /api/health; /api/ready also waits for LISTEN). */
  until?: '/api/health' | '/api/ready';
  /** Run the build (apps/server/dist/main.js, `npm run build` first) rather than the source. */
  built?: boolean;
}

/** Resolves once /api/health answers 200; closes at once on SIGTERM unless `env` asks for a drain. */
export async function startChildServer(
  databaseUrl: string,
  env: Record<string, string> = {},
  options: ChildServerOptions = {},
): Promise<ChildServer> {
  const port = options.port ?? (await freePort());
  // Node itself with tsx's loader, not the tsx command: that one runs the server as its own child,
  // which a SIGKILL to the command would leave running.
  const entry = options.built ? ['apps/server/dist/main.js'] : ['--import', 'tsx', 'apps/server/src/main.ts'];
  const child = spawn(process.execPath, entry, {
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
      DRAIN_GRACE_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const http = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${http}${options.until ?? '/api/health'}`).catch(() => undefined);
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
    exited,
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
