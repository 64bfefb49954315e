// Notifications on real PostgreSQL: made in the event's transaction, owner-only, cleaned up, and delivered to
// the user's socket.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATIONS } from '@versus/domain';
import type { ApiErrorBody } from '@versus/domain/errors';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  NotificationTemplateError,
  type Notification,
  type NotificationList,
  type NotificationPreferences,
} from '@versus/domain/notifications';
import { createKit, playTicTacToeGame, type Kit, type Player } from '../arena/arena.test-kit.ts';
import { publish, topics } from '../realtime/publish.ts';
import { listen, TestSocket } from '../realtime/test-socket.ts';
import { notify, notifyMany } from './notify.ts';
import * as service from './notifications.service.ts';

let kit: Kit;
const db = () => kit.test.database.db;
const ctx = () => kit.app.services;

beforeAll(async () => {
  kit = await createKit();
});
afterAll(() => kit?.close());

type AnyReply = NotificationList & { notification: Notification; count: number; preferences: NotificationPreferences } & ApiErrorBody;

async function call(method: 'GET' | 'POST' | 'PUT', url: string, as?: Player, body?: unknown) {
  const response = await kit.app.inject({
    method,
    url,
    headers: as?.headers ?? {},
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return { status: response.statusCode, body: response.json<AnyReply>() };
}

const rows = (userId: string) =>
  db().query<{ id: string; type: string; status: string; read: boolean; created_at: Date }>(
    'SELECT id, type, status, read, created_at FROM notifications WHERE user_id = $1 ORDER BY created_at, id',
    [userId],
  );

const announce = (userId: string, message: string, now?: Date) =>
  db().transaction((tx) => notify(tx, { userId, type: 'system_announcement', metadata: { message }, ...(now ? { now } : {}) }));

describe('notify(): in the transaction of the event', () => {
  it('a rolled-back event makes no notification and publishes nothing', async () => {
    const alice = await kit.player();
    const before = await kit.events(topics.user(alice.id));
    await expect(
      db().transaction(async (tx) => {
        await publish(tx, topics.user(alice.id), 'something.happened', {});
        await notify(tx, { userId: alice.id, type: 'system_announcement', metadata: { message: 'never seen' } });
        throw new Error('the event failed');
      }),
    ).rejects.toThrow('the event failed');
    expect(await rows(alice.id)).toEqual([]);
    expect(await kit.events(topics.user(alice.id))).toEqual(before);
  });

  it('a committed one is a row and a notification.created event with the same content', async () => {
    const alice = await kit.player();
    const made = await announce(alice.id, 'Servers restart at noon.');
    expect(made).toMatchObject({
      userId: alice.id,
      type: 'system_announcement',
      title: 'Announcement',
      status: 'unread',
      read: false,
      version: 1,
    });
    const events = (await kit.events(topics.user(alice.id))).filter((e) => e.type === 'notification.created');
    expect(events.map((e) => e.payload)).toEqual([made]);
    const list = await call('GET', '/api/notifications', alice);
    expect(list.body.notifications).toEqual([made]);
    expect(list.body).toMatchObject({ unread: 1, urgentUnread: 0 });
  });

  it('refuses missing metadata and writes nothing', async () => {
    const alice = await kit.player();
    await expect(
      db().transaction((tx) => notify(tx, { userId: alice.id, type: 'match_invitation', metadata: { gameType: 'chess' } })),
    ).rejects.toThrow(new NotificationTemplateError('match_invitation', ['opponentName', 'betAmount']));
    expect(await rows(alice.id)).toEqual([]);
  });

  it('keeps at most 50 active: the oldest beyond are archived at once', async () => {
    const alice = await kit.player();
    const start = Date.now() - 60_000;
    for (let i = 0; i < 52; i++) await announce(alice.id, `n${i}`, new Date(start + i * 100));
    const all = await rows(alice.id);
    expect(all.filter((r) => r.status === 'archived').length).toBe(2);
    expect(all.slice(0, 2).every((r) => r.status === 'archived')).toBe(true);
    const list = await call('GET', '/api/notifications?limit=100', alice);
    expect(list.body.notifications).toHaveLength(50);
    expect(list.body.unread).toBe(50);
  });

  it('several in one statement, among other events, are each a row, and the cap holds across them', async () => {
    const [alice, bob] = [await kit.player(), await kit.player()];
    const start = Date.now() - 60_000;
    for (let i = 0; i < 48; i++) await announce(alice.id, `old ${i}`, new Date(start + i * 100));
    const at = (i: number) => new Date(start + 10_000 + i * 100);
    await db().transaction((tx) =>
      notifyMany(
        tx,
        [
          ...[0, 1, 2, 3].map((i) => ({
            userId: alice.id,
            type: 'system_announcement' as const,
            metadata: { message: `new ${i}` },
            now: at(i),
          })),
          { userId: bob.id, type: 'system_announcement', metadata: { message: 'for bob' }, now: at(4) },
        ],
        [{ topic: topics.user(bob.id), type: 'something.happened', payload: { type: 'system_announcement' } }],
      ),
    );
    const alices = await rows(alice.id);
    expect(alices).toHaveLength(52);
    expect(alices.filter((r) => r.status === 'archived').map((r) => r.id)).toEqual(alices.slice(0, 2).map((r) => r.id));
    const list = await call('GET', '/api/notifications?limit=100', alice);
    expect(list.body.notifications.slice(0, 4).map((n) => n.message)).toEqual(['new 3', 'new 2', 'new 1', 'new 0']);
    expect((await rows(bob.id)).map((r) => [r.type, r.status])).toEqual([['system_announcement', 'unread']]);
  });
});

describe('challenge accepted', () => {
  it('notifies the creator with the match as target and writes the analytics record', async () => {
    const alice = await kit.player();
    const bob = await kit.player('bobby');
    const matchId = await kit.match('chess', alice, bob, { stake: 30 });
    const list = await call('GET', '/api/notifications', alice);
    const accepted = list.body.notifications.find((n) => n.type === 'challenge_accepted')!;
    expect(accepted).toMatchObject({
      title: 'Challenge Accepted',
      category: 'challenge',
      priority: 'high',
      urgent: true,
      matchId,
      creatorId: alice.id,
      targetUrl: `/matches?highlight=${matchId}`,
      actions: [{ label: 'View Match', url: `/matches?highlight=${matchId}`, type: 'view' }],
    });
    expect(accepted.message).toMatch(/^bobby\S* accepted your Chess challenge for \$30\.00\.$/);
    expect(list.body.urgentUnread).toBeGreaterThanOrEqual(1);
    // The acceptor is not told about their own accept.
    expect((await call('GET', '/api/notifications', bob)).body.notifications.some((n) => n.type === 'challenge_accepted')).toBe(false);

    const [analytics] = await db().query<{ user_id: string; event_type: string; event_data: Record<string, unknown> }>(
      'SELECT user_id, event_type, event_data FROM notification_analytics WHERE user_id = $1',
      [alice.id],
    );
    expect(analytics).toMatchObject({ user_id: alice.id, event_type: 'challenge_accepted' });
    expect(Object.keys(analytics!.event_data).sort()).toEqual(
      [
        'acceptor_id',
        'bet_amount',
        'challenge_id',
        'creator_id',
        'game_type',
        'is_private',
        'match_id',
        'opponent_name',
        'room_code',
        'scheduled_time',
      ].sort(),
    );
    expect(analytics!.event_data).toMatchObject({
      match_id: matchId,
      creator_id: alice.id,
      acceptor_id: bob.id,
      game_type: 'chess',
      bet_amount: 30,
      is_private: false,
      room_code: null,
    });
  });
});

describe('the API: only my own notifications', () => {
  it('read, read-all and dismiss; a persistent one is only marked read', async () => {
    const alice = await kit.player();
    const a = await announce(alice.id, 'one');
    const b = await announce(alice.id, 'two');
    const persistent = await db().transaction((tx) =>
      notify(tx, { userId: alice.id, type: 'security_alert', metadata: { message: 'New sign-in' } }),
    );

    const read = await call('POST', `/api/notifications/${a.id}/read`, alice);
    expect(read.status).toBe(200);
    expect(read.body.notification).toMatchObject({ id: a.id, status: 'read', read: true, version: 2 });
    expect(read.body.notification.readAt).not.toBeNull();
    // Idempotent: reading again changes nothing.
    expect((await call('POST', `/api/notifications/${a.id}/read`, alice)).body.notification.version).toBe(2);

    const kept = await call('POST', `/api/notifications/${persistent.id}/dismiss`, alice);
    expect(kept.body.notification).toMatchObject({ status: 'read', read: true, persistent: true });
    const gone = await call('POST', `/api/notifications/${b.id}/dismiss`, alice);
    expect(gone.body.notification).toMatchObject({ status: 'dismissed', read: true });

    const list = await call('GET', '/api/notifications', alice);
    expect(list.body.notifications.map((n) => n.id).sort()).toEqual([a.id, persistent.id].sort());
    expect(list.body.unread).toBe(0);

    const c = await announce(alice.id, 'three');
    await announce(alice.id, 'four');
    const all = await call('POST', '/api/notifications/read-all', alice);
    expect(all.body).toEqual({ count: 2 });
    expect((await call('GET', '/api/notifications', alice)).body).toMatchObject({ unread: 0, urgentUnread: 0 });
    expect((await rows(alice.id)).find((r) => r.id === c.id)).toMatchObject({ status: 'read', read: true });
    const events = (await kit.events(topics.user(alice.id))).map((e) => e.type);
    expect(events.filter((t) => t === 'notification.updated')).toHaveLength(3);
    expect(events.at(-1)).toBe('notification.read-all');
    expect((await call('POST', '/api/notifications/read-all', alice)).body).toEqual({ count: 0 });
  });

  it('read-all marks only what was made up to its moment: one arriving meanwhile stays unread, as its event tells other tabs', async () => {
    const alice = await kit.player();
    const at = new Date();
    const seen = await announce(alice.id, 'seen', new Date(at.getTime() - 1000));
    // Made by another process a moment after the click, committed before the mark's UPDATE.
    const arriving = await announce(alice.id, 'arriving', new Date(at.getTime() + 1000));
    expect(await service.markAllRead(ctx(), { userId: alice.id, role: 'user', accountType: 'real' }, at)).toBe(1);
    const after = new Map((await rows(alice.id)).map((r) => [r.id, r.status]));
    expect(after.get(seen.id)).toBe('read');
    expect(after.get(arriving.id)).toBe('unread');
    const [event] = (await kit.events(topics.user(alice.id))).filter((e) => e.type === 'notification.read-all');
    expect(event!.payload).toEqual({ count: 1, at: at.toISOString() });
    expect((await call('GET', '/api/notifications', alice)).body.unread).toBe(1);
  });

  it("another user's notification is not found; a signed-out request is 401", async () => {
    const alice = await kit.player();
    const mallory = await kit.player();
    const mine = await announce(alice.id, 'private');
    const before = JSON.stringify(await rows(alice.id));
    for (const action of ['read', 'dismiss']) {
      const reply = await call('POST', `/api/notifications/${mine.id}/${action}`, mallory);
      expect(reply.status).toBe(404);
      expect(reply.body.error).toEqual({ code: 'not_found', message: NOTIFICATIONS.notFound });
    }
    expect((await call('POST', `/api/notifications/not-a-uuid/read`, alice)).status).toBe(404);
    expect((await call('POST', `/api/notifications/${crypto.randomUUID()}/dismiss`, alice)).status).toBe(404);
    expect((await call('GET', '/api/notifications', mallory)).body.notifications).toEqual([]);
    await call('POST', '/api/notifications/read-all', mallory);
    expect(JSON.stringify(await rows(alice.id))).toBe(before);

    for (const [method, url] of [
      ['GET', '/api/notifications'],
      ['POST', `/api/notifications/${mine.id}/read`],
      ['POST', `/api/notifications/${mine.id}/dismiss`],
      ['POST', '/api/notifications/read-all'],
      ['GET', '/api/notifications/preferences'],
      ['PUT', '/api/notifications/preferences'],
    ] as const) {
      const reply = await call(method, url, undefined, method === 'PUT' ? DEFAULT_NOTIFICATION_PREFERENCES : undefined);
      expect(reply.status, `${method} ${url}`).toBe(401);
      expect(reply.body.error).toEqual({ code: 'unauthorized', message: NOTIFICATIONS.signInToView });
    }
    expect(JSON.stringify(await rows(alice.id))).toBe(before);
  });

  it('documents its routes in OpenAPI', async () => {
    const response = await kit.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const paths = response.json<{ paths: Record<string, Record<string, { tags?: string[] }>> }>().paths;
    for (const [path, method] of [
      ['/api/notifications', 'get'],
      ['/api/notifications/read-all', 'post'],
      ['/api/notifications/{id}/read', 'post'],
      ['/api/notifications/{id}/dismiss', 'post'],
      ['/api/notifications/preferences', 'get'],
      ['/api/notifications/preferences', 'put'],
    ] as const) {
      expect(paths[path]?.[method]?.tags, `${method} ${path}`).toEqual(['notifications']);
    }
  });

  it('refuses a bad limit', async () => {
    const alice = await kit.player();
    for (const limit of ['0', '101', 'x']) {
      const reply = await call('GET', `/api/notifications?limit=${limit}`, alice);
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatchObject({ code: 'invalid_input', field: 'limit' });
    }
  });
});

describe('preferences', () => {
  it('defaults until saved; one row per user, upserted; invalid values refused with nothing saved', async () => {
    const alice = await kit.player();
    expect((await call('GET', '/api/notifications/preferences', alice)).body.preferences).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);

    const quiet: NotificationPreferences = {
      ...DEFAULT_NOTIFICATION_PREFERENCES,
      general: {
        ...DEFAULT_NOTIFICATION_PREFERENCES.general,
        quietHours: { enabled: true, start: '23:00', end: '07:30', timeZone: 'Europe/Paris' },
      },
      match: { ...DEFAULT_NOTIFICATION_PREFERENCES.match, reminderMinutes: [30, 10] },
    };
    const saved = await call('PUT', '/api/notifications/preferences', alice, quiet);
    expect(saved.status).toBe(200);
    expect(saved.body.preferences).toEqual(quiet);
    const louder = { ...quiet, general: { ...quiet.general, sound: false } };
    expect((await call('PUT', '/api/notifications/preferences', alice, louder)).status).toBe(200);
    expect((await call('GET', '/api/notifications/preferences', alice)).body.preferences).toEqual(louder);
    const stored = await db().query<{ preferences: string }>('SELECT preferences FROM user_notification_preferences WHERE user_id = $1', [
      alice.id,
    ]);
    expect(stored).toHaveLength(1);
    expect(JSON.parse(stored[0]!.preferences)).toEqual(louder);

    const bad: [unknown, string | undefined][] = [
      [
        { ...louder, general: { ...louder.general, quietHours: { ...louder.general.quietHours, start: '24:00' } } },
        'general.quietHours.start',
      ],
      [{ ...louder, match: { ...louder.match, reminderMinutes: [5, 5] } }, 'match.reminderMinutes'],
      [{ ...louder, general: { ...louder.general, maxUnread: 500 } }, 'general.maxUnread'],
      [{ ...louder, extra: true }, undefined],
      [['nonsense'], undefined],
    ];
    for (const [body, field] of bad) {
      const reply = await call('PUT', '/api/notifications/preferences', alice, body);
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('invalid_preferences');
      if (field) expect(reply.body.error.field).toBe(field);
      if (field === 'general.quietHours.start') expect(reply.body.error.message).toBe(`${NOTIFICATIONS.invalidQuietHours}: ${field}`);
    }
    expect((await call('GET', '/api/notifications/preferences', alice)).body.preferences).toEqual(louder);
    // Another user's preferences are theirs alone.
    const bob = await kit.player();
    expect((await call('GET', '/api/notifications/preferences', bob)).body.preferences).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);
  });
});

describe('cleanup (every 6 hours)', () => {
  it('archives after 7 days and expired ones, deletes after retention or 90 days, keeps 50 active', async () => {
    const alice = await kit.player();
    const now = new Date();
    const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);
    const fresh = await announce(alice.id, 'fresh', daysAgo(1));
    const week = await announce(alice.id, 'eight days', daysAgo(8));
    const old = await announce(alice.id, 'thirty-one days', daysAgo(31)); // system: 30 days' retention
    const financial = await db().transaction((tx) =>
      notify(tx, { userId: alice.id, type: 'credits_earned', metadata: { amount: 5, currency: 'credits' }, now: daysAgo(60) }),
    );
    const ancient = await db().transaction((tx) =>
      notify(tx, { userId: alice.id, type: 'credits_earned', metadata: { amount: 5, currency: 'credits' }, now: daysAgo(91) }),
    );
    const expiring = await db().transaction((tx) =>
      notify(tx, {
        userId: alice.id,
        type: 'match_ready',
        metadata: { matchId: crypto.randomUUID(), gameType: 'chess' },
        now: new Date(now.getTime() - 11 * 60_000),
      }),
    );
    // An expired one is already out of the list before the cleanup runs.
    expect((await call('GET', '/api/notifications', alice)).body.notifications.map((n) => n.id)).not.toContain(expiring.id);

    const result = await service.cleanup(ctx(), now);
    expect(result.deleted).toBeGreaterThanOrEqual(2);
    const after = new Map((await rows(alice.id)).map((r) => [r.id, r.status]));
    expect(after.get(fresh.id)).toBe('unread');
    expect(after.get(week.id)).toBe('archived');
    expect(after.get(financial.id)).toBe('archived');
    expect(after.get(expiring.id)).toBe('archived');
    expect(after.has(old.id)).toBe(false);
    expect(after.has(ancient.id)).toBe(false);

    // More than 50 active (as after a change of the cap, or rows older than the trigger): the oldest go.
    const bob = await kit.player();
    for (let i = 0; i < 3; i++) await announce(bob.id, `b${i}`);
    await db().query(`UPDATE notifications SET status = 'unread' WHERE user_id = $1`, [bob.id]);
    const capped = await db().transaction(async (tx) => {
      await tx.query(`ALTER TABLE realtime_events DISABLE TRIGGER realtime_events_notification`);
      for (let i = 0; i < 50; i++) {
        await tx.query(
          `INSERT INTO notifications (id, user_id, type, title, message, category, priority, created_at)
           VALUES (gen_random_uuid(), $1, 'feature_update', 'New Feature', 'x', 'system', 'low',
                   now() - interval '1 day' + $2 * interval '1 second')`,
          [bob.id, i],
        );
      }
      await tx.query(`ALTER TABLE realtime_events ENABLE TRIGGER realtime_events_notification`);
      return (
        await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND status = 'unread'`, [bob.id])
      )[0]!.n;
    });
    expect(capped).toBe(53);
    const second = await service.cleanup(ctx(), new Date());
    expect(second.capped).toBe(3);
    const bobs = await rows(bob.id);
    expect(bobs.filter((r) => r.status === 'unread')).toHaveLength(50);
    // The newest three (made today) are kept.
    expect(bobs.filter((r) => r.status === 'archived').every((r) => new Date(r.created_at).getTime() < Date.now() - 3_600_000)).toBe(true);
  });
});

describe("the arena's notifications", () => {
  it('opponent ready, match started to both, your turn after a wait, and win and loss at the end', async () => {
    const alice = await kit.player();
    const bob = await kit.player();
    const matchId = await kit.match('tic-tac-toe', alice, bob);
    const view = await kit.start(matchId, alice, bob);
    const types = async (p: Player) => (await rows(p.id)).map((r) => r.type);
    // Alice readied first: Bob heard she was ready; then both heard it started.
    expect(await types(bob)).toEqual(expect.arrayContaining(['match_ready', 'match_started']));
    expect((await types(alice)).filter((t) => t === 'match_started')).toHaveLength(1);
    expect((await types(alice)).includes('match_ready')).toBe(false);
    const started = (await call('GET', '/api/notifications', alice)).body.notifications.find((n) => n.type === 'match_started')!;
    expect(started).toMatchObject({ title: 'Match Started', targetUrl: `/live-arena?match=${matchId}`, matchId });

    // Your turn: only once the player to move has waited, one unread per match.
    const mover = kit.mover(view, [alice, bob]);
    expect(await service.sweepTurns(ctx(), new Date())).toBe(0);
    expect(await service.sweepTurns(ctx(), new Date(Date.now() + 60_000))).toBe(1);
    expect(await service.sweepTurns(ctx(), new Date(Date.now() + 120_000))).toBe(0);
    expect((await types(mover)).filter((t) => t === 'match_move_made')).toHaveLength(1);
    // A player who turned "When it's my turn" off is not told (server-side, not only on screen).
    const other = mover.id === alice.id ? bob : alice;
    const quiet = JSON.parse(JSON.stringify(DEFAULT_NOTIFICATION_PREFERENCES)) as NotificationPreferences;
    quiet.match.turnAlerts = false;
    expect((await call('PUT', '/api/notifications/preferences', other, quiet)).status).toBe(200);
    expect((await kit.move(matchId, mover, mover.id === alice.id ? 0 : 3, { version: view.version })).status).toBe(200);
    expect(await service.sweepTurns(ctx(), new Date(Date.now() + 60_000))).toBe(0);
    expect((await types(other)).filter((t) => t === 'match_move_made')).toHaveLength(0);
    let current = await kit.view(matchId, alice);

    // Play the series out: alice wins every game.
    while (current.status === 'in_progress') {
      await playTicTacToeGame(kit, matchId, [alice, bob], alice);
      current = await kit.view(matchId, alice);
    }
    const aliceList = (await call('GET', '/api/notifications', alice)).body.notifications;
    expect(aliceList.find((n) => n.type === 'match_completed')).toMatchObject({ title: 'You Won!', matchId });
    expect(aliceList.find((n) => n.type === 'credits_earned')?.message).toBe('$50.00 credits added to your account. Match winnings.');
    const bobList = (await call('GET', '/api/notifications', bob)).body.notifications;
    expect(bobList.find((n) => n.type === 'match_completed')).toMatchObject({ title: 'Match Lost' });
    expect(bobList.some((n) => n.type === 'credits_earned')).toBe(false);
  });
});

describe('delivery', () => {
  it("the user's socket receives notification.created and notification.updated; another user's does not", async () => {
    const url = await listen(kit.app);
    const alice = await kit.player();
    const bob = await kit.player();
    const socket = await TestSocket.signedIn(url, alice.token);
    const other = await TestSocket.signedIn(url, bob.token);
    try {
      socket.send({ t: 'sub', d: { topic: topics.user(alice.id) } });
      await socket.next('subscribed');
      other.send({ t: 'sub', d: { topic: topics.user(alice.id) } });
      expect((await other.next('error')).d.code).toBe('forbidden_topic');

      const made = await announce(alice.id, 'live');
      const [created] = await socket.events(1);
      expect(created).toMatchObject({ topic: topics.user(alice.id), type: 'notification.created', payload: made });
      await call('POST', `/api/notifications/${made.id}/read`, alice);
      const [updated] = await socket.events(1);
      expect(updated).toMatchObject({ type: 'notification.updated', payload: { id: made.id, status: 'read', version: 2 } });
    } finally {
      socket.close();
      other.close();
    }
  });

  it('committed notifications reach the registered deliverers once; rolled-back ones never', async () => {
    const alice = await kit.player();
    const seen: string[] = [];
    const stop = kit.app.services.deliverers.add((n) => {
      if (n.userId === alice.id) seen.push(n.message);
    });
    try {
      await db()
        .transaction(async (tx) => {
          await notify(tx, { userId: alice.id, type: 'system_announcement', metadata: { message: 'rolled back' } });
          throw new Error('no');
        })
        .catch(() => undefined);
      await announce(alice.id, 'kept');
      const deadline = Date.now() + 5000;
      while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 200));
      expect(seen).toEqual(['kept']);
      // Nothing was left unclaimed for the recovery job.
      expect(await service.recoverDeliveries(ctx(), kit.app.log, new Date(Date.now() + 60_000))).toBe(0);
    } finally {
      stop();
    }
  });

  /** Two server processes delivering a new player's notifications, as each registers its Web Push sender; `seen`: every delivery. */
  async function twoDeliveringProcesses() {
    const other = await kit.anotherApp();
    const alice = await kit.player();
    const seen: string[] = [];
    const stops = [kit.app, other].map((app) =>
      app.services.deliverers.add((n) => {
        if (n.userId === alice.id) seen.push(n.message);
      }),
    );
    const delivered = async (count: number) => {
      const deadline = Date.now() + 5000;
      while (seen.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300));
      return seen.slice().sort();
    };
    const stop = async () => {
      stops.forEach((remove) => remove());
      // A process left listening would claim the next test's notifications for its push deliverer alone.
      await other.close();
    };
    return { alice, seen, delivered, stop };
  }

  it('notifications committed together, claimed in one statement by each of two listening processes, are delivered once each', async () => {
    const { alice, delivered, stop } = await twoDeliveringProcesses();
    try {
      const burst = ['b0', 'b1', 'b2', 'b3', 'b4', 'b5'];
      await db().transaction(async (tx) => {
        for (const message of burst) await notify(tx, { userId: alice.id, type: 'system_announcement', metadata: { message } });
      });
      expect(await delivered(burst.length)).toEqual(burst);
      expect(await service.recoverDeliveries(ctx(), kit.app.log, new Date(Date.now() + 60_000))).toBe(0);
    } finally {
      await stop();
    }
  });

  it('with two server processes listening, each committed notification is delivered once; a lost one is recovered once', async () => {
    const { alice, seen, delivered, stop } = await twoDeliveringProcesses();
    try {
      for (let i = 0; i < 5; i++) await announce(alice.id, `m${i}`);
      expect(await delivered(5)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);

      // A NOTIFY lost to a crash: the row is committed but nobody claimed it.
      const lost = await announce(alice.id, 'lost');
      await new Promise((r) => setTimeout(r, 300));
      await db().query('UPDATE notifications SET delivery_claimed_at = NULL WHERE id = $1', [lost.id]);
      seen.length = 0;
      const later = new Date(Date.now() + 60_000);
      expect(await service.recoverDeliveries(ctx(), kit.app.log, later)).toBe(1);
      expect(await service.recoverDeliveries(ctx(), kit.app.log, later)).toBe(0);
      expect(seen).toEqual(['lost']);
    } finally {
      await stop();
    }
  });
});
