// Who is on a topic's screen, per process (a match's "Here" / "Away"): counted here, told to every process by hints; a process
// that dies falls silent and its players time out on the clients. Nothing is stored.
import { MATCH_PRESENCE, type MatchPresenceHint } from '@versus/domain/realtime-constants';
import type { ProcessMessageOf } from './process-protocol.ts';
import { HINT_GATHER_MS } from './publish.ts';

/** Sends one presence hint to every process (a NOTIFY); `gatherMs` lets it share one. */
export type PresenceSend = (hint: ProcessMessageOf<'hint'>, gatherMs?: number) => void;

const presenceHint = (topic: string, payload: MatchPresenceHint): ProcessMessageOf<'hint'> => ({
  t: 'hint',
  d: { topic, type: MATCH_PRESENCE.hintType, payload },
});

/** A presence hint's payload as a notification carries it, or null when it is not one. */
export function readPresenceHint(type: unknown, payload: unknown): MatchPresenceHint | null {
  if (type !== MATCH_PRESENCE.hintType || typeof payload !== 'object' || payload === null) return null;
  const { userId, here, ask } = payload as Record<string, unknown>;
  if (typeof userId !== 'string' || typeof here !== 'boolean') return null;
  return ask === true ? { userId, here, ask } : { userId, here };
}

/** A topic's present players (how many of their sockets here follow it) and its beat's slot. */
interface Present {
  players: Map<string, number>;
  slot: number;
}

export class TopicPresence {
  private readonly present = new Map<string, Present>();
  /** The topics by slot: each beat takes the next slot, so a topic's turn comes once every `slots` beats. */
  private readonly slots: Set<string>[];
  private beats = 0;
  private added = 0;

  constructor(
    private readonly send: PresenceSend,
    slots = 1,
  ) {
    this.slots = Array.from({ length: slots }, () => new Set<string>());
  }

  /** A player's socket follows the topic: announce it (every time: a new tab learns who is here from the answers). */
  joined(topic: string, userId: string): void {
    let entry = this.present.get(topic);
    if (!entry) {
      entry = { players: new Map<string, number>(), slot: this.added++ % this.slots.length };
      this.present.set(topic, entry);
      this.slots[entry.slot]!.add(topic);
    }
    const players = entry.players;
    players.set(userId, (players.get(userId) ?? 0) + 1);
    this.send(presenceHint(topic, { userId, here: true, ask: true }));
  }

  /** One of a player's sockets left the topic; the last one says they are away. */
  left(topic: string, userId: string): void {
    const entry = this.present.get(topic);
    const count = entry?.players.get(userId);
    if (!entry || count === undefined) return;
    if (count > 1) {
      entry.players.set(userId, count - 1);
      return;
    }
    entry.players.delete(userId);
    if (entry.players.size === 0) {
      this.present.delete(topic);
      this.slots[entry.slot]!.delete(topic);
    }
    this.send(presenceHint(topic, { userId, here: false }));
  }

  /** Someone arrived on `topic` (on any process) and asks: the players present here answer. */
  answer(topic: string, askerId: string): void {
    for (const userId of this.present.get(topic)?.players.keys() ?? []) {
      if (userId !== askerId) this.send(presenceHint(topic, { userId, here: true }), HINT_GATHER_MS);
    }
  }

  /** One beat: the present players of the next slot's topics, again (every topic's every `slots` beats). */
  beat(): void {
    for (const topic of this.slots[this.beats++ % this.slots.length]!) {
      for (const userId of this.present.get(topic)!.players.keys()) this.send(presenceHint(topic, { userId, here: true }), HINT_GATHER_MS);
    }
  }
}
