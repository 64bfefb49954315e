import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** Embedded database and uploads live here when DATABASE_URL is not set. */
  dataDir: string;
  databaseUrl: string | undefined;
  signupsDisabled: boolean;
  /** Seed demo users and challenges into an empty database. */
  seedDemo: boolean;
  /** Built web app to serve; absent in API-only tests. */
  webDir: string | undefined;
  logLevel: string;
  /** Mark the refresh cookie Secure always (it is also Secure on any request that came over HTTPS). */
  secureCookies: boolean;
  /** Run scheduled jobs in this process (they still take a lock so each runs once). */
  runJobs: boolean;
  /**
   * Which proxies' X-Forwarded-For to believe for the client's address (sign-in limits per
   * address): false (the default: clients connect directly, the header is ignored), true (any),
   * a number of hops, or a list of proxy addresses / CIDRs.
   */
  trustProxy: boolean | number | string;
  /** Slow clients are cut off: see docs/security-c.md for why each number. */
  timeouts: HttpTimeouts;
}

export interface HttpTimeouts {
  /** The whole request head must arrive within this (a half-sent header is dropped with 408). */
  headersMs: number;
  /** The whole request, body included, must arrive within this. */
  requestMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveMs: number;
  /** A socket with no traffic either way is closed after this. */
  idleMs: number;
}

function millisecondsOf(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name]?.trim();
  if (!value) return fallback;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms <= 0) throw new Error(`${name} must be a positive number of milliseconds, got ${value}`);
  return ms;
}

function trustProxyOf(value: string | undefined): Config['trustProxy'] {
  const v = value?.trim() ?? '';
  if (v === '' || /^(false|no|off)$/i.test(v)) return false;
  if (/^(true|yes|on)$/i.test(v)) return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

const truthy = (value: string | undefined) => value !== undefined && /^(1|true|yes|on)$/i.test(value);

export function loadConfig(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(root, env.DATA_DIR ?? 'data'),
    databaseUrl: env.DATABASE_URL || undefined,
    signupsDisabled: truthy(env.SIGNUPS_DISABLED),
    seedDemo: env.SEED_DEMO === undefined ? true : truthy(env.SEED_DEMO),
    webDir: env.WEB_DIR === '' ? undefined : path.resolve(root, env.WEB_DIR ?? 'apps/web/dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    secureCookies: truthy(env.SECURE_COOKIES),
    runJobs: env.RUN_JOBS === undefined ? true : truthy(env.RUN_JOBS),
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    timeouts: {
      headersMs: millisecondsOf(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000),
      requestMs: millisecondsOf(env, 'HTTP_REQUEST_TIMEOUT_MS', 120_000),
      keepAliveMs: millisecondsOf(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000),
      idleMs: millisecondsOf(env, 'HTTP_IDLE_TIMEOUT_MS', 60_000),
    },
  };
}
