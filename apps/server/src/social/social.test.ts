// Friends and follows on real PostgreSQL: who may answer a request, each side's lists, and presence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCIAL_LIMITS, SOCIAL_TEXT } from '@versus/domain/social';
import type { Database } from '../db/database.ts';
import { openPostgres } from '../db/database.ts';
import { recordPresence } from './presence.ts';
import { createSocialKit, type Player, type SocialKit } from './social.test-kit.ts';

let kit: SocialKit;
beforeAll(async () => {
  kit = await createSocialKit();
});
afterAll(async () => kit?.close());

const linkCount = async () => Number((await kit.t.database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM social_links'))[0]!.n);
const overview = async (as: Player) => {
  const r = await kit.api('GET', '/api/social', { as });
  expect(r.status).toBe(200);
  return r.body;
};
const ids = (list: { user: { id: string } }[]) => list.map((c) => c.user.id);
/** The notifications a player has, newest first: [type, message]. */
const notes = async (as: Player): Promise<[string, string][]> => {
  const r = await kit.api('GET', '/api/notifications', { as });
  expect(r.status).toBe(200);
  return r.body.notifications.map((n: { type: string; message: string }) => [n.type, n.message]);
};

describe('friend requests', () => {
  it('only the addressee accepts; the sender and a stranger cannot; both then see each other as friends', async () => {
    const [a, b, stranger] = [await kit.signUp(), await kit.signUp(), await kit.signUp()];
    const sent = await kit.api('POST', '/api/social/friends', { as: a, body: { userId: b.id } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const id = sent.body.link.id as string;
    expect(sent.body.link).toMatchObject({ kind: 'friend', fromId: a.id, toId: b.id, status: 'pending' });

    expect((await overview(b)).incoming).toMatchObject([{ id, kind: 'friend', user: { id: a.id } }]);
    expect(await notes(b)).toEqual([['friend_request', `${a.username} sent you a friend request.`]]);
    expect((await overview(a)).outgoing).toMatchObject([{ id, kind: 'friend', user: { id: b.id } }]);

    const bySender = await kit.api('POST', `/api/social/requests/${id}/accept`, { as: a });
    expect(bySender.status).toBe(403);
    expect(bySender.body.error.message).toBe(SOCIAL_TEXT.notYours);
    const byStranger = await kit.api('POST', `/api/social/requests/${id}/accept`, { as: stranger });
    expect(byStranger.status).toBe(404);
    expect(byStranger.body.error.message).toBe(SOCIAL_TEXT.requestNotFound);
    const byStrangerDecline = await kit.api('POST', `/api/social/requests/${id}/decline`, { as: stranger });
    expect(byStrangerDecline.status).toBe(404);
    const anonymous = await kit.api('POST', `/api/social/requests/${id}/accept`);
    expect(anonymous.status).toBe(401);
    const [row] = await kit.t.database.db.query<{ status: string }>('SELECT status FROM social_links WHERE id = $1', [id]);
    expect(row!.status).toBe('pending');

    const accepted = await kit.api('POST', `/api/social/requests/${id}/accept`, { as: b });
    expect(accepted.status).toBe(200);
    expect(accepted.body.link).toMatchObject({ id, status: 'accepted' });
    expect(ids((await overview(a)).friends)).toEqual([b.id]);
    expect(ids((await overview(b)).friends)).toEqual([a.id]);
    expect((await overview(stranger)).friends).toEqual([]);
    expect(await notes(a)).toEqual([['friend_accepted', `${b.username} accepted your friend request.`]]);
    expect(await notes(stranger)).toEqual([]);
    // Accepting twice is refused; so is a new request between friends.
    expect((await kit.api('POST', `/api/social/requests/${id}/accept`, { as: b })).status).toBe(409);
    const again = await kit.api('POST', '/api/social/friends', { as: b, body: { userId: a.id } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(SOCIAL_TEXT.alreadyFriends);

    // Both heard of it on their own topics.
    expect((await kit.events(`user:${a.id}`)).map((e) => e.type)).toContain('social.changed');
    expect((await kit.events(`user:${b.id}`)).map((e) => e.type)).toContain('social.changed');
    expect((await kit.events(`user:${stranger.id}`)).map((e) => e.type)).not.toContain('social.changed');

    // Unfriend: either side; a stranger's attempt changes nothing.
    expect((await kit.api('DELETE', `/api/social/friends/${a.id}`, { as: stranger })).status).toBe(404);
    expect((await kit.api('DELETE', `/api/social/friends/${a.id}`)).status).toBe(401);
    expect((await kit.api('DELETE', `/api/social/friends/${a.id}`, { as: b })).status).toBe(204);
    expect((await overview(a)).friends).toEqual([]);
    expect((await kit.api('DELETE', `/api/social/friends/${a.id}`, { as: b })).status).toBe(404);
  });

  it('decline by the addressee and cancel by the sender remove the request; the wrong side is refused', async () => {
    const [a, b] = [await kit.signUp(), await kit.signUp()];
    const first = (await kit.api('POST', '/api/social/friends', { as: a, body: { userId: b.id } })).body.link.id as string;
    expect((await kit.api('POST', `/api/social/requests/${first}/decline`, { as: a })).status).toBe(403);
    expect((await kit.api('POST', `/api/social/requests/${first}/cancel`, { as: b })).status).toBe(403);
    expect((await kit.api('POST', `/api/social/requests/${first}/decline`, { as: b })).status).toBe(200);
    expect((await overview(a)).outgoing).toEqual([]);
    expect((await kit.api('POST', `/api/social/requests/${first}/accept`, { as: b })).status).toBe(404);

    const second = (await kit.api('POST', '/api/social/friends', { as: a, body: { userId: b.id } })).body.link.id as string;
    expect((await kit.api('POST', `/api/social/requests/${second}/cancel`, { as: a })).status).toBe(200);
    expect((await overview(b)).incoming).toEqual([]);

    // Asking again and again goes through, but B is told once a day: no flooding by send–cancel.
    for (let i = 0; i < 3; i++) {
      const again = (await kit.api('POST', '/api/social/friends', { as: a, body: { userId: b.id } })).body.link.id as string;
      expect((await kit.api('POST', `/api/social/requests/${again}/cancel`, { as: a })).status).toBe(200);
    }
    const told = await kit.t.database.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND type = 'friend_request' AND creator_id = $2`,
      [b.id, a.id],
    );
    expect(told[0]!.n).toBe(1);
  });

  it('a request back to someone who asked me accepts theirs; duplicates, myself and unknown players are refused', async () => {
    const [a, b] = [await kit.signUp(), await kit.signUp()];
    const before = await linkCount();
    const self = await kit.api('POST', '/api/social/friends', { as: a, body: { userId: a.id } });
    expect(self.status).toBe(400);
    expect(self.body.error.message).toBe(SOCIAL_TEXT.self);
    expect((await kit.api('POST', '/api/social/friends', { as: a, body: { userId: '00000000-0000-4000-8000-000000000000' } })).status).toBe(
      404,
    );
    expect((await kit.api('POST', '/api/social/friends', { as: a, body: {} })).status).toBe(400);
    expect((await kit.api('POST', '/api/social/friends', { body: { userId: b.id } })).status).toBe(401);
    const virtual = await kit.signUp('virtual');
    expect((await kit.api('POST', '/api/social/friends', { as: a, body: { userId: virtual.id } })).status).toBe(404);
    expect((await kit.api('POST', '/api/social/friends', { as: virtual, body: { userId: a.id } })).status).toBe(403);
    expect(await linkCount()).toBe(before);

    expect((await kit.api('POST', '/api/social/friends', { as: a, body: { userId: b.id } })).status).toBe(201);
    const dup = await kit.api('POST', '/api/social/friends', { as: a, body: { userId: b.id } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toBe(SOCIAL_TEXT.alreadyRequested);
    const mutual = await kit.api('POST', '/api/social/friends', { as: b, body: { userId: a.id } });
    expect(mutual.status).toBe(200);
    expect(mutual.body.link).toMatchObject({ fromId: a.id, toId: b.id, status: 'accepted' });
    expect(await linkCount()).toBe(before + 1);
  });
});

describe('demo accounts', () => {
  it('a player who switched to a demo account cannot accept requests (no new friends or followers) but may decline or cancel', async () => {
    const [a, b, fan] = [await kit.signUp(), await kit.signUp(), await kit.signUp()];
    const friend = (await kit.api('POST', '/api/social/friends', { as: a, body: { userId: b.id } })).body.link.id as string;
    const follow = (await kit.api('POST', '/api/social/follows', { as: fan, body: { userId: b.id } })).body.link.id as string;
    const switched = await kit.api('PATCH', '/api/auth/user', { as: b, body: { account_type: 'virtual' } });
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
    for (const id of [friend, follow]) {
      const r = await kit.api('POST', `/api/social/requests/${id}/accept`, { as: b });
      expect(r.status, JSON.stringify(r.body)).toBe(403);
      expect(r.body.error.message).toBe(SOCIAL_TEXT.virtualNoSocial);
    }
    // Asking back (which would accept theirs) is refused the same way.
    expect((await kit.api('POST', '/api/social/friends', { as: b, body: { userId: a.id } })).status).toBe(403);
    const rows = await kit.t.database.db.query<{ status: string }>('SELECT status FROM social_links WHERE id = ANY($1::uuid[])', [
      [friend, follow],
    ]);
    expect(rows.map((r) => r.status)).toEqual(['pending', 'pending']);
    expect(await notes(a)).toEqual([]);
    expect((await kit.api('POST', `/api/social/requests/${follow}/decline`, { as: b })).status).toBe(200);
    // Back to a real account: the request waiting for them can be accepted.
    expect((await kit.api('PATCH', '/api/auth/user', { as: b, body: { account_type: 'real' } })).status).toBe(200);
    expect((await kit.api('POST', `/api/social/requests/${friend}/accept`, { as: b })).status).toBe(200);
  });
});

describe('follows', () => {
  it('a follow waits for the followed player; only they accept; unfollow and remove-follower end it', async () => {
    const [fan, star, other] = [await kit.signUp(), await kit.signUp(), await kit.signUp()];
    const asked = await kit.api('POST', '/api/social/follows', { as: fan, body: { userId: star.id } });
    expect(asked.status).toBe(201);
    const id = asked.body.link.id as string;
    expect((await kit.api('POST', '/api/social/follows', { as: fan, body: { userId: star.id } })).status).toBe(409);
    expect((await kit.api('POST', `/api/social/requests/${id}/accept`, { as: fan })).status).toBe(403);
    expect((await kit.api('POST', `/api/social/requests/${id}/accept`, { as: other })).status).toBe(404);
    expect((await overview(star)).incoming).toMatchObject([{ id, kind: 'follow', user: { id: fan.id } }]);
    expect(await notes(star)).toEqual([['follow_request', `${fan.username} wants to follow you.`]]);
    expect((await kit.api('POST', `/api/social/requests/${id}/accept`, { as: star })).status).toBe(200);
    expect(await notes(fan)).toEqual([['follow_accepted', `${star.username} accepted your follow request.`]]);

    const fanView = await overview(fan);
    expect(ids(fanView.following)).toEqual([star.id]);
    expect(fanView.following[0].presence).toEqual({ online: false, lastSeenAt: null });
    const starView = await overview(star);
    expect(ids(starView.followers)).toEqual([fan.id]);
    expect(starView.followers[0].presence).toBeNull();
    // Following is one way: the star does not follow the fan, and they are not friends.
    expect(starView.following).toEqual([]);
    expect(starView.friends).toEqual([]);

    expect((await kit.api('DELETE', `/api/social/follows/${star.id}`, { as: other })).status).toBe(404);
    expect((await kit.api('DELETE', `/api/social/follows/${star.id}`, { as: fan })).status).toBe(204);
    expect((await overview(star)).followers).toEqual([]);

    const again = (await kit.api('POST', '/api/social/follows', { as: fan, body: { userId: star.id } })).body.link.id as string;
    expect((await kit.api('POST', `/api/social/requests/${again}/accept`, { as: star })).status).toBe(200);
    expect((await kit.api('DELETE', `/api/social/followers/${fan.id}`, { as: star })).status).toBe(204);
    expect((await overview(fan)).following).toEqual([]);
  });
});

describe('search', () => {
  it('finds players by username with my relation to each, never myself', async () => {
    const [a, b] = [await kit.signUp(), await kit.signUp()];
    await kit.api('POST', '/api/social/friends', { as: a, body: { userId: b.id } });
    const found = await kit.api('GET', `/api/social/search?q=${b.username.slice(0, 8)}`, { as: a });
    expect(found.status).toBe(200);
    expect(found.body.players).toContainEqual(
      expect.objectContaining({ user: expect.objectContaining({ id: b.id }), friend: 'request_sent', follow: 'none' }),
    );
    const mine = await kit.api('GET', `/api/social/search?q=${a.username}`, { as: a });
    expect(mine.body.players.map((p: { user: { id: string } }) => p.user.id)).not.toContain(a.id);
    const back = await kit.api('GET', `/api/social/search?q=${a.username}`, { as: b });
    expect(back.body.players[0]).toMatchObject({ user: { id: a.id }, friend: 'request_received' });
    const short = await kit.api('GET', '/api/social/search?q=a', { as: a });
    expect(short.status).toBe(400);
    expect(short.body.error.message).toBe(SOCIAL_TEXT.searchTooShort);
    expect((await kit.api('GET', '/api/social/search?q=abc')).status).toBe(401);
  });

  it('control characters in the query are no part of any username: never a 500', async () => {
    const [a, b] = [await kit.signUp(), await kit.signUp()];
    const nul = await kit.api('GET', '/api/social/search?q=%00%00', { as: a });
    expect(nul.status, JSON.stringify(nul.body)).toBe(400);
    expect(nul.body.error.message).toBe(SOCIAL_TEXT.searchTooShort);
    const found = await kit.api('GET', `/api/social/search?q=${b.username}%00`, { as: a });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.players.map((p: { user: { id: string } }) => p.user.id)).toEqual([b.id]);
    expect((await kit.api('GET', '/api/social')).status).toBe(401);
  });
});

describe('presence', () => {
  it('friends see a connected player online until the window passes; coming online tells them once', async () => {
    const [a, b, stranger] = [await kit.signUp(), await kit.signUp(), await kit.signUp()];
    const id = (await kit.api('POST', '/api/social/friends', { as: a, body: { userId: b.id } })).body.link.id as string;
    await kit.api('POST', `/api/social/requests/${id}/accept`, { as: b });
    const ctx = { db: kit.t.database.db };
    const t0 = new Date();
    expect(await recordPresence(ctx, [b.id, stranger.id], t0)).toEqual(expect.arrayContaining([b.id, stranger.id]));
    const friends = (await overview(a)).friends;
    expect(friends[0]).toMatchObject({ user: { id: b.id }, presence: { online: true } });
    const eventsBefore = (await kit.events(`user:${a.id}`)).length;
    // Still connected a beat later: nobody hears of it again.
    expect(await recordPresence(ctx, [b.id], new Date(t0.getTime() + SOCIAL_LIMITS.presenceBeatMs))).toEqual([]);
    expect((await kit.events(`user:${a.id}`)).length).toBe(eventsBefore);
    expect((await notes(a)).filter(([type]) => type === 'player_online')).toEqual([['player_online', `${b.username} is online.`]]);
    // The stranger's presence is nobody's business here.
    expect((await overview(stranger)).friends).toEqual([]);
    // Seen long ago: offline now.
    await kit.t.database.db.query(`UPDATE presence SET last_seen_at = now() - interval '1 hour' WHERE user_id = $1`, [b.id]);
    expect((await overview(a)).friends[0].presence).toMatchObject({ online: false });
    // Back after an hour: online again, and a tells about it.
    expect(await recordPresence(ctx, [b.id])).toEqual([b.id]);
    expect((await kit.events(`user:${a.id}`)).length).toBeGreaterThan(eventsBefore);
    expect((await notes(a)).filter(([type]) => type === 'player_online')).toHaveLength(2);
    // A reload within the window is not news.
    await kit.t.database.db.query(`UPDATE presence SET last_seen_at = now() - interval '1 minute' WHERE user_id = $1`, [b.id]);
    expect(await recordPresence(ctx, [b.id])).toEqual([b.id]);
    expect((await notes(a)).filter(([type]) => type === 'player_online')).toHaveLength(2);
  });

  it('arrivals in one beat: each of their audience hears one social.changed, each friend one player_online per arrival', async () => {
    const [member, fan, b, c] = [await kit.signUp(), await kit.signUp(), await kit.signUp(), await kit.signUp()];
    const befriend = async (from: Player, to: Player) => {
      const sent = await kit.api('POST', '/api/social/friends', { as: from, body: { userId: to.id } });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      expect((await kit.api('POST', `/api/social/requests/${sent.body.link.id}/accept`, { as: to })).status).toBe(200);
    };
    const follow = async (from: Player, to: Player) => {
      const sent = await kit.api('POST', '/api/social/follows', { as: from, body: { userId: to.id } });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      expect((await kit.api('POST', `/api/social/requests/${sent.body.link.id}/accept`, { as: to })).status).toBe(200);
    };
    await befriend(member, b);
    await befriend(c, member);
    await befriend(b, c);
    await follow(member, b); // a friend who also follows: still one audience member
    await follow(fan, b);
    await follow(fan, c);
    const presenceEvents = async (p: Player) =>
      (await kit.events(`user:${p.id}`)).filter((e) => e.type === 'social.changed' && e.payload['reason'] === 'presence').length;
    const online = async (p: Player) =>
      (await notes(p))
        .filter(([type]) => type === 'player_online')
        .map(([, message]) => message)
        .sort();
    const ctx = { db: kit.t.database.db };
    const t0 = new Date();

    expect(await recordPresence(ctx, [c.id, b.id], t0)).toEqual([b.id, c.id].sort());
    expect(await presenceEvents(member)).toBe(1);
    expect(await presenceEvents(fan)).toBe(1);
    expect(await presenceEvents(b)).toBe(1);
    expect(await presenceEvents(c)).toBe(1);
    expect(await online(member)).toEqual([`${b.username} is online.`, `${c.username} is online.`].sort());
    expect(await online(b)).toEqual([`${c.username} is online.`]);
    expect(await online(c)).toEqual([`${b.username} is online.`]);
    expect(await online(fan)).toEqual([]);
    const [note] = (await kit.api('GET', '/api/notifications', { as: c })).body.notifications;
    expect(note).toMatchObject({ type: 'player_online', creatorId: b.id, metadata: { username: b.username, userId: b.id } });

    // A beat later both are still seen within the window: nobody arrives, nobody hears again;
    // a newcomer in the same beat is heard alone.
    const later = new Date(t0.getTime() + SOCIAL_LIMITS.presenceBeatMs);
    expect(await recordPresence(ctx, [b.id, c.id, member.id], later)).toEqual([member.id]);
    expect(await presenceEvents(fan)).toBe(1);
    expect(await presenceEvents(member)).toBe(1);
    expect(await presenceEvents(b)).toBe(2);
    expect(await presenceEvents(c)).toBe(2);
    expect(await online(member)).toHaveLength(2);
    expect(await online(b)).toEqual([`${c.username} is online.`, `${member.username} is online.`].sort());
  });

  it('a player first seen by two processes at once comes online once: their friend is told once', async () => {
    const [a, b] = [await kit.signUp(), await kit.signUp()];
    const id = (await kit.api('POST', '/api/social/friends', { as: a, body: { userId: b.id } })).body.link.id as string;
    expect((await kit.api('POST', `/api/social/requests/${id}/accept`, { as: b })).status).toBe(200);
    // Two tabs, each on its own server process (own pool), beating for b at the same moment:
    // process A stops after its first statement until process B has finished (or 1 s has passed).
    const other = openPostgres(kit.t.database.url);
    try {
      let release!: () => void;
      const bDone = new Promise<void>((resolve) => (release = resolve));
      const db = kit.t.database.db;
      const pausing = {
        ...db,
        transaction: <T>(work: (tx: Parameters<Parameters<Database['transaction']>[0]>[0]) => Promise<T>) =>
          db.transaction((tx) => {
            let first = true;
            return work({
              ...tx,
              async query<R>(sql: string, params?: unknown[]) {
                const rows = await tx.query<R>(sql, params);
                if (first) {
                  first = false;
                  await Promise.race([bDone, new Promise((resolve) => setTimeout(resolve, 1000))]);
                }
                return rows;
              },
            });
          }),
      };
      const now = new Date();
      const onA = recordPresence({ db: pausing }, [b.id], now);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const onB = recordPresence({ db: other }, [b.id], now).finally(release);
      const arrivals = [...(await onA), ...(await onB)];
      expect(arrivals).toEqual([b.id]);
      expect((await notes(a)).filter(([type]) => type === 'player_online')).toEqual([['player_online', `${b.username} is online.`]]);
    } finally {
      await other.close();
    }
  });
});
