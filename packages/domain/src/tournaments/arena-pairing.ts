// Arena pairing, pure and greedy, run whenever a player returns to the waiting list
// (rules: docs/decisions.md, "Arenas score and pair as lichess's do").

export interface WaitingPlayer {
  id: string;
  /** Arena points so far. */
  score: number;
  rating: number;
  /** Whom their last game was against; null before their first. */
  lastOpponent: string | null;
  /** Since when they are waiting (server epoch ms). */
  waitingSinceMs: number;
  paused?: boolean;
}

/** Seat 0 is the player who waited longer. */
export type ArenaPairing = readonly [string, string];

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Longest wait first; equal waits by id, so the result depends on nothing but the input. */
const waitOrder = (a: WaitingPlayer, b: WaitingPlayer): number => a.waitingSinceMs - b.waitingSinceMs || byId(a.id, b.id);

/** Closer score first, then closer rating, then the longer wait. */
function closeness(to: WaitingPlayer): (a: WaitingPlayer, b: WaitingPlayer) => number {
  return (a, b) =>
    Math.abs(a.score - to.score) - Math.abs(b.score - to.score) ||
    Math.abs(a.rating - to.rating) - Math.abs(b.rating - to.rating) ||
    waitOrder(a, b);
}

interface Candidate {
  player: WaitingPlayer;
  /** Everyone this player's entries name as a last opponent. */
  avoid: Set<string>;
  paused: boolean;
}

const mayMeet = (a: Candidate, b: Candidate): boolean =>
  a.player.id !== b.player.id && !a.avoid.has(b.player.id) && !b.avoid.has(a.player.id);

/** An id listed twice is one player, on the safe side of both entries (paused if either says so). */
export function pairWaiting(waiting: readonly WaitingPlayer[]): ArenaPairing[] {
  const byPlayer = new Map<string, Candidate>();
  for (const entry of waiting) {
    const candidate = byPlayer.get(entry.id) ?? { player: entry, avoid: new Set<string>(), paused: false };
    if (entry.lastOpponent !== null) candidate.avoid.add(entry.lastOpponent);
    candidate.paused ||= entry.paused === true;
    byPlayer.set(entry.id, candidate);
  }
  const free = [...byPlayer.values()].filter((c) => !c.paused).sort((a, b) => waitOrder(a.player, b.player));
  const taken = new Set<string>();
  const pairs: ArenaPairing[] = [];
  for (const candidate of free) {
    if (taken.has(candidate.player.id)) continue;
    const closest = closeness(candidate.player);
    const opponent = free
      .filter((other) => !taken.has(other.player.id) && mayMeet(candidate, other))
      .sort((a, b) => closest(a.player, b.player))[0];
    if (!opponent) continue;
    taken.add(candidate.player.id).add(opponent.player.id);
    pairs.push([candidate.player.id, opponent.player.id]);
  }
  return pairs;
}
