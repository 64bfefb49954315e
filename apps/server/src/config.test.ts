import { describe, expect, it } from 'vitest';
import { DRAIN_GRACE_DEFAULT_MS, loadConfig, POOL_MODE_NEEDS_LISTEN_URL, SEED_DEMO_IN_PRODUCTION } from './config.ts';

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
    expect(() => loadConfig({ DATABASE_URL: 'postgres://bouncer.example:6432/versus', DATABASE_POOL_MODE: 'transaction' })).toThrow(POOL_MODE_NEEDS_LISTEN_URL);
    expect(() => loadConfig({ DATABASE_POOL_MODE: 'statement' })).toThrow('DATABASE_POOL_MODE must be session or transaction, got statement');
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
      expect(() => loadConfig({ DRAIN_GRACE_MS: bad })).toThrow(`DRAIN_GRACE_MS must be a whole number of milliseconds (0 or more), got ${bad}`);
    }
  });
});
