// Presence across processes as a stored heartbeat, not NOTIFY: a process that dies stops writing, so its
// players go offline by themselves and no process needs the others' sockets.
import { SOCIAL_LIMITS, cameOnline } from '@versus/domain/social';
import type { AppContext } from '../context.ts';
import { publish, topics } from '../realtime/publish.ts';
import * as repo from './social.repository.ts';
import { tell } from './tell.ts';

/** Set-based, as after a restart everyone arrives at once: one `social.changed` per audience member; locks in id order. */
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
