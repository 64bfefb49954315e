import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CreateChallengeRequest } from '@versus/domain/challenges';
import { releaseEscrow } from '../ledger/ledger.service.ts';
import { chess, createKit, fortnite, minor, type Kit, type Player } from './challenges.test-kit.ts';

let kit: Kit;
beforeAll(async () => {
  kit = await createKit();
});
afterAll(() => kit?.close());
afterEach(() => kit.expectAuditClean());

async function open(creator: Player, body: CreateChallengeRequest = chess) {
  const reply = await kit.create(creator, body);
  expect(reply.status).toBe(201);
  return reply.body.challenge;
}

const accept = (as: Player | undefined, id: string, body: Record<string, unknown> = {}) =>
  kit.api('POST', `/api/challenges/${id}/accept`, { ...(as ? { as } : {}), body });

describe('POST /api/challenges/:id/accept', () => {
  it('locks the stake, makes a pending match and accepts the challenge, all at once', async () => {
    const alice = await kit.player();
    const bob = await kit.player();
    const challenge = await open(alice, fortnite);
    const reply = await accept(bob, challenge.id, { gamertag: 'BobBuilds' });
    expect(reply.status).toBe(200);
    expect(reply.body.message).toBe('Challenge accepted! 50 credits locked in escrow.');
    expect(reply.body.escrow).toEqual({ amount: 50, currency: 'credits' });
    const match = reply.body.match;
    expect(match).toMatchObject({
      challengeId: challenge.id,
      player1Id: alice.id,
      player2Id: bob.id,
      player1: { username: alice.username },
      player2: { username: bob.username },
      winnerId: null,
      gameType: 'fortnite',
      platform: 'pc',
      stake: 50,
      betAmount: 50,
      currency: 'credits',
      status: 'pending',
      matchFormat: 'Best of 3',
      player1Gamertag: 'Ninja',
      player2Gamertag: 'BobBuilds',
      isPrivate: false,
      roomCode: null,
      scheduledTime: challenge.scheduledTime,
    });
    expect(reply.body.challenge).toMatchObject({
      status: 'accepted',
      acceptedBy: bob.id,
      matchId: match.id,
      participants: 2,
      timeLeft: null,
    });

    expect(await kit.balance(alice.id)).toEqual({ available: minor(950), escrow: minor(50) });
    expect(await kit.balance(bob.id)).toEqual({ available: minor(950), escrow: minor(50) });
    // Both stakes now belong to the match, which settles them.
    const holds = await kit.database.db.query<{ user_id: string; match_id: string; challenge_id: string | null }>(
      `SELECT user_id, match_id, challenge_id FROM escrow_holds WHERE status = 'held' AND match_id = $1 ORDER BY user_id`,
      [match.id],
    );
    expect(holds.map((h) => h.user_id).sort()).toEqual([alice.id, bob.id].sort());

    // The creator hears it on their own topic; the marketplace feed hears it too.
    const mine = await kit.events(`user:${alice.id}`);
    expect(mine.find((e) => e.type === 'challenge.accepted')?.payload).toMatchObject({
      acceptorId: bob.id,
      creatorId: alice.id,
      gameType: 'fortnite',
      matchId: match.id,
      challengeId: challenge.id,
      betAmount: 50,
      opponentName: bob.username,
      isPrivate: false,
      roomCode: null,
    });
    expect((await kit.events('challenges')).at(-1)).toMatchObject({ type: 'challenge.accepted', payload: { challengeId: challenge.id } });

    // Gone from the marketplace, readable by both players as a match.
    const list = await kit.api('GET', '/api/challenges', { as: alice });
    expect(list.body.challenges.map((c) => c.id)).not.toContain(challenge.id);
    expect((await kit.api('GET', `/api/matches/${match.id}`, { as: alice })).body.match.id).toBe(match.id);
    expect((await kit.api('GET', `/api/matches/${match.id}`, { as: bob })).status).toBe(200);
    const stranger = await kit.player();
    const refused = await kit.api('GET', `/api/matches/${match.id}`, { as: stranger });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Only the players of this match can view it.');
    expect((await kit.api('GET', `/api/matches/${match.id}`)).status).toBe(401);
    expect((await kit.api('GET', '/api/matches/00000000-0000-4000-8000-000000000000', { as: alice })).status).toBe(404);
  });

  it('answers a retry by the winner with the same match and locks nothing more', async () => {
    const carol = await kit.player();
    const dan = await kit.player();
    const challenge = await open(carol);
    const first = await accept(dan, challenge.id);
    const before = await kit.snapshot();
    const again = await accept(dan, challenge.id);
    expect(again.status).toBe(200);
    expect(again.body.match.id).toBe(first.body.match.id);
    expect(again.body.message).toBe('Challenge accepted! 25 credits locked in escrow.');
    expect(await kit.snapshot()).toBe(before);
  });

  it('sets a private challenge time at acceptance, and needs its code', async () => {
    const erin = await kit.player();
    const fay = await kit.player();
    const challenge = await open(erin, { ...chess, isPrivate: true });
    const before = await kit.snapshot();
    const noCode = await accept(fay, challenge.id);
    expect(noCode.status).toBe(404);
    expect(noCode.body.error.message).toBe('Challenge not found');
    expect((await accept(fay, challenge.id, { code: 'WRONG1' })).status).toBe(404);
    expect(await kit.snapshot()).toBe(before);

    const started = Date.now();
    const reply = await accept(fay, challenge.id, { code: challenge.code!.toLowerCase() });
    expect(reply.status).toBe(200);
    const scheduled = new Date(reply.body.match.scheduledTime!).getTime();
    expect(Math.abs(scheduled - started)).toBeLessThan(5000);
    expect(reply.body.challenge.scheduledTime).toBe(reply.body.match.scheduledTime);
    expect(reply.body.match).toMatchObject({ isPrivate: true, roomCode: challenge.code });
  });

  describe('refusals change nothing', () => {
    async function refused(as: Player | undefined, id: string, status: number, message: string, body: Record<string, unknown> = {}) {
      const before = await kit.snapshot();
      const reply = await accept(as, id, body);
      expect(reply.status).toBe(status);
      expect(reply.body.error.message).toBe(message);
      expect(await kit.snapshot()).toBe(before);
    }

    it('visitors', async () => {
      const challenge = await open(await kit.player());
      await refused(undefined, challenge.id, 401, 'Please sign in to accept challenges');
    });

    it('unknown and malformed ids', async () => {
      const gus = await kit.player();
      await refused(gus, '00000000-0000-4000-8000-000000000000', 404, 'Challenge not found');
      await refused(gus, 'not-a-uuid', 404, 'Challenge not found');
    });

    it('my own challenge', async () => {
      const hal = await kit.player();
      const challenge = await open(hal);
      await refused(hal, challenge.id, 403, 'You cannot accept your own challenge');
    });

    it('not enough credits', async () => {
      const creator = await kit.player();
      const poor = await kit.player();
      await kit.setAvailable(poor.id, minor(10));
      const challenge = await open(creator);
      await refused(poor, challenge.id, 409, 'Insufficient credits to accept this challenge - Need $25.00, have $10.00');
      expect(await kit.balance(poor.id)).toEqual({ available: minor(10), escrow: 0 });
    });

    it('another currency', async () => {
      const creator = await kit.player();
      const promoter = await kit.player({ role: 'promoter' });
      const challenge = await open(creator);
      await refused(promoter, challenge.id, 422, 'This challenge is staked in credits, but your account uses pcredits.');
      const vic = await kit.player({ accountType: 'virtual' });
      const virtualOne = await open(vic, { ...chess, isPrivate: true });
      await refused(creator, virtualOne.id, 422, 'This challenge is staked in VTokens, but your account uses credits.', {
        code: virtualOne.code,
      });
    });

    it("a challenge whose creator's stake is not in escrow", async () => {
      const creator = await kit.player();
      const challenge = await open(creator);
      await kit.database.db.transaction((tx) =>
        releaseEscrow(tx, { idempotencyKey: `test-release-${challenge.id}`, owner: { challengeId: challenge.id } }),
      );
      await refused(
        await kit.player(),
        challenge.id,
        409,
        "The creator's stake was not found in escrow, so this challenge cannot be accepted.",
      );
      await kit.database.db.query(`UPDATE challenges SET status = 'cancelled', closed_at = now() WHERE id = $1`, [challenge.id]);
    });

    it('expired, cancelled and already accepted challenges', async () => {
      const creator = await kit.player();
      const late = await kit.player();
      const expired = await open(creator);
      await kit.database.db.query(`UPDATE challenges SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.id]);
      await refused(late, expired.id, 409, 'This challenge is no longer available.');

      const cancelled = await open(creator);
      expect((await kit.api('POST', `/api/challenges/${cancelled.id}/cancel`, { as: creator })).status).toBe(200);
      await refused(late, cancelled.id, 409, 'This challenge is no longer available.');

      const taken = await open(creator);
      expect((await accept(await kit.player(), taken.id)).status).toBe(200);
      await refused(late, taken.id, 409, 'This challenge has already been accepted by another player.');
      // The creator trying after someone accepted also learns it was taken.
      await refused(creator, taken.id, 409, 'This challenge has already been accepted by another player.');
    });
  });

  it('fills a pool: joiners lock their stakes, the last one makes the match', async () => {
    const host = await kit.player();
    const challenge = await open(host, { game: 'ludo', stake: 10, duration: 30, isPrivate: true, maxParticipants: 3 });
    const [p2, p3, p4] = [await kit.player(), await kit.player(), await kit.player()];

    const first = await accept(p2, challenge.id, { code: challenge.code });
    expect(first.status).toBe(200);
    expect(first.body.match).toBeNull();
    expect(first.body.message).toBe('Joined the challenge (2/3 players). 10 credits locked in escrow.');
    expect(first.body.challenge).toMatchObject({ status: 'open', participants: 2 });
    expect((await kit.events(`user:${host.id}`)).at(-1)).toMatchObject({
      type: 'challenge.joined',
      payload: { userId: p2.id, participants: 2, maxParticipants: 3 },
    });

    const before = await kit.snapshot();
    const twice = await accept(p2, challenge.id, { code: challenge.code });
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe('You have already joined this challenge.');
    expect(await kit.snapshot()).toBe(before);

    const last = await accept(p3, challenge.id, { code: challenge.code });
    expect(last.status).toBe(200);
    expect(last.body.message).toBe('Challenge accepted! 10 credits locked in escrow.');
    expect(last.body.challenge).toMatchObject({ status: 'accepted', acceptedBy: p3.id, participants: 3 });
    expect(last.body.match).toMatchObject({ player1Id: host.id, player2Id: p2.id, stake: 10 });
    const held = await kit.database.db.query(`SELECT count(*)::int AS n FROM escrow_holds WHERE status = 'held' AND match_id = $1`, [
      last.body.match.id,
    ]);
    expect(held).toEqual([{ n: 3 }]);
    for (const p of [host, p2, p3]) expect(await kit.balance(p.id)).toEqual({ available: minor(990), escrow: minor(10) });

    const full = await accept(p4, challenge.id, { code: challenge.code });
    expect(full.status).toBe(409);
    expect(full.body.error.message).toBe('This challenge has already been accepted by another player.');
  });

  it("answers a pool join retried with its Idempotency-Key with the join's answer, and refuses a new join request", async () => {
    const host = await kit.player();
    const challenge = await open(host, { game: 'ludo', stake: 10, duration: 30, isPrivate: true, maxParticipants: 4 });
    const [p2, p3] = [await kit.player(), await kit.player()];
    const join = (as: Player, key: string) =>
      kit.api('POST', `/api/challenges/${challenge.id}/accept`, {
        as,
        body: { code: challenge.code },
        headers: { 'idempotency-key': key },
      });
    const withoutTimeLeft = (body: { challenge: object }) => ({ ...body, challenge: { ...body.challenge, timeLeft: null } });

    const first = await join(p2, 'join-1');
    expect(first.status).toBe(200);
    expect(first.body.message).toBe('Joined the challenge (2/4 players). 10 credits locked in escrow.');

    const before = await kit.snapshot();
    const retry = await join(p2, 'join-1');
    expect(retry.status).toBe(200);
    expect(withoutTimeLeft(retry.body)).toEqual(withoutTimeLeft(first.body));
    expect(await kit.snapshot()).toBe(before);

    const other = await join(p2, 'join-2');
    expect(other.status).toBe(409);
    expect(other.body.error.message).toBe('You have already joined this challenge.');
    expect(await kit.snapshot()).toBe(before);
    expect(await kit.balance(p2.id)).toEqual({ available: minor(990), escrow: minor(10) });

    // Keys are each player's own; a later retry shows the pool as it is now.
    expect((await join(p3, 'join-1')).body.message).toBe('Joined the challenge (3/4 players). 10 credits locked in escrow.');
    const afterP3 = await kit.snapshot();
    const later = await join(p2, 'join-1');
    expect(later.status).toBe(200);
    expect(later.body.challenge).toMatchObject({ status: 'open', participants: 3 });
    expect(later.body.message).toBe('Joined the challenge (3/4 players). 10 credits locked in escrow.');
    expect(await kit.snapshot()).toBe(afterP3);
    for (const p of [host, p2, p3]) expect(await kit.balance(p.id)).toEqual({ available: minor(990), escrow: minor(10) });
  });

  it('lets players follow a challenge topic: anyone a public one, only its players a private one', async () => {
    const owner = await kit.player();
    const stranger = await kit.player();
    const publicOne = await open(owner);
    const privateOne = await open(owner, { ...chess, isPrivate: true });
    expect(await kit.ctx.topics.canFollow(stranger.claims, `challenge:${publicOne.id}`)).toBe(true);
    expect(await kit.ctx.topics.canFollow(owner.claims, `challenge:${privateOne.id}`)).toBe(true);
    expect(await kit.ctx.topics.canFollow(stranger.claims, `challenge:${privateOne.id}`)).toBe(false);
    expect(await kit.ctx.topics.canFollow(stranger.claims, 'challenge:not-an-id')).toBe(false);
    expect(await kit.ctx.topics.canFollow(stranger.claims, 'challenges')).toBe(true);
    const joiner = await kit.player();
    expect((await accept(joiner, privateOne.id, { code: privateOne.code })).status).toBe(200);
    expect(await kit.ctx.topics.canFollow(joiner.claims, `challenge:${privateOne.id}`)).toBe(true);
    expect((await kit.api('POST', `/api/challenges/${publicOne.id}/cancel`, { as: owner })).status).toBe(200);
  });
});

describe('a role changed since the accounts were opened', () => {
  it('is repaired when staking: players made promoters create and accept in pcredits from their starting grant', async () => {
    const creator = await kit.player();
    const acceptor = await kit.player();
    // Made promoters by an operator; neither has looked at their wallet since (which would repair it).
    await kit.database.db.query(`UPDATE profiles SET role = 'promoter' WHERE id = ANY ($1::uuid[])`, [[creator.id, acceptor.id]]);
    expect(await kit.balance(creator.id, 'pcredits')).toEqual({ available: 0, escrow: 0 });

    const created = await kit.create(creator, chess);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.escrow).toEqual({ amount: 25, currency: 'pcredits' });
    expect(await kit.balance(creator.id, 'pcredits')).toEqual({ available: minor(975), escrow: minor(25) });

    const accepted = await accept(acceptor, created.body.challenge.id);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(await kit.balance(acceptor.id, 'pcredits')).toEqual({ available: minor(975), escrow: minor(25) });
    // Their credits stay as they were.
    expect(await kit.balance(creator.id, 'credits')).toEqual({ available: minor(1000), escrow: 0 });
  });
});
