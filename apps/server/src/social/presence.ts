// Presence: who is online, across every server process. Each process writes, every few
// seconds, the players with a signed-in realtime socket on it (one UPSERT into `presence`); a
// player is online while their last_seen_at is within the window. A stored heartbeat rather
// than hub events over NOTIFY: a process that dies simply stops writing, so its players go
// offline by themselves within the window, and no process needs to know the others' sockets.
import { SOCIAL_LIMITS, cameOnline } from '@versus/domain/social';
import type { AppContext } from '../context.ts';
import { publish, topics } from '../realtime/publish.ts';
import * as repo from './social.repository.ts';
import { tell } from './tell.ts';

/**
 * Records that `userIds` are connected at `now`. For those who have just come online (not seen
 * within SOCIAL_LIMITS.onlineWindowMs), their friends and followers hear it: one `social.changed`
 * per audience member however many of the people they know arrived in this beat (the client only
 * refetches on it), and, for each friend of each arrival seen last over
 * SOCIAL_LIMITS.onlineNotifyAfterMs ago (cameOnline), a player_online notification. Set-based:
 * one query for the arrivals' profiles and one for their audiences, whatever their number (after
 * a restart every connected player arrives at once). Rows and topics are locked in id order.
 * Returns who came online.
 */
export async function recordPresence(ctx: Pick<AppContext, 'db'>, userIds: string[], now = new Date()): Promise<string[]> {
  if (userIds.length === 0) return [];
  return ctx.db.transaction(async (tx) => {
    const seen = await repo.beat(tx, [...userIds].sort(), now, SOCIAL_LIMITS.onlineWindowMs);
    const back = seen.filter(
      ({ previous }) => previous === null || now.getTime() - new Date(previous).getTime() > SOCIAL_LIMITS.onlineWindowMs,
    );
    if (back.length === 0) return [];
    const arrived = back.map((s) => s.user_id).sort();
    const toNotify = back.filter(({ previous }) => cameOnline(previous, now)).map((s) => s.user_id);
    const users = new Map((await repo.findUsers(tx, toNotify)).map((u) => [u.id, u]));
    const audience = await repo.audienceOfMany(tx, arrived);
    // Each member's topic once, in id order: every topic this transaction writes is locked here
    // first, so the notifications below (events on those same topics) take no new topic lock.
    for (const id of [...new Set(audience.map((m) => m.id))].sort()) {
      await publish(tx, topics.user(id), 'social.changed', { reason: 'presence' });
    }
    for (const member of audience) {
      const user = users.get(member.of);
      if (user && member.friend) {
        await tell(tx, {
          userId: member.id,
          type: 'player_online',
          metadata: { username: user.display_name || user.username, userId: user.id },
          creatorId: user.id,
          now,
        });
      }
    }
    return arrived;
  });
}
