import { describe, expect, it } from 'vitest';
import {
  DRAIN_GRACE_DEFAULT_MS,
  loadConfig,
  METRICS_TOKEN_MIN_LENGTH,
  POOL_MODE_NEEDS_LISTEN_URL,
  SEED_DEMO_IN_PRODUCTION,
} from './config.ts';

describe('demo data setting', () => {
  it('is on by default only for the embedded database outside production', () => {
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/versus' }).seedDemo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).seedDemo).toBe(false);
    expect(loadConfig({ SEED_DEMO: '' }).seedDemo).toBe(true);
  });

  it('follows an explicit SEED_DEMO', () => {
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/versus', SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('refuses demo data in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'true' })).toThrow(SEED_DEMO_IN_PRODUCTION);
    expect(loadConfig({ NODE_ENV: 'production' }).production).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).production).toBe(false);
  });
});

describe('PgBouncer settings', () => {
  it('default to one URL for the pool and LISTEN, statements named', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://db.example/versus' });
    expect(config.databaseListenUrl).toBeUndefined();
    expect(config.databasePoolMode).toBe('session');
  });

  it('take a LISTEN URL and the transaction pool mode', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://bouncer.example:6432/versus',
      DATABASE_LISTEN_URL: 'postgres://db.example:5432/versus',
      DATABASE_POOL_MODE: 'transaction',
    });
    expect(config.databaseListenUrl).toBe('postgres://db.example:5432/versus');
    expect(config.databasePoolMode).toBe('transaction');
  });

  it('refuse transaction mode without a LISTEN URL, and an unknown mode', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://bouncer.example:6432/versus', DATABASE_POOL_MODE: 'transaction' })).toThrow(
      POOL_MODE_NEEDS_LISTEN_URL,
    );
    expect(() => loadConfig({ DATABASE_POOL_MODE: 'statement' })).toThrow(
      'DATABASE_POOL_MODE must be session or transaction, got statement',
    );
  });
});

describe('metrics exposure', () => {
  const token = 'a'.repeat(32);

  it('is off by default: no token, no listener', () => {
    const off = { token: undefined, listen: undefined, escrowEveryMs: 30_000, auditEveryMs: 300_000 };
    expect(loadConfig({}).metrics).toEqual(off);
    expect(loadConfig({ METRICS_TOKEN: '', METRICS_PORT: '' }).metrics).toEqual(off);
  });

  it('takes a token, a listener on loopback unless METRICS_HOST says otherwise, and how often the ledger is read', () => {
    expect(loadConfig({ METRICS_TOKEN: token }).metrics).toMatchObject({ token, listen: undefined });
    expect(loadConfig({ METRICS_ESCROW_EVERY_SECONDS: '0', METRICS_AUDIT_EVERY_SECONDS: '60' }).metrics).toMatchObject({
      escrowEveryMs: 0,
      auditEveryMs: 60_000,
    });
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics.listen).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metrics.listen).toEqual({ host: '10.0.0.5', port: 9464 });
  });

  it('refuses a short or spaced token, a bad port, the public port, and a host without a port', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(
      `METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} printable characters`,
    );
    expect(() => loadConfig({ METRICS_TOKEN: `${token} x` })).toThrow('METRICS_TOKEN must be');
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow('METRICS_PORT must be a port number, got 70000');
    expect(() => loadConfig({ METRICS_PORT: 'abc' })).toThrow('METRICS_PORT must be a port number, got abc');
    expect(() => loadConfig({ METRICS_PORT: '3000' })).toThrow('METRICS_PORT must differ from PORT (3000)');
    expect(() => loadConfig({ METRICS_HOST: '127.0.0.1' })).toThrow('METRICS_HOST needs METRICS_PORT');
    expect(() => loadConfig({ METRICS_AUDIT_EVERY_SECONDS: '-1' })).toThrow(
      'METRICS_AUDIT_EVERY_SECONDS must be a whole number of seconds (0 or more), got -1',
    );
    expect(() => loadConfig({ METRICS_ESCROW_EVERY_SECONDS: '1.5' })).toThrow('METRICS_ESCROW_EVERY_SECONDS must be a whole number');
  });
});

describe('file store settings', () => {
  const s3 = { FILE_STORE: 's3', S3_BUCKET: 'versus-files' };

  it('keep files in the database unless told otherwise', () => {
    expect(loadConfig({}).files).toEqual({ kind: 'postgres' });
    expect(loadConfig({ FILE_STORE: '' }).files).toEqual({ kind: 'postgres' });
    expect(loadConfig({ FILE_STORE: 'disk' }).files).toEqual({ kind: 'disk' });
  });

  it('take an S3 bucket: AWS itself by default, path-style for any other endpoint', () => {
    expect(loadConfig(s3).files).toEqual({
      kind: 's3',
      bucket: 'versus-files',
      endpoint: undefined,
      region: 'us-east-1',
      credentials: undefined,
      forcePathStyle: false,
    });
    const minio = loadConfig({
      ...s3,
      S3_ENDPOINT: 'http://minio.internal:9000',
      S3_REGION: 'auto',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
    }).files;
    expect(minio).toEqual({
      kind: 's3',
      bucket: 'versus-files',
      endpoint: 'http://minio.internal:9000',
      region: 'auto',
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
    expect(loadConfig({ ...s3, S3_ENDPOINT: 'https://files.example.com', S3_FORCE_PATH_STYLE: 'false' }).files).toMatchObject({
      forcePathStyle: false,
    });
    expect(loadConfig({ ...s3, S3_FORCE_PATH_STYLE: 'TRUE' }).files).toMatchObject({ forcePathStyle: true });
  });

  it('refuse to start on a bad value, saying which setting and why', () => {
    expect(() => loadConfig({ FILE_STORE: 'S3 ' })).toThrow('FILE_STORE must be postgres, disk or s3, got S3 ');
    expect(() => loadConfig({ FILE_STORE: 's3' })).toThrow(
      'FILE_STORE=s3 needs S3_BUCKET, a bucket name (3-63 lower-case letters, digits, dots, hyphens), got ""',
    );
    expect(() => loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'My_Bucket' })).toThrow('FILE_STORE=s3 needs S3_BUCKET');
    expect(() => loadConfig({ ...s3, S3_ENDPOINT: 'minio:9000' })).toThrow(
      'S3_ENDPOINT must be an http:// or https:// address, got minio:9000',
    );
    expect(() => loadConfig({ ...s3, S3_REGION: 'EU West' })).toThrow('S3_REGION must be a region name');
    expect(() => loadConfig({ ...s3, S3_ACCESS_KEY_ID: 'key' })).toThrow('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
    expect(() => loadConfig({ ...s3, S3_SECRET_ACCESS_KEY: 'secret' })).toThrow('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
    expect(() => loadConfig({ ...s3, S3_FORCE_PATH_STYLE: 'yes please' })).toThrow(
      'S3_FORCE_PATH_STYLE must be true or false, got yes please',
    );
  });

  it('refuse S3 settings without FILE_STORE=s3 (the files would silently go elsewhere)', () => {
    expect(() => loadConfig({ S3_BUCKET: 'versus-files' })).toThrow(
      'S3_BUCKET is set but FILE_STORE is postgres: set FILE_STORE=s3, or remove the S3_ settings',
    );
    expect(() => loadConfig({ FILE_STORE: 'disk', S3_BUCKET: 'b', S3_ENDPOINT: 'http://x' })).toThrow(
      'S3_BUCKET, S3_ENDPOINT are set but FILE_STORE is disk',
    );
  });
});

describe('drain grace', () => {
  it('defaults to outlasting the documented health checks (2 × 2 s) on PostgreSQL, to none on the embedded database', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/versus' }).drainGraceMs).toBe(DRAIN_GRACE_DEFAULT_MS);
    expect(loadConfig({}).drainGraceMs).toBe(0);
    expect(DRAIN_GRACE_DEFAULT_MS).toBeGreaterThan(2 * 2_000);
    expect(loadConfig({ DRAIN_GRACE_MS: '1500' }).drainGraceMs).toBe(1500);
    expect(loadConfig({ DRAIN_GRACE_MS: '0' }).drainGraceMs).toBe(0);
  });

  it('refuses what is not a whole number of milliseconds', () => {
    for (const bad of ['-1', '2.5', '5s']) {
      expect(() => loadConfig({ DRAIN_GRACE_MS: bad })).toThrow(
        `DRAIN_GRACE_MS must be a whole number of milliseconds (0 or more), got ${bad}`,
      );
    }
  });
});
