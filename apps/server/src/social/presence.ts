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
 * Records that `userIds` are connected at `now`. For each who has just come online after
 * SOCIAL_LIMITS.onlineNotifyAfterMs away, their friends and followers hear it (`social.changed`
 * and, for friends, a player_online notification). Returns who came online.
 */
export async function recordPresence(ctx: Pick<AppContext, 'db'>, userIds: string[], now = new Date()): Promise<string[]> {
  if (userIds.length === 0) return [];
  return ctx.db.transaction(async (tx) => {
    const seen = await repo.beat(tx, [...userIds].sort(), now, SOCIAL_LIMITS.onlineWindowMs);
    const arrived: string[] = [];
    for (const { user_id, previous } of seen) {
      const back = previous === null || now.getTime() - new Date(previous).getTime() > SOCIAL_LIMITS.onlineWindowMs;
      if (!back) continue;
      arrived.push(user_id);
      const notify = cameOnline(previous, now);
      const user = notify ? await repo.findUser(tx, user_id) : null;
      for (const member of await repo.audienceOf(tx, user_id)) {
        await publish(tx, topics.user(member.id), 'social.changed', { reason: 'presence' });
        if (user && member.friend) {
          await tell(tx, { userId: member.id, type: 'player_online', metadata: { username: user.display_name || user.username, userId: user.id }, creatorId: user.id, now });
        }
      }
    }
    return arrived;
  });
}
