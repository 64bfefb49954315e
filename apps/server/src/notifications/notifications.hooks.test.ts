// The services' events that notify, each in its own transaction; the arena's and accept's are in
// notifications.test.ts.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '@versus/domain/notifications';
import { expireDueChallenges } from '../challenges/challenges.service.ts';
import { runMaintenance } from '../rooms/rooms.service.ts';
import { createResultsKit, type ResultsKit, type TestPlayer } from '../results/results.test-kit.ts';

let kit: ResultsKit;
beforeAll(async () => {
  kit = await createResultsKit();
});
afterAll(() => kit?.close());

async function mine(as: TestPlayer): Promise<Notification[]> {
  const reply = await kit.api('GET', '/api/notifications', { as });
  expect(reply.status).toBe(200);
  return (reply.body as unknown as { notifications: Notification[] }).notifications;
}

describe('events that notify', () => {
  it('a private room joined: its creator is told, with the match to play', async () => {
    const [host, guest] = [await kit.signUp(), await kit.signUp()];
    const created = await kit.api('POST', '/api/rooms', { as: host, body: { gameType: 'tic-tac-toe', betTier: 10 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const code = (created.body as unknown as { room: { roomCode: string } }).room.roomCode;
    const joined = await kit.api('POST', `/api/rooms/${code}/join`, { as: guest });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    const matchId = (joined.body as unknown as { matchId: string }).matchId;
    const note = (await mine(host)).find((n) => n.type === 'player_joined_room');
    expect(note).toMatchObject({ title: 'Player Joined Your Room', matchId, targetUrl: `/live-arena?match=${matchId}`, urgent: true });
    expect(note!.message).toContain(`room ${code}`);
    expect(note!.metadata).toMatchObject({ joinerId: guest.id, roomCode: code, isPrivateRoom: true, betAmount: 10 });
    expect((await mine(guest)).some((n) => n.type === 'player_joined_room')).toBe(false);
  });

  it('a room nobody joined expires: its creator is told the stake is released', async () => {
    const host = await kit.signUp();
    const created = await kit.api('POST', '/api/rooms', { as: host, body: { gameType: 'chess', betTier: 5 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const code = (created.body as unknown as { room: { roomCode: string } }).room.roomCode;
    await runMaintenance({ db: kit.t.database.db, log: kit.t.app.log }, new Date(Date.now() + 31 * 60_000));
    const note = (await mine(host)).find((n) => n.type === 'escrow_released');
    expect(note).toMatchObject({ category: 'financial', message: '$5.00 held in escrow has been released to your balance.' });
    expect(note!.metadata).toMatchObject({ roomCode: code });
  });

  it('a challenge expired: its creator is told the stake is released', async () => {
    const host = await kit.signUp();
    const created = await kit.api('POST', '/api/challenges', { as: host, body: { game: 'chess', stake: 15, duration: 30 } });
    expect(created.status).toBe(201);
    const id = (created.body.challenge as { id: string }).id;
    await kit.t.database.db.query(`UPDATE challenges SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    expect(await expireDueChallenges(kit.t.app.services)).toBeGreaterThanOrEqual(1);
    const note = (await mine(host)).find((n) => n.type === 'challenge_expired');
    expect(note).toMatchObject({ challengeId: id, message: 'Your Chess challenge for $15.00 expired. Your stake has been released.' });
  });

  it('a dispute: both players are told it is under review (persistent)', async () => {
    const { matchId, p1, p2 } = await kit.externalMatch();
    expect((await kit.api('POST', `/api/matches/${matchId}/report`, { as: p1, body: { outcome: 'win' } })).status).toBe(200);
    expect((await kit.api('POST', `/api/matches/${matchId}/report`, { as: p2, body: { outcome: 'win' } })).status).toBe(200);
    for (const p of [p1, p2]) {
      expect((await mine(p)).find((n) => n.type === 'match_disputed')).toMatchObject({
        matchId,
        title: 'Match Under Review',
        persistent: true,
      });
    }
  });

  it('credits granted by an admin and credits spent', async () => {
    const [admin, player] = [await kit.admin(), await kit.signUp()];
    const grant = await kit.api('POST', '/api/admin/ledger/grant', {
      as: admin,
      body: { userId: player.id, amount: 12.5, idempotencyKey: crypto.randomUUID() },
    });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    expect((await mine(player)).find((n) => n.type === 'credits_earned')).toMatchObject({
      category: 'financial',
      message: '$12.50 credits added to your account.',
    });
    const key = crypto.randomUUID();
    const used = await kit.api('POST', '/api/wallet/credits/use', { as: player, body: { amount: 2, idempotencyKey: key } });
    expect(used.status, JSON.stringify(used.body)).toBe(200);
    // A replay of the same request moves nothing and tells nothing more.
    await kit.api('POST', '/api/wallet/credits/use', { as: player, body: { amount: 2, idempotencyKey: key } });
    expect((await mine(player)).filter((n) => n.type === 'credits_deducted')).toHaveLength(1);
  });
});
