// Readiness for the load balancer (GET /api/ready; liveness is GET /api/health) and the refusal
// of requests that arrive while the process closes. docs/operations.md, "Scaling out behind HAProxy".
import { GENERIC } from '@versus/domain/messages';
import type { App } from './context.ts';
import type { Database } from './db/database.ts';
import { pendingMigrations } from './db/migrate.ts';
import type { Lifecycle } from './lifecycle.ts';

/** An unreachable host can hold a connection attempt for minutes: down is said sooner. */
export const PROBE_TIMEOUT_MS = 3000;

/** Seconds a client is told to wait before retrying a request refused while the process closes. */
export const CLOSING_RETRY_AFTER_S = 1;

export type Probe = { up: true; latencyMs: number } | { up: false; error: unknown };

/** SELECT 1, bounded by PROBE_TIMEOUT_MS. */
export async function probeDatabase(db: Database): Promise<Probe> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
    });
    await Promise.race([db.query('SELECT 1'), late]);
    return { up: true, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return { up: false, error };
  } finally {
    clearTimeout(timer);
  }
}

export interface Readiness {
  status: 'ready' | 'not_ready';
  /** The checks that failed, in the order of `checks`. */
  failed: ('database' | 'listen' | 'migrations' | 'drain')[];
  checks: {
    database: 'up' | 'down';
    listen: 'up' | 'down';
    migrations: 'applied' | 'pending' | 'unknown';
    drain: 'serving' | 'draining' | 'closing';
  };
}

export function registerReadiness(app: App, db: Database, lifecycle: Lifecycle): void {
  // Applied migrations never go away: once all are there, the check need not run again.
  let migrated = false;

  // However the app is closed (SIGTERM, a test), what arrives from then on is refused alike.
  app.addHook('preClose', async () => lifecycle.close());
  app.addHook('onRequest', async (request, reply) => {
    if (lifecycle.phase !== 'closing') return;
    request.log.info({ url: request.url }, 'closing: request refused with 503');
    return reply
      .status(503)
      .header('retry-after', String(CLOSING_RETRY_AFTER_S))
      .header('connection', 'close')
      .send({ error: { code: 'unavailable', message: GENERIC.unavailable } });
  });

  app.get('/api/ready', { schema: { hide: true } }, async (request, reply) => {
    const database = await probeDatabase(db);
    if (!database.up) request.log.warn({ err: database.error }, 'ready: the database does not answer');
    let migrations: Readiness['checks']['migrations'] = migrated ? 'applied' : 'unknown';
    if (!migrated && database.up) {
      try {
        migrated = (await pendingMigrations(db)).length === 0;
        migrations = migrated ? 'applied' : 'pending';
      } catch (error) {
        request.log.warn({ err: error }, 'ready: could not read the applied migrations');
      }
    }
    const checks: Readiness['checks'] = {
      database: database.up ? 'up' : 'down',
      listen: (db.listenerUp?.() ?? true) ? 'up' : 'down',
      migrations,
      drain: lifecycle.phase,
    };
    const failed: Readiness['failed'] = [];
    if (checks.database !== 'up') failed.push('database');
    if (checks.listen !== 'up') failed.push('listen');
    if (checks.migrations !== 'applied') failed.push('migrations');
    if (checks.drain !== 'serving') failed.push('drain');
    const body: Readiness = { status: failed.length === 0 ? 'ready' : 'not_ready', failed, checks };
    return reply
      .status(failed.length === 0 ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(body);
  });
}
