// Group commit: plain changes waiting while a write is in flight go in ONE statement (writeBatch), one flush per batch, each
// acknowledged after its commit; finishing runs beside, each in its own transaction (a deadlock victim runs again).
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable, type Database, type Queryable } from '../db/database.ts';
import type { LocalEvent, RealtimeHub } from '../realtime/hub.ts';
import { REALTIME_CHANNEL, encodeBatches } from '../realtime/process-protocol.ts';
import { eventNotification, isUnstoredTopic } from '../realtime/publish.ts';
import { writeBatch, type EventInsert, type MoveInsert, type RowChange } from './arena.repository.ts';

export interface PlainWrite {
  change: RowChange;
  move: MoveInsert | null;
  events: EventInsert[];
}

interface PlainItem {
  queuedAt: number;
  write: PlainWrite;
  resolve(applied: boolean): void;
  reject(error: unknown): void;
}

interface WorkItem {
  queuedAt: number;
  run(tx: Queryable): Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export interface WriterOptions {
  /** Plain batches in flight at once, each on its own connection; one is best, as batches grow larger (bench/moves, History). */
  maxInFlight?: number;
  /** Most plain changes in one batch. */
  maxBatch?: number;
  /** Work transactions running at once. */
  maxWork?: number;
  /** Told the size of every batch written (the /metrics histogram). */
  batchSizes?: { observe(size: number): void };
  /** This process's realtime hub: committed events go to its sockets at once, not via the NOTIFY round trip. */
  hub?: () => RealtimeHub | undefined;
}

/** With a hub that delivered them itself, NOTIFYs for the others only, tagged with its origin, several per payload; else one per event. */
function notifications(origin: string | undefined, events: LocalEvent[]): string[] {
  if (!origin) return events.map(eventNotification);
  const stored = events.filter((e) => !isUnstoredTopic(e.topic));
  const unstored = events.filter((e) => isUnstoredTopic(e.topic));
  return encodeBatches(origin, stored, unstored);
}

export interface WriterStats {
  batches: number;
  items: number;
  largest: number;
  retried: number;
  /** Time spent writing and committing batches, and waiting in the queue before one (ms, summed per batch / item). */
  writeMs: number;
  waitMs: number;
  /** Work transactions (finishing matches), and the time they took (ms). */
  works: number;
  workMs: number;
  deadlocksRetried: number;
}

const DEADLOCK = '40P01';
const SERIALIZATION = '40001';
const WORK_ATTEMPTS = 3;

export class MatchWriter {
  private readonly queue: PlainItem[] = [];
  private readonly workQueue: WorkItem[] = [];
  private inFlight = 0;
  private working = 0;
  private readonly maxInFlight: number;
  private readonly maxBatch: number;
  private readonly maxWork: number;
  private readonly hub: () => RealtimeHub | undefined;
  private readonly batchSizes: WriterOptions['batchSizes'];
  private idle: (() => void)[] = [];
  readonly stats: WriterStats = {
    batches: 0,
    items: 0,
    largest: 0,
    retried: 0,
    writeMs: 0,
    waitMs: 0,
    works: 0,
    workMs: 0,
    deadlocksRetried: 0,
  };

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    options: WriterOptions = {},
  ) {
    this.maxInFlight = Math.max(1, options.maxInFlight ?? 1);
    this.maxBatch = Math.max(1, options.maxBatch ?? 500);
    this.maxWork = Math.max(1, options.maxWork ?? 12);
    this.hub = options.hub ?? (() => undefined);
    this.batchSizes = options.batchSizes;
  }

  /** Applies a version-checked change; true once committed, false when the version no longer matched. */
  plain(write: PlainWrite): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ queuedAt: performance.now(), write, resolve, reject });
      this.pump();
    });
  }

  /** Runs `run` in a transaction of its own; resolves after the commit. */
  work<T>(run: (tx: Queryable) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.workQueue.push({ queuedAt: performance.now(), run, resolve, reject });
      this.pump();
    });
  }

  /** Resolves when nothing is queued or in flight. */
  drained(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private isIdle(): boolean {
    return this.inFlight === 0 && this.working === 0 && this.queue.length === 0 && this.workQueue.length === 0;
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight++;
      void this.flush(batch).finally(() => {
        this.inFlight--;
        this.afterward();
      });
    }
    while (this.working < this.maxWork && this.workQueue.length > 0) {
      const item = this.workQueue.shift()!;
      this.working++;
      void this.runWork(item).finally(() => {
        this.working--;
        this.afterward();
      });
    }
  }

  private afterward(): void {
    this.pump();
    if (!this.isIdle()) return;
    const waiting = this.idle;
    this.idle = [];
    for (const wake of waiting) wake();
  }

  private async runWork(item: WorkItem): Promise<void> {
    const started = performance.now();
    this.stats.waitMs += started - item.queuedAt;
    for (let attempt = 1; ; attempt++) {
      try {
        const value = await this.db.transaction((tx) => item.run(tx));
        this.stats.works++;
        this.stats.workMs += performance.now() - started;
        item.resolve(value);
        return;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if ((code === DEADLOCK || code === SERIALIZATION) && attempt < WORK_ATTEMPTS) {
          this.stats.deadlocksRetried++;
          continue;
        }
        item.reject(error);
        return;
      }
    }
  }

  private async flush(batch: PlainItem[]): Promise<void> {
    this.stats.batches++;
    this.stats.items += batch.length;
    this.stats.largest = Math.max(this.stats.largest, batch.length);
    this.batchSizes?.observe(batch.length);
    const started = performance.now();
    for (const item of batch) this.stats.waitMs += started - item.queuedAt;
    let applied: Set<string>;
    try {
      const stored = batch.flatMap((item) => item.write.events.filter((e) => !isUnstoredTopic(e.topic)));
      const hub = this.hub();
      const result = await writeBatch(
        this.db,
        hub?.origin,
        batch.map((item) => item.write.change),
        batch.flatMap((item) => (item.write.move ? [item.write.move] : [])),
        stored,
      );
      // Committed (one statement): a match event takes its match's new version, a stored one the store's (none: its match was stale).
      const committed: LocalEvent[] = [];
      const travelling: LocalEvent[] = [];
      let i = 0;
      for (const { write } of batch) {
        const id = write.change.id;
        for (const e of write.events) {
          const unstored = isUnstoredTopic(e.topic);
          const version = unstored ? (result.applied.has(id) ? write.change.toVersion : null) : result.versions[i++];
          if (version === null || version === undefined) continue;
          const event = { topic: e.topic, version, type: e.type, payloadJson: e.payload };
          committed.push(event);
          if (!hub || !unstored || result.remote.has(id)) travelling.push(event);
        }
      }
      for (const note of notifications(hub?.origin, travelling)) this.db.notifyAfterCommit(REALTIME_CHANNEL, note);
      hub?.publishLocal(committed);
      applied = result.applied;
      this.stats.writeMs += performance.now() - started;
    } catch (error) {
      // Unreachable database: retried one by one, each item would wait out its own connect timeout.
      if (batch.length === 1 || isDatabaseUnavailable(error)) {
        for (const item of batch) item.reject(error);
        return;
      }
      // Something in the batch broke it (or the connection did): each item alone, so only the culprit fails.
      this.stats.retried += batch.length;
      this.log.warn({ err: error, items: batch.length }, 'arena: batch failed, retrying its items one by one');
      for (const item of batch) await this.flush([item]);
      return;
    }
    for (const item of batch) item.resolve(applied.has(item.write.change.id));
  }
}
