// The marketplace list cache (SPEC §9: 15 s), cleared by every `challenges` event's NOTIFY; the 15 s only
// bounds staleness if one is missed.
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

  /** Clears on any `challenges` event and on a notification it cannot read (it may have been one). */
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
