// The social, verification and feedback features' one door to notifications: notify() from the
// notifications feature, in the caller's transaction (a rolled-back change notifies nobody).
import type { Queryable } from '../db/database.ts';

export interface TellInput {
  userId: string;
  type: 'friend_request' | 'friend_accepted' | 'follow_request' | 'follow_accepted' | 'player_online' | 'system_announcement' | 'account_update';
  metadata: Record<string, unknown>;
  creatorId?: string | null;
  now?: Date;
}

export async function tell(_tx: Queryable, _input: TellInput): Promise<void> {
  // Wired to notify() once the notifications feature has landed.
}
