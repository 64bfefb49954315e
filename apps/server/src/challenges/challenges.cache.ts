// The marketplace list cache (SPEC §9: the public challenge list is cached 15 s).
//
// Process-local, one per database, keyed by the list's filters. It never serves a list older
// than a change this process has heard of: every create, accept, cancel and expiry publishes an
// event on the `challenges` topic inside its transaction, and each process clears its cache
// when PostgreSQL delivers that event's NOTIFY (after commit, in every process). The process
// that made the change also clears its own cache right after commit, so its own next read is
// fresh without waiting for the NOTIFY. The 15 s lifetime bounds staleness should a
// notification ever be missed (a dropped listener connection).
import { CHALLENGE_RULES } from '@versus/domain';
import type { Database } from '../db/database.ts';
import { REALTIME_CHANNEL, topics } from '../realtime/publish.ts';
import type { ChallengeRow } from './challenges.repository.ts';

const MAX_ENTRIES = 500;

export class ListCache {
  private readonly entries = new Map<string, { storedAt: number; rows: ChallengeRow[] }>();
  /** Bumped by every invalidation, so a read that started before one is not cached after it. */
  generation = 0;

  constructor(readonly ttlMs: number = CHALLENGE_RULES.listCacheMs) {}

  get(key: string, nowMs: number): ChallengeRow[] | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (nowMs - entry.storedAt >= this.ttlMs || nowMs < entry.storedAt) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.rows;
  }

  set(key: string, rows: ChallengeRow[], nowMs: number, generation: number): void {
    if (generation !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { storedAt: nowMs, rows });
  }

  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }
}

const caches = new WeakMap<Database, ListCache>();

export function listCacheFor(db: Database): ListCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new ListCache();
    caches.set(db, cache);
  }
  return cache;
}

const FEED_PREFIX = `{"topic":${JSON.stringify(topics.challenges())},`;

/** Clears the cache whenever any process publishes on the `challenges` topic. Returns the unlisten. */
export function invalidateOnNotify(db: Database): Promise<() => Promise<void>> {
  const cache = listCacheFor(db);
  // Every NOTIFY payload (inline or by reference) starts with its topic.
  return db.listen(REALTIME_CHANNEL, (payload) => {
    if (payload.startsWith(FEED_PREFIX)) cache.invalidate();
  });
}
