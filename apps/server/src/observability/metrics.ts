// The figures /metrics serves (docs/operations.md), one Registry per app; hot-path children are bound once,
// not per call.
import { CURRENCIES } from '@versus/domain';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database, DatabaseStats } from '../db/database.ts';
import { auditLedger } from '../ledger/ledger.audit.ts';
import { escrowTotals } from '../ledger/ledger.repository.ts';
import type { RealtimeHub } from '../realtime/hub.ts';

export interface MetricSources {
  db: Database;
  /** This process's realtime hub, once the realtime feature has made it. */
  hub?: () => RealtimeHub | undefined;
  /** Where a failed read on a scrape is told (the scrape still answers, with the last figures). */
  warn?: (obj: object, msg: string) => void;
  /** How long escrow totals are reused before a scrape reads them again (ms; default 30 s). */
  escrowEveryMs?: number;
  /** How long a ledger audit is reused (ms; default 5 min: it reads every transfer). */
  auditEveryMs?: number;
  /** Node's own figures (memory, CPU, event-loop delay, GC): on for a served app, off where nothing scrapes. */
  processMetrics?: boolean;
}

/** Something that takes one observation (a bound histogram child, or a test's stand-in). */
export interface Observer {
  observe(value: number): void;
}

export interface JobMetrics {
  runs: Counter.Internal;
  failures: Counter.Internal;
  duration: Histogram.Internal<'job'>;
}

export interface AppMetrics {
  readonly registry: Registry;
  /** One HTTP response: its route pattern (not its URL), status and duration. */
  request(method: string, route: string, status: number, seconds: number): void;
  readonly moves: { played: Counter.Internal; refused: Counter.Internal; duration: Histogram };
  /** Plain changes per group commit of the match writer. */
  readonly writerBatch: Histogram;
  /** A scheduled job's counters (bound once per job). */
  job(name: string): JobMetrics;
  /** From a notification's creation to its deliverers having run (Web Push). */
  readonly notificationLag: Observer;
  /** The Prometheus text exposition, and its content type. */
  scrape(): Promise<string>;
  readonly contentType: string;
}

/** The route label of a request that matched no route: one label, whatever the URL. */
export const UNMATCHED_ROUTE = '(unmatched)';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const BATCH_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500];
const LAG_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600];

/** At most one read per `everyMs`, shared by scrapes meanwhile; a failed read keeps the last answer. */
function cached<T>(everyMs: number, read: () => Promise<T>, warn: MetricSources['warn'], what: string): () => Promise<T | undefined> {
  let value: T | undefined;
  let readAt = -Infinity;
  let reading: Promise<void> | undefined;
  return async () => {
    if (performance.now() - readAt >= everyMs) {
      reading ??= read()
        .then(
          (fresh) => {
            value = fresh;
            readAt = performance.now();
          },
          (error: unknown) => warn?.({ err: error }, `metrics: reading ${what} failed; the last figures stand`),
        )
        .finally(() => {
          reading = undefined;
        });
      await reading;
    }
    return value;
  };
}

export function createMetrics(sources: MetricSources): AppMetrics {
  const registry = new Registry();
  const registers = [registry];
  if (sources.processMetrics) collectDefaultMetrics({ register: registry });

  const http = new Histogram({
    name: 'versus_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status: time from the request to the response sent',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  // Bound children by method/route/status: a handful per route, and no label object per request.
  const httpChildren = new Map<string, Histogram.Internal<'method' | 'route' | 'status_code'>>();

  const moves = new Counter({
    name: 'versus_moves_total',
    help: 'Moves answered in the live arena (socket and HTTP): played, or refused (illegal, stale, out of turn, time out, failed)',
    labelNames: ['outcome'] as const,
    registers,
  });
  const moveDuration = new Histogram({
    name: 'versus_move_duration_seconds',
    help: 'Time from a move arriving to its answer (validated, committed by the group commit, published), played or refused',
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const writerBatch = new Histogram({
    name: 'versus_match_writer_batch_size',
    help: 'Plain match changes (moves, readies, starts) per group commit of the match writer',
    buckets: BATCH_BUCKETS,
    registers,
  });

  const jobRuns = new Counter({
    name: 'versus_job_runs_total',
    help: 'Scheduled job runs this process claimed and started',
    labelNames: ['job'] as const,
    registers,
  });
  const jobFailures = new Counter({
    name: 'versus_job_failures_total',
    help: 'Scheduled job runs that threw',
    labelNames: ['job'] as const,
    registers,
  });
  const jobDuration = new Histogram({
    name: 'versus_job_duration_seconds',
    help: 'Scheduled job run time, failed runs included',
    labelNames: ['job'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
    registers,
  });

  const notificationLag = new Histogram({
    name: 'versus_notification_delivery_lag_seconds',
    help: "From a notification's creation to its deliverers (Web Push) having run, in the process that claimed it",
    buckets: LAG_BUCKETS,
    registers,
  });

  const hub = sources.hub ?? (() => undefined);
  new Gauge({
    name: 'versus_realtime_sockets',
    help: 'Open realtime WebSockets on this process',
    registers,
    collect() {
      this.set(hub()?.stats().sockets ?? 0);
    },
  });
  new Gauge({
    name: 'versus_realtime_sockets_authenticated',
    help: 'Open realtime WebSockets that have said hello with a valid token',
    registers,
    collect() {
      this.set(hub()?.stats().authenticated ?? 0);
    },
  });
  new Gauge({
    name: 'versus_realtime_subscriptions',
    help: 'Topic subscriptions summed over sockets (one socket on three topics counts three)',
    registers,
    collect() {
      this.set(hub()?.subscriptions() ?? 0);
    },
  });
  new Gauge({
    name: 'versus_realtime_topics',
    help: 'Distinct topics followed by at least one socket on this process',
    registers,
    collect() {
      this.set(hub()?.stats().topics ?? 0);
    },
  });

  const { db } = sources;
  const poolGauge = (name: string, help: string, pick: (pool: DatabaseStats['pool']) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const stats = db.stats?.();
        if (stats) this.set(pick(stats.pool));
      },
    });
  poolGauge('versus_db_pool_in_use', 'Database connections running a query or a transaction', (p) => p.inUse);
  poolGauge('versus_db_pool_idle', 'Database connections open and free', (p) => p.idle);
  poolGauge('versus_db_pool_waiting', 'Queries and transactions waiting for a free connection', (p) => p.waiting);
  poolGauge('versus_db_pool_max', 'The most database connections the pool opens', (p) => p.max);
  new Gauge({
    name: 'versus_db_listen_up',
    help: 'The LISTEN connection (realtime events, notifications across processes): 1 listening, 0 down (reconnecting)',
    registers,
    collect() {
      const stats = db.stats?.();
      if (stats) this.set(stats.listening ? 1 : 0);
    },
  });

  const escrow = cached(sources.escrowEveryMs ?? 30_000, () => escrowTotals(db), sources.warn, 'escrow totals');
  new Gauge({
    name: 'versus_ledger_escrow_minor_units',
    help: 'Stakes held in escrow per currency, in minor units (1/100 of a credit); re-read at most every METRICS_ESCROW_EVERY_SECONDS (30)',
    labelNames: ['currency'] as const,
    registers,
    async collect() {
      const totals = await escrow();
      if (!totals) return;
      for (const currency of CURRENCIES) this.set({ currency }, totals.find((t) => t.currency === currency)?.amount ?? 0);
    },
  });

  const audit = cached(sources.auditEveryMs ?? 5 * 60_000, () => auditLedger(db), sources.warn, 'the ledger audit');
  new Gauge({
    name: 'versus_ledger_audit_ok',
    help:
      'The last ledger audit (ledger.audit.ts): 1 every invariant holds, 0 one is broken; ' +
      'rerun at most every METRICS_AUDIT_EVERY_SECONDS (300)',
    registers,
    async collect() {
      const last = await audit();
      if (last) this.set(last.ok ? 1 : 0);
    },
  });
  new Gauge({
    name: 'versus_ledger_audit_problems',
    help: 'Problems the last ledger audit found (at most 20 per check)',
    registers,
    async collect() {
      const last = await audit();
      if (last) this.set(last.problems.length);
    },
  });
  new Gauge({
    name: 'versus_ledger_audit_timestamp_seconds',
    help: 'When the last ledger audit shown ran (seconds since the epoch): it is not rerun while the database is unreachable',
    registers,
    async collect() {
      const last = await audit();
      if (last) this.set(Date.parse(last.checkedAt) / 1000);
    },
  });

  return {
    registry,
    request(method, route, status, seconds) {
      const key = `${method} ${status} ${route}`;
      let child = httpChildren.get(key);
      if (!child) {
        child = http.labels(method, route, String(status));
        httpChildren.set(key, child);
      }
      child.observe(seconds);
    },
    moves: { played: moves.labels('played'), refused: moves.labels('refused'), duration: moveDuration },
    writerBatch,
    job(name) {
      return { runs: jobRuns.labels(name), failures: jobFailures.labels(name), duration: jobDuration.labels(name) };
    },
    notificationLag,
    scrape: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
