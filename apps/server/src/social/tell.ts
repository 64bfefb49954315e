// The social, verification and feedback features' one door to notifications: notify() from the
// notifications feature, in the caller's transaction (a rolled-back change notifies nobody).
import type { NotificationMetadata } from '@versus/domain/notifications';
import type { Queryable } from '../db/database.ts';
import { notify } from '../notifications/notify.ts';

export interface TellInput {
  userId: string;
  type:
    | 'friend_request'
    | 'friend_accepted'
    | 'follow_request'
    | 'follow_accepted'
    | 'player_online'
    | 'system_announcement'
    | 'account_update';
  metadata: NotificationMetadata;
  creatorId?: string | null;
  now?: Date;
}

export async function tell(tx: Queryable, input: TellInput): Promise<void> {
  await notify(tx, {
    userId: input.userId,
    type: input.type,
    metadata: input.metadata,
    creatorId: input.creatorId ?? null,
    ...(input.now ? { now: input.now } : {}),
  });
}
