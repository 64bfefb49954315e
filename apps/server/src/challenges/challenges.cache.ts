// The marketplace list cache (SPEC §9: the public challenge list is cached 15 s).
//
// Process-local, one per app (AppContext.challengeList), keyed by the list's filters. It never serves a list older
// than a change this process has heard of: every create, accept, cancel and expiry publishes an
// event on the `challenges` topic inside its transaction, and each process clears its cache
// when PostgreSQL delivers that event's NOTIFY (after commit, in every process). The process
// that made the change also clears its own cache right after commit, so its own next read is
// fresh without waiting for the NOTIFY. The 15 s lifetime bounds staleness should a
// notification ever be missed (a dropped listener connection).
import { CHALLENGE_RULES } from '@versus/domain';
import type { Database } from '../db/database.ts';
import { ProcessInbox, REALTIME_CHANNEL, type MessageOn, type ProcessLog } from '../realtime/process-protocol.ts';
import { topics } from '../realtime/publish.ts';
import type { ChallengeRow } from './challenges.repository.ts';

const MAX_ENTRIES = 500;

export interface CacheEntry {
  storedAt: number;
  rows: ChallengeRow[];
  /** The response rendered from `rows`, exact until `validUntil` (time-left texts change then). */
  body?: { json: Buffer; validUntil: number };
}

export class ChallengeListCache {
  private readonly entries = new Map<string, CacheEntry>();
  /** Bumped by every invalidation, so a read that started before one is not cached after it. */
  generation = 0;

  /** Milliseconds an entry is served; 0 turns the cache off (the benchmark measures both). */
  constructor(public ttlMs: number = CHALLENGE_RULES.listCacheMs) {}

  get(key: string, nowMs: number): CacheEntry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (nowMs - entry.storedAt >= this.ttlMs || nowMs < entry.storedAt) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Stores rows read when the cache was at `generation`; a newer invalidation discards them. */
  set(key: string, rows: ChallengeRow[], nowMs: number, generation: number): CacheEntry {
    const entry: CacheEntry = { storedAt: nowMs, rows };
    if (generation !== this.generation) return entry;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, entry);
    return entry;
  }

  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /**
   * Clears the cache whenever any process publishes on the `challenges` topic, and on a
   * notification it cannot read (it may have been one). Returns the unlisten.
   */
  listen(db: Database, log: ProcessLog): Promise<() => Promise<void>> {
    const inbox = new ProcessInbox(REALTIME_CHANNEL, log, { onUnread: () => this.invalidate() });
    return inbox.listen(db, (message) => {
      if (onFeed(message)) this.invalidate();
    });
  }
}

const FEED = topics.challenges();

/** Whether `message` tells of an event on the `challenges` topic. */
function onFeed(message: MessageOn<typeof REALTIME_CHANNEL>): boolean {
  switch (message.t) {
    case 'event':
    case 'ref':
    case 'gap':
      return message.d.topic === FEED;
    case 'refs':
    case 'events':
      return message.d.some((e) => e.topic === FEED);
    case 'hint':
      return false;
  }
}
