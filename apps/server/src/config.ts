import path from 'node:path';
import { ABUSE_LIMITS } from '@versus/domain';
import { REALTIME_LIMITS } from '@versus/domain/realtime-constants';

/** The abuse limits (docs/security.md); the ones a site may need to tune come from settings. */
export interface Limits {
  signUp: { windowSeconds: number; perAddress: number; global: number };
  codeLookups: { windowSeconds: number; perAddress: number; perAccount: number };
  socketsPerAccount: number;
  socketsPerAddress: number;
}

export interface Config {
  port: number;
  host: string;
  /** The embedded database lives here when DATABASE_URL is not set; uploads too with FILE_STORE=disk. */
  dataDir: string;
  databaseUrl: string | undefined;
  /** The LISTEN connection's PostgreSQL (DATABASE_LISTEN_URL): direct when DATABASE_URL is a PgBouncer. */
  databaseListenUrl: string | undefined;
  /** 'transaction': DATABASE_URL is a transaction-mode PgBouncer (statements go unnamed). */
  databasePoolMode: 'session' | 'transaction';
  signupsDisabled: boolean;
  /** NODE_ENV=production: never demo data, and no start while a demo account has its published password. */
  production: boolean;
  /** Demo users and challenges: by default only embedded outside production (the zero-setup demo); SEED_DEMO=true asks for it. */
  seedDemo: boolean;
  /** Built web app to serve; absent in API-only tests. */
  webDir: string | undefined;
  logLevel: string;
  /** Mark the refresh cookie Secure always (it is also Secure on any request that came over HTTPS). */
  secureCookies: boolean;
  /** Run scheduled jobs in this process (they still take a lock so each runs once). */
  runJobs: boolean;
  /** Which proxies' X-Forwarded-For gives the client's address: false (ignored), true (any), a hop count, or addresses / CIDRs. */
  trustProxy: boolean | number | string;
  limits: Limits;
  /** Slow clients are cut off: see docs/security.md for why each number. */
  timeouts: HttpTimeouts;
  /** Where /metrics is served, if anywhere (docs/operations.md, "Metrics and logs"). */
  metrics: MetricsExposure;
  /** Where uploads (avatars, evidence, feedback screenshots) are kept: docs/operations.md, "Files". */
  files: FileStoreConfig;
  /** On SIGTERM, serving on with /api/ready at 503 until the load balancer takes the process out (docs/operations.md). */
  drainGraceMs: number;
}

export interface MetricsExposure {
  /** METRICS_TOKEN: /metrics on the public port, for `Authorization: Bearer <token>` only (and required on `listen` too). */
  token: string | undefined;
  /** METRICS_PORT (and METRICS_HOST, default 127.0.0.1): a listener of its own serving only /metrics. */
  listen: { host: string; port: number } | undefined;
  /** METRICS_ESCROW_EVERY_SECONDS: a scrape re-reads escrow totals at most this often (0: every scrape). */
  escrowEveryMs: number;
  /** METRICS_AUDIT_EVERY_SECONDS: a scrape reruns the ledger audit (it reads every transfer) at most this often. */
  auditEveryMs: number;
}

/** FILE_STORE: the database (default), the data directory, or an S3-compatible bucket. */
export type FileStoreConfig = { kind: 'postgres' } | { kind: 'disk' } | ({ kind: 's3' } & S3Settings);

export interface S3Settings {
  bucket: string;
  /** An S3-compatible service's address (MinIO, R2, ...); absent for AWS itself. */
  endpoint: string | undefined;
  region: string;
  /** Absent: the SDK's own chain (AWS_* variables, an instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** bucket in the path (https://host/bucket/key) rather than the host name. */
  forcePathStyle: boolean;
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

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1, got ${raw}`);
  return value;
}

function wholeMs(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number of milliseconds (0 or more), got ${raw}`);
  return value;
}

function limitsOf(env: NodeJS.ProcessEnv): Limits {
  return {
    signUp: {
      ...ABUSE_LIMITS.signUp,
      perAddress: positiveInt(env, 'SIGNUP_LIMIT_PER_ADDRESS', ABUSE_LIMITS.signUp.perAddress),
      global: positiveInt(env, 'SIGNUP_LIMIT_GLOBAL', ABUSE_LIMITS.signUp.global),
    },
    codeLookups: {
      ...ABUSE_LIMITS.codeLookups,
      perAddress: positiveInt(env, 'CODE_LIMIT_PER_ADDRESS', ABUSE_LIMITS.codeLookups.perAddress),
    },
    socketsPerAccount: REALTIME_LIMITS.socketsPerAccount,
    socketsPerAddress: positiveInt(env, 'REALTIME_SOCKETS_PER_ADDRESS', REALTIME_LIMITS.socketsPerAddress),
  };
}

function trustProxyOf(value: string | undefined): Config['trustProxy'] {
  const v = value?.trim() ?? '';
  if (v === '' || /^(false|no|off)$/i.test(v)) return false;
  if (/^(true|yes|on)$/i.test(v)) return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

const truthy = (value: string | undefined) => value !== undefined && /^(1|true|yes|on)$/i.test(value);

export const SEED_DEMO_IN_PRODUCTION =
  'SEED_DEMO=true is refused with NODE_ENV=production: the demo accounts have published passwords. ' +
  'Unset SEED_DEMO, or run without NODE_ENV=production.';

function seedDemoOf(env: NodeJS.ProcessEnv, production: boolean, databaseUrl: string | undefined): boolean {
  if (!env.SEED_DEMO) return !production && !databaseUrl;
  const on = truthy(env.SEED_DEMO);
  if (on && production) throw new Error(SEED_DEMO_IN_PRODUCTION);
  return on;
}

export const POOL_MODE_NEEDS_LISTEN_URL =
  'DATABASE_POOL_MODE=transaction needs DATABASE_LISTEN_URL: LISTEN needs a session connection, ' +
  'so point it straight at PostgreSQL (not at the PgBouncer in DATABASE_URL).';

function poolModeOf(env: NodeJS.ProcessEnv): 'session' | 'transaction' {
  const mode = env.DATABASE_POOL_MODE || 'session';
  if (mode !== 'session' && mode !== 'transaction') throw new Error(`DATABASE_POOL_MODE must be session or transaction, got ${mode}`);
  if (mode === 'transaction' && !env.DATABASE_LISTEN_URL) throw new Error(POOL_MODE_NEEDS_LISTEN_URL);
  return mode;
}

/** Shorter is guessable: the token is the only thing between the internet and these figures. */
export const METRICS_TOKEN_MIN_LENGTH = 16;

function metricsOf(env: NodeJS.ProcessEnv, publicPort: number): MetricsExposure {
  const token = env.METRICS_TOKEN || undefined;
  if (token !== undefined && (token.length < METRICS_TOKEN_MIN_LENGTH || /[^\x21-\x7e]/.test(token))) {
    throw new Error(
      `METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} printable characters with no spaces (e.g. openssl rand -hex 32)`,
    );
  }
  const cadence = {
    escrowEveryMs: seconds(env, 'METRICS_ESCROW_EVERY_SECONDS', 30) * 1000,
    auditEveryMs: seconds(env, 'METRICS_AUDIT_EVERY_SECONDS', 300) * 1000,
  };
  if (!env.METRICS_PORT) {
    if (env.METRICS_HOST) throw new Error('METRICS_HOST needs METRICS_PORT: the port of the metrics listener');
    return { token, listen: undefined, ...cadence };
  }
  const port = Number(env.METRICS_PORT);
  if (!/^\d+$/.test(env.METRICS_PORT) || port > 65535) throw new Error(`METRICS_PORT must be a port number, got ${env.METRICS_PORT}`);
  if (port !== 0 && port === publicPort) throw new Error(`METRICS_PORT must differ from PORT (${publicPort}): it is a listener of its own`);
  return { token, listen: { host: env.METRICS_HOST || '127.0.0.1', port }, ...cadence };
}

function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number of seconds (0 or more), got ${raw}`);
  return Number(raw);
}

const FILE_STORES = ['postgres', 'disk', 's3'] as const;
const S3_SETTINGS = ['S3_BUCKET', 'S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'];

function fileStoreOf(env: NodeJS.ProcessEnv): FileStoreConfig {
  const kind = env.FILE_STORE || 'postgres';
  if (!(FILE_STORES as readonly string[]).includes(kind)) throw new Error(`FILE_STORE must be postgres, disk or s3, got ${kind}`);
  if (kind !== 's3') {
    // Most likely FILE_STORE=s3 was forgotten: files would silently go elsewhere.
    const stray = S3_SETTINGS.filter((name) => env[name]);
    if (stray.length > 0)
      throw new Error(
        `${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set but FILE_STORE is ${kind}: ` +
          'set FILE_STORE=s3, or remove the S3_ settings',
      );
    return { kind: kind as 'postgres' | 'disk' };
  }
  const bucket = env.S3_BUCKET ?? '';
  // S3's bucket naming rules, in short: 3-63 lower-case letters, digits, dots and hyphens.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new Error(`FILE_STORE=s3 needs S3_BUCKET, a bucket name (3-63 lower-case letters, digits, dots, hyphens), got "${bucket}"`);
  const endpoint = env.S3_ENDPOINT || undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^\s/]+(\/\S*)?$/.test(endpoint))
    throw new Error(`S3_ENDPOINT must be an http:// or https:// address, got ${endpoint}`);
  const region = env.S3_REGION || 'us-east-1';
  if (!/^[a-z0-9-]{1,40}$/.test(region)) throw new Error(`S3_REGION must be a region name such as us-east-1 (or auto), got ${region}`);
  const [accessKeyId, secretAccessKey] = [env.S3_ACCESS_KEY_ID || '', env.S3_SECRET_ACCESS_KEY || ''];
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey))
    throw new Error(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither (the AWS SDK then finds credentials itself)',
    );
  const pathStyle = env.S3_FORCE_PATH_STYLE || '';
  if (pathStyle && !/^(true|false)$/i.test(pathStyle)) throw new Error(`S3_FORCE_PATH_STYLE must be true or false, got ${pathStyle}`);
  return {
    kind: 's3',
    bucket,
    endpoint,
    region,
    credentials: accessKeyId ? { accessKeyId, secretAccessKey } : undefined,
    // Self-hosted S3-compatible services mostly answer only at https://host/bucket/key.
    forcePathStyle: pathStyle ? truthy(pathStyle) : endpoint !== undefined,
  };
}

/** The documented health check's fall × inter, plus one check's time (docs/operations.md). */
export const DRAIN_GRACE_DEFAULT_MS = 5_000;

export function loadConfig(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const databaseUrl = env.DATABASE_URL || undefined;
  const production = env.NODE_ENV === 'production';
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(root, env.DATA_DIR ?? 'data'),
    databaseUrl,
    databaseListenUrl: env.DATABASE_LISTEN_URL || undefined,
    databasePoolMode: poolModeOf(env),
    signupsDisabled: truthy(env.SIGNUPS_DISABLED),
    production,
    seedDemo: seedDemoOf(env, production, databaseUrl),
    webDir: env.WEB_DIR === '' ? undefined : path.resolve(root, env.WEB_DIR ?? 'apps/web/dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    secureCookies: truthy(env.SECURE_COOKIES),
    runJobs: env.RUN_JOBS === undefined ? true : truthy(env.RUN_JOBS),
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    limits: limitsOf(env),
    timeouts: {
      headersMs: positiveInt(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000),
      requestMs: positiveInt(env, 'HTTP_REQUEST_TIMEOUT_MS', 120_000),
      keepAliveMs: positiveInt(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000),
      idleMs: positiveInt(env, 'HTTP_IDLE_TIMEOUT_MS', 60_000),
    },
    metrics: metricsOf(env, port),
    files: fileStoreOf(env),
    // The embedded database admits one process: no load balancer to wait for.
    drainGraceMs: wholeMs(env, 'DRAIN_GRACE_MS', databaseUrl ? DRAIN_GRACE_DEFAULT_MS : 0),
  };
}
