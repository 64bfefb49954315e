import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { AppMetrics } from './observability/metrics.ts';

/** What every feature is built from. Features receive it; none reaches for globals. */
export interface AppContext {
  config: Config;
  db: Database;
  log: FastifyBaseLogger;
  /** This app's figures for /metrics (observability/metrics.ts). */
  metrics: AppMetrics;
}
