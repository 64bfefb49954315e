// What each player is told when a match ends (SPEC §4: win, draw or loss; a forfeit; the money):
// built here, published by finishMatch in its own single write of the ending's events.
import type { MatchCompletedUserEvent } from '@versus/domain/arena';
import type { Notification } from '@versus/domain/notifications';
import { buildNotification } from './notify.ts';

/** The notifications of one player's ending: the result, and where money came back or was won, the money. */
export function endingNotifications(userId: string, event: MatchCompletedUserEvent, now: Date): Notification[] {
  const base = { matchId: event.matchId, gameType: event.gameType, currency: event.currency };
  const forfeit = event.reason === 'forfeit' && (event.result === 'win' || event.result === 'loss');
  const out = [
    buildNotification({
      userId,
      type: forfeit ? 'match_forfeit' : 'match_completed',
      metadata: { ...base, result: event.result, reason: event.reason, ...(event.received > 0 ? { amount: event.received } : {}) },
      matchId: event.matchId,
      now,
    }),
  ];
  if (event.received > 0) {
    out.push(
      event.result === 'win'
        ? buildNotification({
            userId,
            type: 'credits_earned',
            metadata: { ...base, amount: event.received, reason: 'Match winnings.' },
            matchId: event.matchId,
            now,
          })
        : buildNotification({
            userId,
            type: 'escrow_released',
            metadata: { ...base, amount: event.received },
            matchId: event.matchId,
            now,
          }),
    );
  }
  return out;
}
