import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ChallengeListCache } from './challenges/challenges.cache.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { SecretCache } from './db/secrets.ts';
import type { NotificationDeliverers } from './notifications/notify.ts';
import type { RealtimeHub } from './realtime/hub.ts';
import type { TopicRules } from './realtime/topic-rules.ts';
import type { AppMetrics } from './observability/metrics.ts';
import type { FileStore } from './storage/file-store.ts';

/** The Fastify instance every feature registers its routes on (zod schemas). */
export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

/** Made once per app by buildApp and handed to each feature, so nothing is found through a module-level registry. */
export interface AppContext {
  config: Config;
  db: Database;
  log: FastifyBaseLogger;
  /** Who may follow, who numbers and who is present on each realtime topic; features add theirs. */
  topics: TopicRules;
  /** This process's realtime hub: its sockets, and events delivered to them at once. */
  hub: RealtimeHub;
  /** The open-challenges list as last read, cleared by any process's change to it. */
  challengeList: ChallengeListCache;
  /** Who hears of every committed notification, once across processes (Web Push). */
  deliverers: NotificationDeliverers;
  /** Secrets shared through app_secrets (the token signing key, the VAPID keys), read once. */
  secrets: SecretCache;
  /** This app's figures for /metrics (observability/metrics.ts). */
  metrics: AppMetrics;
  /** Uploaded files (avatars, evidence, feedback screenshots): the one store FILE_STORE chose. */
  files: FileStore;
}
