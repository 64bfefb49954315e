// The global match monitor (SPEC §2 overlays): decides what an event on my user topic calls for;
// the component does it.
import { isGameId, isWebGame } from '@versus/domain/catalogue';
import type { ChallengeAcceptedEvent } from '@versus/domain/challenges';
import { liveArenaPath, type RoomJoinedEvent } from '@versus/domain/rooms';

export type MonitorAction =
  | { kind: 'none' }
  /** Take the player to the match (they are not busy with another one). */
  | { kind: 'go'; matchId: string; path: string; opponent: string }
  /** The player is looking at another match: offer the way, do not pull them out of it. */
  | { kind: 'offer'; matchId: string; path: string; opponent: string };

export interface Where {
  pathname: string;
  search: string;
}

export function monitorAction(type: string, payload: unknown, where: Where): MonitorAction {
  const found = opponentJoined(type, payload);
  if (!found) return { kind: 'none' };
  const path = liveArenaPath(found.matchId);
  const openMatch = where.pathname === '/live-arena' ? new URLSearchParams(where.search).get('match') : null;
  if (openMatch === found.matchId) return { kind: 'none' };
  // The private-room panel on /live-arena follows its own room and moves the player itself.
  if (type === 'room.joined' && where.pathname === '/live-arena' && !openMatch) return { kind: 'none' };
  const busy = openMatch !== null || where.pathname.startsWith('/spectate/');
  return { kind: busy ? 'offer' : 'go', matchId: found.matchId, path, opponent: found.opponent };
}

function opponentJoined(type: string, payload: unknown): { matchId: string; opponent: string } | null {
  if (!payload || typeof payload !== 'object') return null;
  if (type === 'challenge.accepted') {
    const event = payload as Partial<ChallengeAcceptedEvent>;
    // Only a browser game has a board to go to; an external one is played elsewhere.
    if (!event.matchId || !event.gameType || !isGameId(event.gameType) || !isWebGame(event.gameType)) return null;
    return { matchId: event.matchId, opponent: event.opponentName ?? '' };
  }
  if (type === 'room.joined') {
    const event = payload as Partial<RoomJoinedEvent>;
    if (!event.matchId) return null;
    return { matchId: event.matchId, opponent: event.username ?? '' };
  }
  return null;
}
