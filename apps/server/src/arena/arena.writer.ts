// Group commit for match changes. Every change is durable before it is acknowledged, but the
// changes that arrive while a write is in flight wait and go together in the next one:
//  - plain changes (a move, a ready, a start: a version-checked row update, maybe a move row,
//    and events) are applied many at once by ONE statement (arena.repository.ts writeBatch), so
//    a batch costs one round trip and one commit however many matches it carries;
//  - work (finishing a match: the ledger, profiles, ratings) runs in the same transaction, each
//    piece under its own savepoint, so one failing piece fails only itself.
// Without batching every move would cost its own commit (a disk flush); with it, one commit
// carries all the moves that arrived meanwhile. NOTIFYs go out after the commit.
// A batch that fails as a whole is retried item by item, so one bad item cannot fail the others.
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../db/database.ts';
import { REALTIME_CHANNEL } from '../realtime/publish.ts';
import { writeBatch, type EventInsert, type MoveInsert, type RowChange } from './arena.repository.ts';

export interface PlainWrite {
  change: RowChange;
  move: MoveInsert | null;
  events: EventInsert[];
}

interface PlainItem {
  kind: 'plain';
  queuedAt: number;
  write: PlainWrite;
  resolve(applied: boolean): void;
  reject(error: unknown): void;
}

interface WorkItem {
  kind: 'work';
  queuedAt: number;
  run(tx: Queryable): Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Item = PlainItem | WorkItem;

export interface WriterOptions {
  /** Batches in flight at once (each on its own connection). */
  maxInFlight?: number;
  /** Most items in one batch. */
  maxBatch?: number;
}

export interface WriterStats {
  batches: number;
  items: number;
  largest: number;
  retried: number;
  /** Time spent writing and committing batches, and waiting in the queue before one (ms, summed per batch / item). */
  writeMs: number;
  waitMs: number;
}

export class MatchWriter {
  private readonly queue: Item[] = [];
  private inFlight = 0;
  private readonly maxInFlight: number;
  private readonly maxBatch: number;
  private idle: (() => void)[] = [];
  readonly stats: WriterStats = { batches: 0, items: 0, largest: 0, retried: 0, writeMs: 0, waitMs: 0 };

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    options: WriterOptions = {},
  ) {
    this.maxInFlight = Math.max(1, options.maxInFlight ?? 2);
    this.maxBatch = Math.max(1, options.maxBatch ?? 500);
  }

  /** Applies a version-checked change; true once committed, false when the version no longer matched. */
  plain(write: PlainWrite): Promise<boolean> {
    return new Promise((resolve, reject) => this.enqueue({ kind: 'plain', queuedAt: performance.now(), write, resolve, reject }));
  }

  /** Runs `run` inside a batch's transaction (under a savepoint); resolves after the commit. */
  work<T>(run: (tx: Queryable) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) =>
      this.enqueue({ kind: 'work', queuedAt: performance.now(), run, resolve: resolve as (value: unknown) => void, reject }),
    );
  }

  /** Resolves when nothing is queued or in flight. */
  drained(): Promise<void> {
    if (this.inFlight === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private enqueue(item: Item): void {
    this.queue.push(item);
    this.pump();
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight++;
      void this.flush(batch).finally(() => {
        this.inFlight--;
        this.pump();
        if (this.inFlight === 0 && this.queue.length === 0) {
          const waiting = this.idle;
          this.idle = [];
          for (const wake of waiting) wake();
        }
      });
    }
  }

  private async flush(batch: Item[]): Promise<void> {
    this.stats.batches++;
    this.stats.items += batch.length;
    this.stats.largest = Math.max(this.stats.largest, batch.length);
    const started = performance.now();
    for (const item of batch) this.stats.waitMs += started - item.queuedAt;
    let settle: () => void;
    try {
      settle = await this.execute(batch);
      this.stats.writeMs += performance.now() - started;
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      // Something in the batch broke it (or the connection did): each item alone, so only the culprit fails.
      this.stats.retried += batch.length;
      this.log.warn({ err: error, items: batch.length }, 'arena: batch failed, retrying its items one by one');
      for (const item of batch) await this.flush([item]);
      return;
    }
    settle();
  }

  /** Writes and commits the batch; answers how to settle its items (called only after the commit). */
  private async execute(batch: Item[]): Promise<() => void> {
    const plain = batch.filter((item): item is PlainItem => item.kind === 'plain');
    const work = batch.filter((item): item is WorkItem => item.kind === 'work');
    const write = async (db: Queryable): Promise<Set<string>> => {
      if (plain.length === 0) return new Set();
      const result = await writeBatch(
        db,
        plain.map((item) => item.write.change),
        plain.flatMap((item) => (item.write.move ? [item.write.move] : [])),
        plain.flatMap((item) => item.write.events),
      );
      // After the commit (at once for a statement outside a transaction: it has committed).
      for (const note of result.notes) db.notifyAfterCommit(REALTIME_CHANNEL, note);
      return result.applied;
    };

    if (work.length === 0) {
      // One statement is one transaction: no BEGIN/COMMIT round trips.
      const applied = await write(this.db);
      return () => {
        for (const item of plain) item.resolve(applied.has(item.write.change.id));
      };
    }

    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    const applied = await this.db.transaction(async (tx) => {
      const done = await write(tx);
      for (let i = 0; i < work.length; i++) {
        // A piece rolled back to its savepoint must not announce what it published.
        const notes: [string, string][] = [];
        const scoped: Queryable = {
          query: (sql, params) => tx.query(sql, params),
          exec: (sql) => tx.exec(sql),
          notifyAfterCommit: (channel, payload) => void notes.push([channel, payload]),
        };
        await tx.query(`SAVEPOINT arena_work_${i}`);
        try {
          outcomes.push({ ok: true, value: await work[i]!.run(scoped) });
          await tx.query(`RELEASE SAVEPOINT arena_work_${i}`);
          for (const [channel, payload] of notes) tx.notifyAfterCommit(channel, payload);
        } catch (error) {
          await tx.query(`ROLLBACK TO SAVEPOINT arena_work_${i}`);
          outcomes.push({ ok: false, error });
        }
      }
      return done;
    });
    return () => {
      for (const item of plain) item.resolve(applied.has(item.write.change.id));
      work.forEach((item, i) => {
        const outcome = outcomes[i]!;
        if (outcome.ok) item.resolve(outcome.value);
        else item.reject(outcome.error);
      });
    };
  }
}
