// The only place with the Web Push SQL (db/schema/10_push_reminders.sql): subscriptions per device
// and the one-hour dedupe window per user, match and type.
import DataLoader from 'dataloader';
import type { Queryable } from '../../db/database.ts';

export interface SubscriptionRow {
  id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface SubscriptionInput {
  userId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  userAgent: string | null;
}

/** A browser's endpoint belongs to whoever subscribed with it last, so it is never pushed to twice. */
export async function upsertSubscription(db: Queryable, input: SubscriptionInput): Promise<{ id: string; created: boolean }> {
  const [row] = await db.query<{ id: string; created: boolean }>(
    `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, user_agent)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (endpoint) DO UPDATE
        SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
            user_agent = EXCLUDED.user_agent, updated_at = now(), failures = 0
     RETURNING id, (xmax = 0) AS created`,
    [input.userId, input.endpoint, input.p256dh, input.auth, input.userAgent],
  );
  return row!;
}

/** Deletes the caller's own subscription; false when they have none with this endpoint. */
export async function deleteOwnSubscription(db: Queryable, userId: string, endpoint: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2 RETURNING id', [userId, endpoint]);
  return rows.length > 0;
}

/** Each player's devices, newest first, at most `MAX_SUBSCRIPTIONS_PER_USER` each. */
async function subscriptionsOfMany(db: Queryable, userIds: readonly string[]): Promise<SubscriptionRow[][]> {
  const rows = await db.query<SubscriptionRow>(
    `SELECT id, user_id, endpoint, p256dh, auth
       FROM (SELECT id, user_id, endpoint, p256dh, auth,
                    row_number() OVER (PARTITION BY user_id ORDER BY updated_at DESC, id) AS n
               FROM push_subscriptions WHERE user_id = ANY ($1::uuid[])) s
      WHERE n <= $2 ORDER BY user_id, n`,
    [[...new Set(userIds)], MAX_SUBSCRIPTIONS_PER_USER],
    'push_subscriptions_of',
  );
  const byUser = new Map<string, SubscriptionRow[]>();
  for (const row of rows) {
    const devices = byUser.get(row.user_id);
    if (devices) devices.push(row);
    else byUser.set(row.user_id, [row]);
  }
  return userIds.map((id) => byUser.get(id) ?? []);
}

// A finished match's notifications are delivered together: their players' devices are read in one statement.
const loaders = new WeakMap<Queryable, DataLoader<string, SubscriptionRow[]>>();

/** A player's devices, newest first, at most `MAX_SUBSCRIPTIONS_PER_USER`; the reads asked for together go as one. */
export function subscriptionsOf(db: Queryable, userId: string): Promise<SubscriptionRow[]> {
  let loader = loaders.get(db);
  if (!loader) {
    loader = new DataLoader((ids) => subscriptionsOfMany(db, ids), { cache: false });
    loaders.set(db, loader);
  }
  return loader.load(userId);
}

/** Devices one player may have subscribed at once: a new one beyond them drops the longest unused. */
export const MAX_SUBSCRIPTIONS_PER_USER = 10;

/** Keeps the player's `MAX_SUBSCRIPTIONS_PER_USER` most recently subscribed devices; returns how many went. */
export async function trimSubscriptions(db: Queryable, userId: string): Promise<number> {
  const rows = await db.query(
    `DELETE FROM push_subscriptions WHERE id IN (
       SELECT id FROM push_subscriptions WHERE user_id = $1 ORDER BY updated_at DESC, id OFFSET $2
     ) RETURNING id`,
    [userId, MAX_SUBSCRIPTIONS_PER_USER],
  );
  return rows.length;
}

/** The push service says the subscription is gone (404/410): it never comes back. */
export async function deleteSubscription(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM push_subscriptions WHERE id = $1', [id]);
}

export async function recordSent(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE push_subscriptions SET last_sent_at = now(), failures = 0 WHERE id = $1', [id]);
}

export async function recordFailure(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE push_subscriptions SET failures = failures + 1 WHERE id = $1', [id]);
}

/** True for exactly one of any concurrent callers, unless a push for (user, match, type) went within `windowMs`. */
export async function claimDedupe(
  db: Queryable,
  key: { userId: string; matchId: string; type: string },
  now: Date,
  windowMs: number,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO push_dedupe (user_id, match_id, type, sent_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id, match_id, type) DO UPDATE SET sent_at = EXCLUDED.sent_at
      WHERE push_dedupe.sent_at <= EXCLUDED.sent_at - make_interval(secs => $5::double precision / 1000)
     RETURNING 1`,
    [key.userId, key.matchId, key.type, now, windowMs],
  );
  return rows.length > 0;
}

/** Dedupe rows older than the window decide nothing any more. */
export async function pruneDedupe(db: Queryable, now: Date, windowMs: number): Promise<number> {
  const rows = await db.query(
    `DELETE FROM push_dedupe WHERE sent_at < $1::timestamptz - make_interval(secs => $2::double precision / 1000) RETURNING 1`,
    [now, windowMs],
  );
  return rows.length;
}
