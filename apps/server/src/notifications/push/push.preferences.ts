// A user's notification preferences as stored by the notifications module (one row, JSON text),
// read over the defaults; push delivery and the reminders worker decide by them.
import { readPreferences, type NotificationPreferences } from '@versus/domain/notifications';
import type { Queryable } from '../../db/database.ts';
import * as notificationsRepo from '../notifications.repository.ts';

export async function preferencesOf(db: Queryable, userId: string): Promise<NotificationPreferences> {
  return readPreferences(await notificationsRepo.readPreferences(db, userId));
}
