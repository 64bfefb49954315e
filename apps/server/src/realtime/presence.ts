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

export class TopicPresence {
  /** topic → present player → how many of their sockets here follow it. */
  private readonly present = new Map<string, Map<string, number>>();

  constructor(private readonly send: PresenceSend) {}

  /** A player's socket follows the topic: announce it (every time: a new tab learns who is here from the answers). */
  joined(topic: string, userId: string): void {
    let players = this.present.get(topic);
    if (!players) this.present.set(topic, (players = new Map<string, number>()));
    players.set(userId, (players.get(userId) ?? 0) + 1);
    this.send(presenceHint(topic, { userId, here: true, ask: true }));
  }

  /** One of a player's sockets left the topic; the last one says they are away. */
  left(topic: string, userId: string): void {
    const players = this.present.get(topic);
    const count = players?.get(userId);
    if (!players || count === undefined) return;
    if (count > 1) {
      players.set(userId, count - 1);
      return;
    }
    players.delete(userId);
    if (players.size === 0) this.present.delete(topic);
    this.send(presenceHint(topic, { userId, here: false }));
  }

  /** Someone arrived on `topic` (on any process) and asks: the players present here answer. */
  answer(topic: string, askerId: string): void {
    for (const userId of this.present.get(topic)?.keys() ?? []) {
      if (userId !== askerId) this.send(presenceHint(topic, { userId, here: true }), HINT_GATHER_MS);
    }
  }

  /** The beat: every present player, again. */
  beat(): void {
    for (const [topic, players] of this.present) {
      for (const userId of players.keys()) this.send(presenceHint(topic, { userId, here: true }), HINT_GATHER_MS);
    }
  }
}
