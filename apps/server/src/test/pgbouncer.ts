// A PgBouncer of a test's own (Debian's package) in transaction mode, in front of the test
// PostgreSQL, on a free port, from a config file written to a temporary folder.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ADMIN_URL } from './database.ts';
import { freePort } from './free-port.ts';

export const PGBOUNCER = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';

/** Why PgBouncer cannot run here, or null when it can. */
export function pgbouncerUnavailable(): string | null {
  return fs.existsSync(PGBOUNCER) ? null : `${PGBOUNCER} not installed (Debian's pgbouncer package; .ci/run installs it)`;
}

export interface Bouncer {
  port: number;
  pid: number;
  /** `directUrl` (a database on the test PostgreSQL) as reached through this PgBouncer. */
  url(directUrl: string): string;
  /** The config file it runs from (docs/operations.md shows the same settings). */
  config: string;
  stop(): Promise<void>;
}

/** `poolSize` server connections per database and user; any database of the target server is reachable by its own name. */
export async function startPgbouncer(options: { poolSize?: number; target?: string } = {}): Promise<Bouncer> {
  const target = new URL(options.target ?? ADMIN_URL);
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'versus-pgbouncer-'));
  const user = decodeURIComponent(target.username || 'postgres');
  const config = `[databases]
* = host=${target.hostname} port=${target.port || 5432}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${path.join(dir, 'userlist.txt')}
pool_mode = transaction
default_pool_size = ${options.poolSize ?? 10}
max_client_conn = 500
ignore_startup_parameters = extra_float_digits
`;
  fs.writeFileSync(path.join(dir, 'userlist.txt'), `"${user}" ""\n`);
  const configPath = path.join(dir, 'pgbouncer.ini');
  fs.writeFileSync(configPath, config);
  // PgBouncer refuses to run as root: it then runs as postgres, which must read the folder.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    fs.chmodSync(dir, 0o755);
    for (const file of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, file), 0o644);
  }
  const child: ChildProcess = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), configPath], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = (directUrl: string) => {
    const through = new URL(directUrl);
    through.hostname = '127.0.0.1';
    through.port = String(port);
    return through.toString();
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT'); // PgBouncer's immediate shutdown
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = new pg.Client({ connectionString: url(target.toString()) });
    try {
      await probe.connect();
      await probe.query('SELECT 1');
      await probe.end();
      break;
    } catch (error) {
      await probe.end().catch(() => undefined);
      if (child.exitCode !== null || Date.now() > deadline) {
        await stop();
        throw new Error(`PgBouncer did not start: ${(error as Error).message}\n${log}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { port, pid: child.pid!, url, config, stop };
}
