import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CreateChallengeRequest } from '@versus/domain/challenges';
import { buildApp } from '../app.ts';
import { openPostgres } from '../db/database.ts';
import { startJob } from '../jobs/scheduler.ts';
import { challengeListSchema } from '@versus/domain/challenges';
import { timeLeftStableMs } from '@versus/domain/catalogue';
import { expireDueChallenges, expiryJob, listOpenChallengesBody, warnExpiringSoon } from './challenges.service.ts';
import { chess, createKit, fortnite, minor, type Kit, type Player } from './challenges.test-kit.ts';

let kit: Kit;
beforeAll(async () => {
  kit = await createKit();
});
afterAll(() => kit?.close());
afterEach(() => kit.expectAuditClean());

const HOUR = 3_600_000;

async function open(creator: Player, body: CreateChallengeRequest = chess) {
  const reply = await kit.create(creator, body);
  expect(reply.status).toBe(201);
  return reply.body.challenge;
}
const cancel = (as: Player | undefined, id: string) => kit.api('POST', `/api/challenges/${id}/cancel`, as ? { as } : {});

describe('cancel', () => {
  it('lets the creator cancel an open challenge and gives the stake back', async () => {
    const alice = await kit.player();
    const challenge = await open(alice);
    const reply = await cancel(alice, challenge.id);
    expect(reply.status).toBe(200);
    expect(reply.body.message).toBe('Challenge cancelled. 25 credits returned to your balance.');
    expect(reply.body.challenge.status).toBe('cancelled');
    expect(await kit.balance(alice.id)).toEqual({ available: minor(1000), escrow: 0 });
    expect((await kit.events('challenges')).at(-1)).toMatchObject({ type: 'challenge.cancelled', payload: { challengeId: challenge.id } });

    const before = await kit.snapshot();
    const again = await cancel(alice, challenge.id);
    expect(again.status).toBe(200);
    expect(await kit.snapshot()).toBe(before);
  });

  it('refuses everyone else, and an accepted challenge, changing nothing', async () => {
    const bob = await kit.player();
    const eve = await kit.player();
    const challenge = await open(bob);
    const before = await kit.snapshot();
    const hers = await cancel(eve, challenge.id);
    expect(hers.status).toBe(403);
    expect(hers.body.error.message).toBe('Only the creator can cancel this challenge.');
    const anonymous = await cancel(undefined, challenge.id);
    expect(anonymous.status).toBe(401);
    expect((await cancel(eve, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect(await kit.snapshot()).toBe(before);

    const secret = await open(bob, { ...chess, isPrivate: true });
    expect((await cancel(eve, secret.id)).status).toBe(404);
    expect((await cancel(bob, secret.id)).status).toBe(200);

    expect((await kit.api('POST', `/api/challenges/${challenge.id}/accept`, { as: eve, body: {} })).status).toBe(200);
    const beforeLate = await kit.snapshot();
    const late = await cancel(bob, challenge.id);
    expect(late.status).toBe(409);
    expect(late.body.error.message).toBe('Only open challenges can be cancelled.');
    expect(await kit.snapshot()).toBe(beforeLate);
  });

  it('releases every stake of a pool', async () => {
    const host = await kit.player();
    const guest = await kit.player();
    const pool = await open(host, { game: 'ludo', stake: 15, duration: 30, isPrivate: true, maxParticipants: 4 });
    expect((await kit.api('POST', `/api/challenges/${pool.id}/accept`, { as: guest, body: { code: pool.code } })).status).toBe(200);
    expect(await kit.balance(guest.id)).toEqual({ available: minor(985), escrow: minor(15) });
    expect((await cancel(host, pool.id)).status).toBe(200);
    expect(await kit.balance(host.id)).toEqual({ available: minor(1000), escrow: 0 });
    expect(await kit.balance(guest.id)).toEqual({ available: minor(1000), escrow: 0 });
  });
});

describe('expiry', () => {
  it('expires open challenges past their time, releases their stakes, and leaves the rest', async () => {
    const carl = await kit.player();
    const due = await open(carl, { ...chess, duration: 10 }); // expires in 10 hours (SPEC: minutes read as hours)
    const later = await open(carl, { ...chess, duration: 60 });
    const never = await open(carl, { ...chess, noExpiry: true });
    const taken = await open(carl, { ...chess, duration: 10 });
    const opponent = await kit.player();
    expect((await kit.api('POST', `/api/challenges/${taken.id}/accept`, { as: opponent, body: {} })).status).toBe(200);
    expect(await kit.balance(carl.id)).toEqual({ available: minor(900), escrow: minor(100) });

    const inElevenHours = new Date(Date.now() + 11 * HOUR);
    expect(await expireDueChallenges(kit.ctx, inElevenHours)).toBe(1);
    const statuses = await kit.database.db.query<{ id: string; status: string }>(
      'SELECT id, status FROM challenges WHERE creator_id = $1',
      [carl.id],
    );
    const statusOf = (id: string) => statuses.find((s) => s.id === id)?.status;
    expect(statusOf(due.id)).toBe('expired');
    expect(statusOf(later.id)).toBe('open');
    expect(statusOf(never.id)).toBe('open');
    expect(statusOf(taken.id)).toBe('accepted');
    expect(await kit.balance(carl.id)).toEqual({ available: minor(925), escrow: minor(75) });
    expect((await kit.events('challenges')).at(-1)).toMatchObject({ type: 'challenge.expired', payload: { challengeId: due.id } });
    expect((await kit.events(`user:${carl.id}`)).at(-1)).toMatchObject({ type: 'challenge.expired' });

    const before = await kit.snapshot();
    expect(await expireDueChallenges(kit.ctx, inElevenHours)).toBe(0);
    expect(await kit.snapshot()).toBe(before);

    // Far in the future, only the no-expiry one stays open.
    expect(await expireDueChallenges(kit.ctx, new Date(Date.now() + 100 * HOUR))).toBe(1);
    expect(await kit.balance(carl.id)).toEqual({ available: minor(950), escrow: minor(50) });
    for (const id of [later.id, never.id]) await cancel(carl, id);
  });

  it('previews my open challenges expiring within 5 minutes', async () => {
    const dora = await kit.player();
    const soon = await open(dora);
    const notSoon = await open(dora);
    const db = kit.database.db;
    await db.query(`UPDATE challenges SET expires_at = now() + interval '3 minutes' WHERE id = $1`, [soon.id]);
    await db.query(`UPDATE challenges SET expires_at = now() + interval '10 minutes' WHERE id = $1`, [notSoon.id]);
    const reply = await kit.api('GET', '/api/challenges/expiring-soon', { as: dora });
    expect(reply.status).toBe(200);
    expect(reply.body.challenges.map((c) => c.id)).toEqual([soon.id]);
    expect(reply.body.challenges[0]!.timeLeft).toMatch(/^0h [23]m$/);
    expect((await kit.api('GET', '/api/challenges/expiring-soon', { as: await kit.player() })).body.challenges).toEqual([]);
    expect((await kit.api('GET', '/api/challenges/expiring-soon')).status).toBe(401);
    for (const c of [soon, notSoon]) await cancel(dora, c.id);
  });
});

describe('the expiry job', () => {
  it('runs once across processes every 3 minutes: expires what is due and warns of what expires within 5 minutes, once', async () => {
    const owner = await kit.player();
    const due = await open(owner);
    const soon = await open(owner, { ...chess, isPrivate: true });
    const db = kit.database.db;
    await db.query(`UPDATE challenges SET expires_at = now() - interval '1 second' WHERE id = $1`, [due.id]);
    await db.query(`UPDATE challenges SET expires_at = now() + interval '4 minutes' WHERE id = $1`, [soon.id]);

    const job = { ...expiryJob(kit.ctx), runAtStart: false, pollMs: 600_000 };
    expect(job.everyMs).toBe(180_000);
    const processA = startJob(kit.ctx, job);
    const processB = startJob(kit.ctx, job);
    try {
      // Registered, not yet due.
      expect(await processA.tick()).toBe(false);
      await db.query(`UPDATE scheduled_jobs SET next_run_at = now() WHERE name = $1`, [job.name]);
      const ran = await Promise.all([processA.tick(), processB.tick()]);
      expect(ran.filter(Boolean)).toHaveLength(1);
    } finally {
      await Promise.all([processA.stop(), processB.stop()]);
    }
    const [row] = await db.query<{ last_error: string | null; next_in: number }>(
      `SELECT last_error, extract(epoch FROM next_run_at - now())::int AS next_in FROM scheduled_jobs WHERE name = $1`,
      [job.name],
    );
    expect(row!.last_error).toBeNull();
    expect(row!.next_in).toBeGreaterThan(170);

    const statuses = await db.query<{ id: string; status: string }>('SELECT id, status FROM challenges WHERE id = ANY ($1)', [
      [due.id, soon.id],
    ]);
    expect(Object.fromEntries(statuses.map((s) => [s.id, s.status]))).toEqual({ [due.id]: 'expired', [soon.id]: 'open' });
    expect(await kit.balance(owner.id)).toEqual({ available: minor(975), escrow: minor(25) });
    const warnings = (await kit.events(`user:${owner.id}`)).filter((e) => e.type === 'challenge.expiring');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.payload).toMatchObject({ challengeId: soon.id, isPrivate: true });
    expect(warnings[0]!.payload.timeLeft).toMatch(/^0h [34]m$/);
    expect(await warnExpiringSoon(kit.ctx)).toBe(0);
    await cancel(owner, soon.id);
  });
});

describe('marketplace list', () => {
  it("shows the creator's rating and whether they are online now", async () => {
    const viewer = await kit.player();
    const maker = await kit.player({ username: 'ratedmaker' });
    await kit.ctx.db.query('UPDATE profiles SET global_rating = 1734.6 WHERE id = $1', [maker.id]);
    await kit.ctx.db.query("INSERT INTO presence (user_id, last_seen_at, online_since) VALUES ($1, now(), now() - interval '1 hour')", [
      maker.id,
    ]);
    const made = await open(maker, { ...chess, stake: 1, noExpiry: true });
    const listed = async () => (await kit.api('GET', '/api/challenges', { as: viewer })).body.challenges.find((c) => c.id === made.id);
    expect((await listed())?.creatorProfile).toMatchObject({ rating: 1735, isOnline: true });
    // Seen longer ago than the presence window: offline (a new challenge refreshes the cached list).
    await kit.ctx.db.query("UPDATE presence SET last_seen_at = now() - interval '1 minute' WHERE user_id = $1", [maker.id]);
    const other = await open(maker, { ...chess, stake: 1, noExpiry: true });
    expect((await listed())?.creatorProfile.isOnline).toBe(false);
    for (const id of [made.id, other.id]) await cancel(maker, id);
  });

  it('lists open public challenges newest first, at most 50, with filters and search', async () => {
    const viewer = await kit.player();
    // Earlier tests cancelled what they opened: the marketplace starts empty.
    expect((await kit.api('GET', '/api/challenges', { as: viewer })).body.challenges).toEqual([]);
    const maker = await kit.player({ username: 'marketmaker' });
    const ids: string[] = [];
    for (let i = 0; i < 53; i++) ids.push((await open(maker, { ...chess, stake: 1, noExpiry: true })).id);
    const list = await kit.api('GET', '/api/challenges', { as: viewer });
    expect(list.status).toBe(200);
    expect(list.body.challenges).toHaveLength(50);
    expect(list.body.challenges.map((c) => c.id)).toEqual(ids.slice(-50).reverse());
    expect(list.body.challenges[0]).toMatchObject({ code: null, creatorProfile: { rating: 1500, isOnline: false } });
    for (const id of ids) await cancel(maker, id);
    expect((await kit.api('GET', '/api/challenges', { as: viewer })).body.challenges).toEqual([]);

    const other = await kit.player({ username: 'shootergirl' });
    const a = await open(maker, { ...chess, stake: 10, title: 'Sunday 100% blitz' });
    const b = await open(other, { ...fortnite, stake: 100, message: 'Zero build only' });
    const c = await open(other, { ...fortnite, platform: 'xbox', stake: 500 });
    const d = await open(maker, { game: 'valorant', platform: 'pc', gamertag: 'x', stake: 60, duration: 30 });
    const expired = await open(maker, { ...chess, stake: 10 });
    await kit.database.db.query(`UPDATE challenges SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.id]);
    const q = async (query: string) => (await kit.api('GET', `/api/challenges${query}`, { as: viewer })).body.challenges.map((x) => x.id);
    expect(await q('')).toEqual([d.id, c.id, b.id, a.id]);
    expect(await q('?game=fortnite')).toEqual([c.id, b.id]);
    expect(await q('?platform=xbox')).toEqual([c.id]);
    expect(await q('?minStake=60')).toEqual([d.id, c.id, b.id]);
    expect(await q('?maxStake=100&minStake=60')).toEqual([d.id, b.id]);
    expect(await q('?search=zero%20BUILD')).toEqual([b.id]);
    expect(await q('?search=shooter')).toEqual([c.id, b.id]);
    expect(await q('?search=valo')).toEqual([d.id]);
    expect(await q('?search=100%25')).toEqual([a.id]);
    expect(await q('?search=1_0')).toEqual([]);
    const bad = await kit.api('GET', '/api/challenges?minStake=0', { as: viewer });
    expect(bad.status).toBe(400);
    expect((await kit.api('GET', '/api/challenges?game=pong', { as: viewer })).status).toBe(400);
    expect((await kit.api('GET', '/api/challenges')).status).toBe(401);
    for (const x of [a, b, c, d, expired]) await cancel(x.creatorId === maker.id ? maker : other, x.id);
  });

  it('serves the rendered list in the documented shape, exact as time passes', async () => {
    const owner = await kit.player();
    const challenge = await open(owner);
    await kit.database.db.query(`UPDATE challenges SET expires_at = now() + interval '10 minutes 5 seconds' WHERE id = $1`, [challenge.id]);
    kit.ctx.challengeList.invalidate();
    const [row] = await kit.database.db.query<{ expires_at: Date }>('SELECT expires_at FROM challenges WHERE id = $1', [challenge.id]);
    const expiresAt = row!.expires_at;
    const t0 = new Date();
    const stable = timeLeftStableMs(expiresAt, t0);
    const timeLeftAt = async (ms: number) => {
      const body = challengeListSchema.parse(
        JSON.parse((await listOpenChallengesBody(kit.ctx, {}, new Date(t0.getTime() + ms))).toString('utf8')),
      );
      return body.challenges.find((c) => c.id === challenge.id)?.timeLeft;
    };
    const first = await timeLeftAt(0);
    expect(first).toMatch(/^0h 10m$/);
    expect(await timeLeftAt(stable - 1)).toBe(first);
    expect(await timeLeftAt(stable + 1)).toBe('0h 9m');
    // Past its expiry it leaves the list even before the job runs.
    expect(await timeLeftAt(11 * 60_000)).toBeUndefined();
    // Through the route, the same body.
    const reply = await kit.api('GET', '/api/challenges', { as: owner });
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(challengeListSchema.parse(reply.body).challenges.map((c) => c.id)).toContain(challenge.id);
    await cancel(owner, challenge.id);
  });

  it('counts views and shows my challenges', async () => {
    const vera = await kit.player();
    const walt = await kit.player();
    const mine = await open(vera);
    const theirs = await open(walt);
    expect((await kit.api('GET', `/api/challenges/${mine.id}`)).body.challenge.views).toBe(1);
    expect((await kit.api('GET', `/api/challenges/${mine.id}`, { as: walt })).body.challenge.views).toBe(2);
    expect((await kit.api('GET', '/api/challenges/nonsense')).status).toBe(404);
    expect((await kit.api('POST', `/api/challenges/${theirs.id}/accept`, { as: vera, body: {} })).status).toBe(200);
    const list = await kit.api('GET', '/api/challenges/mine', { as: vera });
    expect(list.body.challenges.map((c) => c.id)).toEqual([theirs.id, mine.id]);
    expect((await kit.api('GET', '/api/challenges/mine')).status).toBe(401);
    await cancel(vera, mine.id);
  });

  it('caches the list per process and clears it on every change, in every process', async () => {
    const viewer = await kit.player();
    // A second server process on the same database: its own pool, its own cache.
    const db2 = openPostgres(kit.database.url, { max: 2 });
    const app2 = await buildApp({ config: kit.ctx.config, db: db2, logger: false });
    await app2.ready();
    try {
      const list2 = async () =>
        (await app2.inject({ method: 'GET', url: '/api/challenges', headers: viewer.headers }))
          .json<{ challenges: { id: string }[] }>()
          .challenges.map((c) => c.id);
      const before = await list2();

      // A creation in the first process clears the second's cache once its NOTIFY arrives.
      const sneaky = await open(viewer);
      await kit.database.db.query(`UPDATE challenges SET title = 'Sneaky' WHERE id = $1`, [sneaky.id]);
      await waitFor(async () => (await list2()).includes(sneaky.id));
      // A change written behind the service's back (no event) stays unseen while cached.
      const cachedTitle = async () =>
        (await app2.inject({ method: 'GET', url: '/api/challenges', headers: viewer.headers }))
          .json<{ challenges: { id: string; title: string }[] }>()
          .challenges.find((c) => c.id === sneaky.id)?.title;
      expect(await cachedTitle()).toBe('Sneaky');
      await kit.database.db.query(`UPDATE challenges SET title = 'Changed quietly' WHERE id = $1`, [sneaky.id]);
      expect(await cachedTitle()).toBe('Sneaky');

      // Accepting, cancelling and expiring all clear it too.
      const taker = await kit.player();
      expect((await kit.api('POST', `/api/challenges/${sneaky.id}/accept`, { as: taker, body: {} })).status).toBe(200);
      await waitFor(async () => !(await list2()).includes(sneaky.id));
      expect(await list2()).toEqual(before);
    } finally {
      await app2.close();
      await db2.close();
    }
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
