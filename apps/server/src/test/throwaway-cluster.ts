// A PostgreSQL cluster of a test's own (Debian's pg_createcluster), on a free port, for tests
// that stop or restart the server itself: the shared one at 5432 must never be.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { freePort } from './free-port.ts';

const VERSIONS_DIR = '/usr/lib/postgresql';

/** Why a throwaway cluster cannot be made here, or null when it can. */
export function throwawayClusterUnavailable(): string | null {
  const tools = ['/usr/bin/pg_createcluster', '/usr/bin/pg_ctlcluster', '/usr/bin/pg_dropcluster'];
  const missing = tools.filter((tool) => !fs.existsSync(tool));
  if (missing.length > 0) return `${missing.join(', ')} not installed (Debian's postgresql-common)`;
  if (!newestVersion()) return `no PostgreSQL server under ${VERSIONS_DIR}`;
  return null;
}

function newestVersion(): string | undefined {
  if (!fs.existsSync(VERSIONS_DIR)) return undefined;
  return fs
    .readdirSync(VERSIONS_DIR)
    .filter((v) => /^\d+$/.test(v) && fs.existsSync(`${VERSIONS_DIR}/${v}/bin/postgres`))
    .sort((a, b) => Number(b) - Number(a))[0];
}

export interface ThrowawayCluster {
  port: number;
  /** The connection URL of `database` on it (trust auth, user postgres). */
  url(database: string): string;
  createDatabase(name: string): Promise<string>;
  start(): void;
  /** Fast shutdown: open connections are cut, as in a real restart or failover. */
  stop(): void;
  restart(): void;
  drop(): void;
}

export async function createThrowawayCluster(): Promise<ThrowawayCluster> {
  const version = newestVersion();
  if (!version) throw new Error(throwawayClusterUnavailable() ?? 'no PostgreSQL');
  const name = `versus_t_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  const port = await freePort();
  const run = (command: string, args: string[]) => execFileSync(command, args, { stdio: 'pipe', timeout: 60_000 });
  run('pg_createcluster', [version, name, '-p', String(port), '--', '--auth=trust']);
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const cluster: ThrowawayCluster = {
    port,
    url,
    async createDatabase(database) {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${database}`);
      } finally {
        await client.end();
      }
      return url(database);
    },
    // Directly, not through systemd (as .ci/run starts the shared one): the test owns the server.
    start: () => run('pg_ctlcluster', ['--skip-systemctl-redirect', version, name, 'start']),
    stop: () => run('pg_ctlcluster', ['--skip-systemctl-redirect', '-m', 'fast', version, name, 'stop']),
    restart: () => run('pg_ctlcluster', ['--skip-systemctl-redirect', '-m', 'fast', version, name, 'restart']),
    drop: () => run('pg_dropcluster', ['--stop', version, name]),
  };
  try {
    cluster.start();
  } catch (error) {
    cluster.drop();
    throw error;
  }
  return cluster;
}
