// Web Push through a local stand-in that decrypts (RFC 8291) and verifies VAPID (RFC 8292), so these prove
// the encryption, not just that a request arrived.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_PREFERENCES, type Notification, type NotificationPreferences } from '@versus/domain/notifications';
import { AUTH, PUSH } from '@versus/domain';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { signUp } from '../../realtime/test-socket.ts';
import { MAX_SUBSCRIPTIONS_PER_USER } from './push.repository.ts';
import { openPostgres } from '../../db/database.ts';
import { browserKeys, decryptAes128gcm, FakePushService, verifyVapid, type BrowserKeys } from './push.test-kit.ts';
import { notify } from '../notify.ts';
import * as repo from './push.repository.ts';
import * as service from './push.service.ts';
import { SecretCache } from '../../db/secrets.ts';

let fake: FakePushService;
let t: TestApp;
let alice: { userId: string; token: string };
let bob: { userId: string; token: string };
let prefs: NotificationPreferences;

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function pushCtx(): service.PushContext {
  return {
    db: t.database.db,
    log: t.app.log,
    secrets: t.app.services.secrets,
    endpoints: { extraOrigins: [fake.origin] },
    vapidSubject: 'mailto:ops@versus.example',
    preferencesOf: async () => prefs,
  };
}

let seq = 0;
function notification(over: Partial<Notification> = {}): Notification {
  seq++;
  const createdAt = new Date().toISOString();
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    userId: alice.userId,
    type: 'challenge_accepted',
    title: 'Challenge Accepted',
    message: 'Bob accepted your Chess challenge.',
    shortMessage: 'Bob accepted your Chess challenge.',
    category: 'challenge',
    priority: 'high',
    urgent: true,
    silent: false,
    persistent: false,
    status: 'unread',
    read: false,
    readAt: null,
    createdAt,
    timestamp: createdAt,
    expiresAt: null,
    matchId: '11111111-1111-4111-8111-111111111111',
    challengeId: null,
    creatorId: null,
    metadata: {},
    actions: [{ label: 'View Match', url: '/matches?highlight=11111111-1111-4111-8111-111111111111', type: 'view' }],
    targetUrl: '/matches?highlight=11111111-1111-4111-8111-111111111111',
    version: 1,
    ...over,
  };
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function subscribeDevice(token: string, name: string): Promise<{ keys: BrowserKeys; endpoint: string; id: string }> {
  const keys = browserKeys();
  const endpoint = fake.endpoint(name);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/notifications/push/subscriptions',
    headers: auth(token),
    payload: { endpoint, expirationTime: null, keys: { p256dh: keys.p256dh, auth: keys.auth }, userAgent: 'vitest' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { keys, endpoint, id: res.json<{ id: string }>().id };
}

async function subscriptionCount(userId: string): Promise<number> {
  const [row] = await t.database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM push_subscriptions WHERE user_id = $1', [userId]);
  return row!.n;
}

beforeAll(async () => {
  fake = await FakePushService.start();
  process.env.PUSH_ENDPOINT_ORIGINS = fake.origin;
  t = await createTestApp();
  alice = await signUp(t.app, 'alice');
  bob = await signUp(t.app, 'bob');
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
  delete process.env.PUSH_ENDPOINT_ORIGINS;
});

beforeEach(async () => {
  prefs = copy(DEFAULT_NOTIFICATION_PREFERENCES);
  fake.received.length = 0;
  fake.answer = () => 201;
  await t.database.db.query('DELETE FROM push_subscriptions');
  await t.database.db.query('DELETE FROM push_dedupe');
});

describe('the VAPID public key', () => {
  it('is refused to a signed-out visitor', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/notifications/push/public-key' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: { code: 'unauthorized', message: AUTH.signInRequired } });
  });

  it('is a P-256 point generated once and shared through the database', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/notifications/push/public-key', headers: auth(alice.token) });
    expect(res.statusCode).toBe(200);
    const { publicKey } = res.json<{ publicKey: string }>();
    const point = Buffer.from(publicKey, 'base64url');
    expect(point.length).toBe(65);
    expect(point[0]).toBe(0x04);
    // Another process (its own pool, no cache) reads the same pair.
    const other = openPostgres(t.database.url, { max: 1 });
    try {
      expect((await service.vapidKeys(new SecretCache(other))).publicKey).toBe(publicKey);
      const rows = await other.query<{ n: number }>(`SELECT count(*)::int AS n FROM app_secrets WHERE name = $1`, [service.VAPID_SECRET]);
      expect(rows[0]!.n).toBe(1);
    } finally {
      await other.close();
    }
  });
});

describe('subscriptions', () => {
  it('need sign-in', async () => {
    const keys = browserKeys();
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/push/subscriptions',
      payload: { endpoint: fake.endpoint('anon'), keys: { p256dh: keys.p256dh, auth: keys.auth } },
    });
    expect(post.statusCode).toBe(401);
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/notifications/push/subscriptions',
      payload: { endpoint: fake.endpoint('anon') },
    });
    expect(del.statusCode).toBe(401);
    expect(await t.database.db.query('SELECT 1 FROM push_subscriptions')).toHaveLength(0);
  });

  it('refuse endpoints that are not a push service, and unusable keys, storing nothing', async () => {
    const keys = browserKeys();
    const good = { p256dh: keys.p256dh, auth: keys.auth };
    for (const endpoint of [
      'http://example.com/push',
      'https://169.254.169.254/latest',
      'https://fcm.googleapis.com.evil.test/x',
      'not a url',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/notifications/push/subscriptions',
        headers: auth(alice.token),
        payload: { endpoint, keys: good },
      });
      expect(res.statusCode, endpoint).toBe(400);
      expect(res.json()).toEqual({ error: { code: 'invalid_endpoint', message: PUSH.invalidEndpoint, field: 'endpoint' } });
    }
    for (const bad of [
      { p256dh: keys.p256dh.slice(0, 40), auth: keys.auth },
      { p256dh: keys.p256dh, auth: 'c2hvcnQ' },
      { p256dh: Buffer.alloc(65, 7).toString('base64url'), auth: keys.auth },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/notifications/push/subscriptions',
        headers: auth(alice.token),
        payload: { endpoint: fake.endpoint('x'), keys: bad },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: { code: 'invalid_keys', message: PUSH.invalidKeys, field: 'keys' } });
    }
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/push/subscriptions',
      headers: auth(alice.token),
      payload: { endpoint: fake.endpoint('x') },
    });
    expect(missing.statusCode).toBe(400);
    expect(await subscriptionCount(alice.userId)).toBe(0);
  });

  it('refuse a NUL in the endpoint or user agent with a 4xx, not a 500 (PostgreSQL text cannot hold one), storing nothing', async () => {
    const keys = browserKeys();
    const good = { p256dh: keys.p256dh, auth: keys.auth };
    const post = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/notifications/push/subscriptions', headers: auth(alice.token), payload });
    const nul = await post({ endpoint: 'https://fcm.googleapis.com/fcm/send/a\u0000b', keys: good });
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toEqual({ error: { code: 'invalid_endpoint', message: PUSH.invalidEndpoint, field: 'endpoint' } });
    expect(await subscriptionCount(alice.userId)).toBe(0);
    // The user agent is only a label: control characters are dropped, the device is subscribed.
    const agent = await post({ endpoint: fake.endpoint('agent'), keys: good, userAgent: 'Fire\u0000fox' });
    expect(agent.statusCode, agent.body).toBe(201);
    const [row] = await t.database.db.query<{ user_agent: string }>('SELECT user_agent FROM push_subscriptions WHERE user_id = $1', [
      alice.userId,
    ]);
    expect(row!.user_agent).toBe('Firefox');
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/notifications/push/subscriptions',
      headers: auth(alice.token),
      payload: { endpoint: `${fake.endpoint('agent')}\u0000` },
    });
    expect(del.statusCode).toBe(404);
    expect(del.json()).toEqual({ error: { code: 'not_found', message: PUSH.subscriptionNotFound } });
    expect(await subscriptionCount(alice.userId)).toBe(1);
  });

  it('accept the known push services', async () => {
    const keys = browserKeys();
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://web.push.apple.com/abc',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/notifications/push/subscriptions',
        headers: auth(alice.token),
        payload: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } },
      });
      expect(res.statusCode, endpoint).toBe(201);
    }
    expect(await subscriptionCount(alice.userId)).toBe(3);
  });

  it('are one per device: the same endpoint again updates the row; another account takes it over', async () => {
    const first = await subscribeDevice(alice.token, 'laptop');
    const again = await subscribeDevice(alice.token, 'laptop');
    expect(again.id).toBe(first.id);
    await subscribeDevice(alice.token, 'phone');
    expect(await subscriptionCount(alice.userId)).toBe(2);
    // Bob signs in on Alice's laptop: the browser's endpoint now pushes to Bob only.
    await subscribeDevice(bob.token, 'laptop');
    expect(await subscriptionCount(alice.userId)).toBe(1);
    expect(await subscriptionCount(bob.userId)).toBe(1);
  });

  it('keep at most 10 devices a player: a new one beyond them drops the longest unused', async () => {
    const many = await signUp(t.app, 'manydevices');
    const devices = [];
    for (let i = 0; i < 12; i++) devices.push(await subscribeDevice(many.token, `device-${i}`));
    expect(await subscriptionCount(many.userId)).toBe(MAX_SUBSCRIPTIONS_PER_USER);
    const kept = await t.database.db.query<{ endpoint: string }>('SELECT endpoint FROM push_subscriptions WHERE user_id = $1', [
      many.userId,
    ]);
    expect(kept.map((row) => row.endpoint).sort()).toEqual(
      devices
        .slice(2)
        .map((d) => d.endpoint)
        .sort(),
    );
  });

  it("can be deleted by their owner only; another user's endpoint is not found", async () => {
    const { endpoint } = await subscribeDevice(alice.token, 'desk');
    const byBob = await t.app.inject({
      method: 'DELETE',
      url: '/api/notifications/push/subscriptions',
      headers: auth(bob.token),
      payload: { endpoint },
    });
    expect(byBob.statusCode).toBe(404);
    expect(byBob.json()).toEqual({ error: { code: 'not_found', message: PUSH.subscriptionNotFound } });
    expect(await subscriptionCount(alice.userId)).toBe(1);

    const byAlice = await t.app.inject({
      method: 'DELETE',
      url: '/api/notifications/push/subscriptions',
      headers: auth(alice.token),
      payload: { endpoint },
    });
    expect(byAlice.statusCode).toBe(204);
    expect(byAlice.body).toBe('');
    expect(await subscriptionCount(alice.userId)).toBe(0);
    const twice = await t.app.inject({
      method: 'DELETE',
      url: '/api/notifications/push/subscriptions',
      headers: auth(alice.token),
      payload: { endpoint },
    });
    expect(twice.statusCode).toBe(404);
  });
});

describe('delivery', () => {
  it('sends a request the push service can authenticate and the browser can decrypt', async () => {
    const device = await subscribeDevice(alice.token, 'enc');
    const n = notification({ expiresAt: new Date(Date.now() + 30 * 60_000).toISOString() });
    expect(await service.deliver(pushCtx(), n)).toEqual({ sent: 1, failed: 0, removed: 0 });

    const [push] = await fake.waitFor(1);
    expect(push!.path).toBe('/push/enc');
    expect(push!.headers['content-encoding']).toBe('aes128gcm');
    expect(push!.headers['content-type']).toBe('application/octet-stream');
    expect(push!.headers['urgency']).toBe('high');
    const ttl = Number(push!.headers['ttl']);
    expect(ttl).toBeGreaterThan(29 * 60);
    expect(ttl).toBeLessThanOrEqual(30 * 60);

    const { publicKey } = await service.vapidKeys(t.app.services.secrets);
    const claims = verifyVapid(push!.headers['authorization'], publicKey);
    expect(claims.aud).toBe(fake.origin);
    expect(claims.sub).toBe('mailto:ops@versus.example');
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());
    expect(claims.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);

    const decrypted = JSON.parse(decryptAes128gcm(push!.body, device.keys)) as service.PushPayload;
    expect(decrypted).toEqual(service.payloadFor(n));
    expect(decrypted).toMatchObject({ title: 'Challenge Accepted', body: n.message, url: n.targetUrl, urgent: true });
    // Another device's keys cannot read it.
    expect(() => decryptAes128gcm(push!.body, browserKeys())).toThrow();

    const [row] = await t.database.db.query<{ last_sent_at: Date | null }>('SELECT last_sent_at FROM push_subscriptions WHERE id = $1', [
      device.id,
    ]);
    expect(row!.last_sent_at).not.toBeNull();
  });

  it('reaches every device of the user and no one else', async () => {
    const laptop = await subscribeDevice(alice.token, 'a-laptop');
    const phone = await subscribeDevice(alice.token, 'a-phone');
    await subscribeDevice(bob.token, 'b-phone');
    expect(await service.deliver(pushCtx(), notification())).toEqual({ sent: 2, failed: 0, removed: 0 });
    const pushes = await fake.waitFor(2);
    expect(pushes.map((p) => p.path).sort()).toEqual(['/push/a-laptop', '/push/a-phone']);
    for (const push of pushes) {
      const keys = push.path.endsWith('laptop') ? laptop.keys : phone.keys;
      expect(JSON.parse(decryptAes128gcm(push.body, keys))).toMatchObject({ title: 'Challenge Accepted' });
    }
  });

  it("reads the devices of notifications delivered together in one statement, each reaching only its own user's", async () => {
    await subscribeDevice(alice.token, 'a-laptop');
    await subscribeDevice(alice.token, 'a-phone');
    await subscribeDevice(bob.token, 'b-phone');
    const db = t.database.db;
    const reads: string[] = [];
    // Every read of the devices counted on the way to the database.
    const counted = {
      ...pushCtx(),
      db: new Proxy(db, {
        get: (target, key) =>
          key === 'query'
            ? <T>(sql: string, params?: unknown[], statement?: string) => {
                if (sql.includes('FROM push_subscriptions')) reads.push(sql);
                return target.query<T>(sql, params, statement);
              }
            : (Reflect.get(target, key) as unknown),
      }),
    };
    const outcomes = await Promise.all([
      service.deliver(counted, notification({ type: 'match_completed', category: 'match' })),
      service.deliver(counted, notification({ userId: bob.userId, type: 'match_completed', category: 'match' })),
      service.deliver(counted, notification({ type: 'credits_earned', category: 'financial' })),
    ]);
    expect(outcomes).toEqual([
      { sent: 2, failed: 0, removed: 0 },
      { sent: 1, failed: 0, removed: 0 },
      { sent: 2, failed: 0, removed: 0 },
    ]);
    expect(reads).toHaveLength(1);
    const pushes = await fake.waitFor(5);
    expect(pushes.map((p) => p.path).sort()).toEqual([
      '/push/a-laptop',
      '/push/a-laptop',
      '/push/a-phone',
      '/push/a-phone',
      '/push/b-phone',
    ]);
  });

  it('sends one push per user, match and type within an hour', async () => {
    await subscribeDevice(alice.token, 'dedupe');
    const ctx = pushCtx();
    const at = new Date('2030-01-01T12:00:00Z');
    expect(await service.deliver(ctx, notification(), at)).toMatchObject({ sent: 1 });
    expect(await service.deliver(ctx, notification(), new Date(at.getTime() + 59 * 60_000))).toEqual({ skipped: 'duplicate' });
    // Another type, another match, or another user are other keys.
    expect(await service.deliver(ctx, notification({ type: 'match_started' }), at)).toMatchObject({ sent: 1 });
    expect(await service.deliver(ctx, notification({ matchId: '22222222-2222-4222-8222-222222222222' }), at)).toMatchObject({ sent: 1 });
    // The three reminders of a match are three messages, not repeats of one.
    const reminder = (kind: string) => notification({ type: 'match_reminder', metadata: { reminderKind: kind } });
    expect(await service.deliver(ctx, reminder('at_start'), at)).toMatchObject({ sent: 1 });
    expect(await service.deliver(ctx, reminder('closing_5m'), at)).toMatchObject({ sent: 1 });
    expect(await service.deliver(ctx, reminder('closing_5m'), at)).toEqual({ skipped: 'duplicate' });
    // So are a player's own timings ("starts in 15 minutes", then "in 5").
    const timer = (key: string) => notification({ type: 'match_starting_soon', metadata: { reminderKind: 'timer', reminderKey: key } });
    expect(await service.deliver(ctx, timer('timer:15'), at)).toMatchObject({ sent: 1 });
    expect(await service.deliver(ctx, timer('timer:5'), at)).toMatchObject({ sent: 1 });
    // An hour later the first key sends again.
    expect(await service.deliver(ctx, notification(), new Date(at.getTime() + 60 * 60_000))).toMatchObject({ sent: 1 });
    await fake.waitFor(8);
    expect(fake.received).toHaveLength(8);
  });

  it('forgets dedupe keys older than the window (the prune job)', async () => {
    await subscribeDevice(alice.token, 'prune');
    const at = new Date('2032-02-02T12:00:00Z');
    await service.deliver(pushCtx(), notification({ type: 'match_forfeit' }), at);
    await service.deliver(pushCtx(), notification({ type: 'match_disputed' }), new Date(at.getTime() + 30 * 60_000));
    expect(await repo.pruneDedupe(t.database.db, new Date(at.getTime() + 61 * 60_000), 3600_000)).toBe(1);
    const left = await t.database.db.query<{ type: string }>('SELECT type FROM push_dedupe');
    expect(left.map((r) => r.type)).toEqual(['match_disputed']);
  });

  it('dedupes across concurrent senders (several processes): exactly one push', async () => {
    await subscribeDevice(alice.token, 'race');
    const at = new Date('2031-05-05T10:00:00Z');
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => service.deliver(pushCtx(), notification({ type: 'match_ready' }), at)),
    );
    expect(outcomes.filter((o) => 'sent' in o)).toHaveLength(1);
    expect(outcomes.filter((o) => 'skipped' in o && o.skipped === 'duplicate')).toHaveLength(7);
  });

  it('is silenced in quiet hours (across midnight, in the chosen time zone), not outside them', async () => {
    await subscribeDevice(alice.token, 'quiet');
    prefs.general.quietHours = { enabled: true, start: '22:00', end: '08:00', timeZone: 'Europe/Paris' };
    const ctx = pushCtx();
    // 22:30 UTC is 23:30 in Paris (winter), 06:30 UTC is 07:30: both quiet.
    expect(await service.deliver(ctx, notification(), new Date('2030-01-10T22:30:00Z'))).toEqual({ skipped: 'quiet_hours' });
    expect(await service.deliver(ctx, notification(), new Date('2030-01-11T06:30:00Z'))).toEqual({ skipped: 'quiet_hours' });
    expect(fake.received).toHaveLength(0);
    // 07:30 UTC is 08:30 in Paris: awake.
    expect(await service.deliver(ctx, notification(), new Date('2030-01-11T07:30:00Z'))).toMatchObject({ sent: 1 });
    // Off by default.
    prefs = copy(DEFAULT_NOTIFICATION_PREFERENCES);
    expect(await service.deliver(ctx, notification({ type: 'match_started' }), new Date('2030-01-10T23:30:00Z'))).toMatchObject({
      sent: 1,
    });
  });

  it('follows the push switches: general, and per category', async () => {
    await subscribeDevice(alice.token, 'prefs');
    const ctx = pushCtx();
    prefs.general.push = false;
    expect(await service.deliver(ctx, notification())).toEqual({ skipped: 'push_off' });
    prefs.general.push = true;
    prefs.categories.challenge.push = false;
    expect(await service.deliver(ctx, notification())).toEqual({ skipped: 'category_off' });
    prefs.categories.challenge.push = true;
    prefs.categories.challenge.enabled = false;
    expect(await service.deliver(ctx, notification())).toEqual({ skipped: 'category_off' });
    // Another category is unaffected.
    expect(await service.deliver(ctx, notification({ type: 'match_started', category: 'match' }))).toMatchObject({ sent: 1 });
    expect(fake.received).toHaveLength(1);
  });

  it('follows the per-event switches (my turn, results, challenge accepted, social), whatever the category says', async () => {
    await subscribeDevice(alice.token, 'events');
    const ctx = pushCtx();
    const social = (type: Notification['type']) => notification({ type, category: 'social', matchId: null });
    // Defaults: friends coming online is off (SPEC §9 social settings); the rest are on.
    expect(await service.deliver(ctx, social('player_online'))).toEqual({ skipped: 'event_off' });
    expect(await service.deliver(ctx, social('friend_request'))).toMatchObject({ sent: 1 });
    prefs.match.turnAlerts = false;
    prefs.match.resultAlerts = false;
    prefs.challenge.accepted = false;
    prefs.social.friendRequests = false;
    prefs.social.follows = false;
    for (const n of [
      notification({ type: 'match_move_made', category: 'match' }),
      notification({ type: 'match_completed', category: 'match' }),
      notification({ type: 'match_forfeit', category: 'match' }),
      notification(),
      social('friend_request'),
      social('follow_request'),
    ]) {
      expect(await service.deliver(ctx, n), n.type).toEqual({ skipped: 'event_off' });
    }
    // Types no switch governs still go out.
    expect(await service.deliver(ctx, notification({ type: 'match_started', category: 'match' }))).toMatchObject({ sent: 1 });
    expect(fake.received).toHaveLength(2);
  });

  it('without a subscription sends nothing', async () => {
    expect(await service.deliver(pushCtx(), notification())).toEqual({ skipped: 'no_subscriptions' });
  });

  it('deletes a subscription the push service says is gone (404, 410), keeps one that failed otherwise', async () => {
    const gone = await subscribeDevice(alice.token, 'gone');
    const missing = await subscribeDevice(alice.token, 'missing');
    const flaky = await subscribeDevice(alice.token, 'flaky');
    fake.answer = (path) => (path.endsWith('/gone') ? 410 : path.endsWith('/missing') ? 404 : 500);
    expect(await service.deliver(pushCtx(), notification())).toEqual({ sent: 0, failed: 1, removed: 2 });
    const rows = await t.database.db.query<{ id: string; failures: number }>(
      'SELECT id, failures FROM push_subscriptions WHERE user_id = $1',
      [alice.userId],
    );
    expect(rows).toEqual([{ id: flaky.id, failures: 1 }]);
    expect(rows.map((r) => r.id)).not.toContain(gone.id);
    expect(rows.map((r) => r.id)).not.toContain(missing.id);
  });
});

describe('committed notifications', () => {
  it('are pushed after the commit (via notify and onNotificationCommitted); a rolled-back one never is', async () => {
    const device = await subscribeDevice(alice.token, 'committed');
    const matchId = '33333333-3333-4333-8333-333333333333';
    const metadata = { matchId, gameType: 'chess', opponentName: 'Bob' };

    await expect(
      t.database.db.transaction(async (tx) => {
        await notify(tx, { userId: alice.userId, type: 'match_confirmed', metadata, matchId: null });
        throw new Error('the event rolled back');
      }),
    ).rejects.toThrow('the event rolled back');

    const made = await t.database.db.transaction((tx) =>
      notify(tx, { userId: alice.userId, type: 'match_ready', metadata, matchId: null }),
    );
    const [push] = await fake.waitFor(1);
    const payload = JSON.parse(decryptAes128gcm(push!.body, device.keys)) as service.PushPayload;
    expect(payload).toMatchObject({ id: made.id, type: 'match_ready', title: made.title, body: made.message, url: made.targetUrl });
    // Give a stray push of the rolled-back notification time to show up: there is none.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fake.received).toHaveLength(1);
  });
});
