// Notifications for their owner, and the jobs behind them; every mark publishes its event in its own
// transaction.
import { NOTIFICATIONS, type Currency } from '@versus/domain';
import type { ChallengeAcceptedEvent } from '@versus/domain/challenges';
import {
  NOTIFICATION_EVENTS,
  eventEnabled,
  notificationPreferencesSchema,
  readPreferences,
  type Notification,
  type NotificationList,
  type NotificationPreferences,
  type NotificationsReadAllEvent,
} from '@versus/domain/notifications';
import type { AccessClaims } from '../auth/claims.ts';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { publish, topics } from '../realtime/publish.ts';
import { notify, type DeliveryLog } from './notify.ts';
import * as repo from './notifications.repository.ts';
import { UUID } from '../http/validation.ts';

type Ctx = Pick<AppContext, 'db' | 'log'>;

/** An id that is not one of ours reads as "not found" like another user's. */
function checkId(id: string): string {
  if (!UUID.test(id)) throw notFound(NOTIFICATIONS.notFound);
  return id;
}

export async function list(ctx: Ctx, user: AccessClaims, limit: number, now = new Date()): Promise<NotificationList> {
  const [notifications, counts] = await Promise.all([
    repo.listActive(ctx.db, user.userId, limit, now),
    repo.unreadCounts(ctx.db, user.userId, now),
  ]);
  return { notifications, ...counts };
}

async function updated(tx: Queryable, n: Notification): Promise<void> {
  await publish(tx, topics.user(n.userId), NOTIFICATION_EVENTS.updated, n);
}

export async function markRead(ctx: Ctx, user: AccessClaims, id: string, now = new Date()): Promise<Notification> {
  checkId(id);
  return ctx.db.transaction(async (tx) => {
    const result = await repo.markRead(tx, id, user.userId, now);
    if (!result) throw notFound(NOTIFICATIONS.notFound);
    if (result.changed) await updated(tx, result.notification);
    return result.notification;
  });
}

export async function markAllRead(ctx: Ctx, user: AccessClaims, now = new Date()): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const count = await repo.markAllRead(tx, user.userId, now);
    if (count > 0) {
      const event: NotificationsReadAllEvent = { count, at: now.toISOString() };
      await publish(tx, topics.user(user.userId), NOTIFICATION_EVENTS.readAll, event);
    }
    return count;
  });
}

/** A persistent notification is only marked read; any other is dismissed (read, and gone from the list). */
export async function dismiss(ctx: Ctx, user: AccessClaims, id: string, now = new Date()): Promise<Notification> {
  checkId(id);
  return ctx.db.transaction(async (tx) => {
    const found = await repo.findOwn(tx, id, user.userId, true);
    if (!found) throw notFound(NOTIFICATIONS.notFound);
    if (found.persistent) {
      const result = await repo.markRead(tx, id, user.userId, now);
      if (result?.changed) await updated(tx, result.notification);
      return result?.notification ?? found;
    }
    const dismissed = await repo.dismiss(tx, id, user.userId, now);
    if (!dismissed) return found;
    await updated(tx, dismissed);
    return dismissed;
  });
}

// ---------------------------------------------------------------------------------------
// Preferences: one row per user, JSON text (SPEC §3), upserted

export async function getPreferences(ctx: Ctx, user: AccessClaims): Promise<NotificationPreferences> {
  return preferencesOf(ctx.db, user.userId);
}

/** A user's preferences over the defaults, in a transaction too (push and reminders decide by them). */
export async function preferencesOf(db: Queryable, userId: string): Promise<NotificationPreferences> {
  return readPreferences(await repo.readPreferences(db, userId));
}

export async function putPreferences(ctx: Ctx, user: AccessClaims, body: unknown, now = new Date()): Promise<NotificationPreferences> {
  const parsed = notificationPreferencesSchema.safeParse(body);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const field = issue?.path.join('.') || undefined;
    const ours: string[] = [NOTIFICATIONS.invalidQuietHours, NOTIFICATIONS.invalidTimeZone, NOTIFICATIONS.invalidReminderMinutes];
    const message = issue && ours.includes(issue.message) ? issue.message : NOTIFICATIONS.invalidPreferences;
    throw badRequest('invalid_preferences', field ? `${message}: ${field}` : message, field);
  }
  await repo.upsertPreferences(ctx.db, user.userId, JSON.stringify(parsed.data), now);
  return parsed.data;
}

// ---------------------------------------------------------------------------------------
// Challenge accepted: the creator's notification and the analytics record (SPEC §3)

export async function notifyChallengeAccepted(
  tx: Queryable,
  event: ChallengeAcceptedEvent,
  extra: { currency: Currency },
  now = new Date(),
): Promise<Notification> {
  await repo.insertAnalytics(
    tx,
    event.creatorId,
    'challenge_accepted',
    {
      challenge_id: event.challengeId,
      match_id: event.matchId,
      creator_id: event.creatorId,
      acceptor_id: event.acceptorId,
      game_type: event.gameType,
      bet_amount: event.betAmount,
      opponent_name: event.opponentName,
      is_private: event.isPrivate,
      room_code: event.roomCode,
      scheduled_time: event.scheduledTime,
    },
    now,
  );
  return notify(tx, {
    userId: event.creatorId,
    type: 'challenge_accepted',
    metadata: { ...event, currency: extra.currency },
    matchId: event.matchId,
    challengeId: event.challengeId,
    creatorId: event.creatorId,
    now,
  });
}

// ---------------------------------------------------------------------------------------
// Jobs

export const cleanup = (ctx: Ctx, now = new Date()): Promise<repo.CleanupCounts> => ctx.db.transaction((tx) => repo.cleanup(tx, now));

/** How long the player to move waits before "your turn" is sent (watching players have moved by then). */
export const TURN_NOTICE_AFTER_MS = 30_000;

/** "Your turn" for players who have been on the move a while; at most one unread per match. */
export async function sweepTurns(ctx: Ctx, now = new Date(), limit = 500): Promise<number> {
  const waiting = await repo.waitingTurns(ctx.db, new Date(now.getTime() - TURN_NOTICE_AFTER_MS), limit);
  let sent = 0;
  for (const turn of waiting) {
    try {
      await ctx.db.transaction(async (tx) => {
        // Still their turn, since the same moment (the match row is the truth; a move may have landed).
        if (!(await repo.stillTheirTurn(tx, turn.matchId, turn.sinceMs))) return;
        // "When it's my turn" off: not told (this notice exists only to alert).
        if (!eventEnabled(await preferencesOf(tx, turn.userId), 'match_move_made')) return;
        await notify(tx, {
          userId: turn.userId,
          type: 'match_move_made',
          metadata: { matchId: turn.matchId, gameType: turn.gameType, opponentName: turn.opponentName, opponentId: turn.opponentId },
          matchId: turn.matchId,
          now,
        });
        sent++;
      });
    } catch (error) {
      ctx.log.error({ err: error, matchId: turn.matchId }, 'notifications: your-turn notice failed');
    }
  }
  return sent;
}

/** Deliveries whose NOTIFY was lost (a crash right after the commit): claimed and sent once. */
export async function recoverDeliveries(
  ctx: Pick<AppContext, 'db' | 'deliverers'> & Partial<Pick<AppContext, 'metrics'>>,
  log: DeliveryLog,
  now = new Date(),
): Promise<number> {
  if (!ctx.deliverers.any) return 0;
  const ids = await repo.unclaimedIds(ctx.db, new Date(now.getTime() - 30_000), new Date(now.getTime() - 60 * 60_000), 200);
  let sent = 0;
  for (const id of ids) if (await ctx.deliverers.deliverCommitted(ctx.db, id, log, ctx.metrics?.notificationLag)) sent++;
  return sent;
}
