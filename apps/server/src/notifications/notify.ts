// The one way a notification is made (SPEC §3, §4): a `notification.created` event in the caller's transaction,
// stored as a row by trigger; after commit, the one process that claims it runs the deliverers.
import crypto from 'node:crypto';
import { NOTIFICATION_EVENTS, buildNotification as build, type Notification, type NotificationInput } from '@versus/domain/notifications';
import type { Database, Queryable } from '../db/database.ts';
import type { Observer } from '../observability/metrics.ts';
import { NOTIFICATION_COMMITTED_CHANNEL, ProcessInbox, sendAfterCommit, type ProcessLog } from '../realtime/process-protocol.ts';
import { publish, publishMany, topics } from '../realtime/publish.ts';
import * as repo from './notifications.repository.ts';

export type NotifyInput = Omit<NotificationInput, 'id'>;

/** The client's Notification for `input`, with a new id (throws "Missing required fields: ..."). */
export const buildNotification = (input: NotifyInput): Notification => build({ ...input, id: crypto.randomUUID() });

/** The event that makes the notification, for writers that publish their own; call announceCommitted after the commit. */
export function notificationEvent(input: NotifyInput): { topic: string; type: string; payload: string; notification: Notification } {
  const notification = buildNotification(input);
  return { topic: topics.user(input.userId), type: NOTIFICATION_EVENTS.created, payload: JSON.stringify(notification), notification };
}

/** Makes a notification in `tx` (see the top of this file). Returns it as the client sees it. */
export async function notify(tx: Queryable, input: NotifyInput): Promise<Notification> {
  const notification = buildNotification(input);
  await publish(tx, topics.user(input.userId), NOTIFICATION_EVENTS.created, notification);
  sendAfterCommit(tx, { t: 'notification', d: { id: notification.id } });
  return notification;
}

/** Many notifications in `tx` in one statement (publishMany): as notify() each; `alongside`: other events published in it. */
export async function notifyMany(
  tx: Queryable,
  inputs: readonly NotifyInput[],
  alongside: readonly { topic: string; type: string; payload: unknown }[] = [],
): Promise<void> {
  const notifications = inputs.map(buildNotification);
  await publishMany(tx, [
    ...notifications.map((n) => ({ topic: topics.user(n.userId), type: NOTIFICATION_EVENTS.created, payload: n })),
    ...alongside,
  ]);
  for (const n of notifications) sendAfterCommit(tx, { t: 'notification', d: { id: n.id } });
}

/** After a commit made outside notify() (the arena writer): hand these to the deliverers. */
export function announceCommitted(db: Queryable, ids: readonly string[]): void {
  for (const id of ids) sendAfterCommit(db, { t: 'notification', d: { id } });
}

// Deliverers (Web Push) of committed notifications

export type NotificationDeliverer = (notification: Notification) => void | Promise<void>;

export interface DeliveryLog {
  error(obj: object, msg: string): void;
}

/** One app's deliverers of committed notifications; each notification reaches them in one process. */
export class NotificationDeliverers {
  private readonly all = new Set<NotificationDeliverer>();

  /** Adds `fn`; returns the function that removes it. */
  add(fn: NotificationDeliverer): () => void {
    this.all.add(fn);
    return () => this.all.delete(fn);
  }

  get any(): boolean {
    return this.all.size > 0;
  }

  /** Claims the notification and runs the deliverers; false if another process had it. `lag`: creation to delivered, in seconds. */
  async deliverCommitted(db: Queryable, id: string, log: DeliveryLog, lag?: Observer): Promise<boolean> {
    return (await this.deliverAll(db, [id], log, lag)) > 0;
  }

  /** Claims these notifications in one statement and runs the deliverers on each this process got; answers how many. */
  async deliverAll(db: Queryable, ids: readonly string[], log: DeliveryLog, lag?: Observer): Promise<number> {
    if (!this.any || ids.length === 0) return 0;
    const claimed = await repo.claimDeliveries(db, ids);
    await Promise.all(
      claimed.map(async (notification) => {
        await this.run(notification, log);
        // A caller's clock (a test's fixed `now`) may put creation ahead of this one.
        lag?.observe(Math.max(0, Date.now() - Date.parse(notification.createdAt)) / 1000);
      }),
    );
    return claimed.length;
  }

  async run(notification: Notification, log: DeliveryLog): Promise<void> {
    for (const deliver of this.all) {
      try {
        await deliver(notification);
      } catch (error) {
        log.error({ err: error, notificationId: notification.id }, 'notification delivery failed');
      }
    }
  }

  /** Listens for committed notifications in this process; returns the unlisten function. */
  listen(db: Database, log: DeliveryLog & ProcessLog, lag?: Observer): Promise<() => Promise<void>> {
    // The ids that arrive together (a finished match's six) are claimed in one statement, one commit.
    let burst: string[] = [];
    const claim = () => {
      const ids = burst;
      burst = [];
      this.deliverAll(db, ids, log, lag).catch((error: unknown) =>
        log.error({ err: error, notificationIds: ids }, 'notification delivery claim failed'),
      );
    };
    return new ProcessInbox(NOTIFICATION_COMMITTED_CHANNEL, log).listen(db, ({ d: { id } }) => {
      if (burst.push(id) === 1) setImmediate(claim);
    });
  }
}

/** notify() where SPEC lets the notification fail without the event (a room's join): undone to a savepoint and logged. */
export async function notifyOrIgnore(tx: Queryable, input: NotifyInput, log: DeliveryLog): Promise<Notification | null> {
  await tx.query('SAVEPOINT notify_or_ignore');
  try {
    const notification = await notify(tx, input);
    await tx.query('RELEASE SAVEPOINT notify_or_ignore');
    return notification;
  } catch (error) {
    await tx.query('ROLLBACK TO SAVEPOINT notify_or_ignore');
    log.error({ err: error, type: input.type, userId: input.userId }, 'notification failed; the event goes ahead without it');
    return null;
  }
}
