// Private rooms against real PostgreSQL: create, preview, join, cancel, every refusal with its
// SPEC §8 message (and nothing changed), events, topic access, virtual accounts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_ALPHABET } from '@versus/domain/catalogue';
import { ROOMS } from '@versus/domain';
import { createKit, minor, type Kit } from './rooms.test-kit.ts';

let kit: Kit;
beforeAll(async () => {
  kit = await createKit();
});
afterAll(() => kit?.close());

const START = minor(1000);

describe('create', () => {
  it('opens a tic-tac-toe room for 20 by default, locks the stake, and shows it as mine and in the public preview', async () => {
    const a = await kit.signUp();
    const r = await kit.create(a);
    expect(r.status).toBe(201);
    const room = r.body.room;
    expect(room).toMatchObject({
      creatorId: a.id,
      gameType: 'tic-tac-toe',
      betTier: 20,
      currency: 'credits',
      message: null,
      status: 'waiting_for_player',
      joinerId: null,
      matchId: null,
    });
    expect(room.roomCode).toHaveLength(6);
    for (const c of room.roomCode) expect(CODE_ALPHABET).toContain(c);
    expect(new Date(room.expiresAt).getTime() - new Date(room.createdAt).getTime()).toBe(30 * 60_000);
    expect(r.body.escrow).toEqual({ amount: 20, currency: 'credits' });
    expect(await kit.balance(a.id)).toEqual({ available: START - minor(20), escrow: minor(20) });
    expect(await kit.database.db.query(`SELECT room_id, amount FROM escrow_holds WHERE user_id = $1 AND status = 'held'`, [a.id])).toEqual([
      { room_id: room.id, amount: minor(20) },
    ]);

    const mine = await kit.api('GET', '/api/rooms/mine', { as: a });
    expect(mine.status).toBe(200);
    expect(mine.body.room).toMatchObject({ id: room.id, roomCode: room.roomCode });

    // The join screen: no sign-in needed, any case.
    const preview = await kit.api('GET', `/api/rooms/${room.roomCode.toLowerCase()}`);
    expect(preview.status).toBe(200);
    expect(preview.body.room).toEqual({
      roomCode: room.roomCode,
      gameType: 'tic-tac-toe',
      gameName: 'Tic-Tac-Toe',
      betTier: 20,
      currency: 'credits',
      message: null,
      status: 'waiting_for_player',
      creator: { username: a.username, displayName: a.username },
      expiresAt: room.expiresAt,
    });
    expect((await kit.events(`user:${a.id}`)).map((e) => e.type)).toContain('room.created');
    await kit.expectAuditClean();
  });

  it('takes a chosen web game, tier and trimmed message; an empty message becomes null', async () => {
    const a = await kit.signUp();
    const r = await kit.create(a, { gameType: 'chess', betTier: 50, message: '  good luck  ' });
    expect(r.status).toBe(201);
    expect(r.body.room).toMatchObject({ gameType: 'chess', betTier: 50, message: 'good luck' });
    expect(await kit.balance(a.id)).toEqual({ available: START - minor(50), escrow: minor(50) });

    const b = await kit.signUp();
    const blank = await kit.create(b, { betTier: 5, message: '    ' });
    expect(blank.status).toBe(201);
    expect(blank.body.room.message).toBeNull();
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const a = await kit.signUp();
    const before = await kit.snapshot();
    const cases: [unknown, number, string][] = [
      [{ betTier: 15 }, 400, ROOMS.invalidBet],
      [{ betTier: 1000 }, 400, ROOMS.invalidBet],
      [{ betTier: 0 }, 400, ROOMS.invalidBet],
      [{ betTier: 'twenty' }, 400, ROOMS.invalidBet],
      [{ gameType: 'fortnite' }, 400, ROOMS.webGamesOnly],
      [{ gameType: 'poker' }, 400, ROOMS.webGamesOnly],
      [{ message: 'x'.repeat(201) }, 400, ROOMS.messageTooLong(200)],
    ];
    for (const [body, status, message] of cases) {
      const r = await kit.create(a, body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.error.message).toBe(message);
    }
    const anonymous = await kit.api('POST', '/api/rooms', { body: {} });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.message).toBe(ROOMS.authRequired);
    expect(await kit.snapshot()).toBe(before);
  });

  it('allows one active room per user, naming it; after cancelling, another', async () => {
    const a = await kit.signUp();
    const first = (await kit.create(a)).body.room;
    const before = await kit.snapshot();
    const second = await kit.create(a, { betTier: 10 });
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: 'active_room', message: ROOMS.activeRoom(first.roomCode) });
    expect(second.body.error.message).toBe(
      `You already have an active room (${first.roomCode}). Please cancel it first or wait for it to expire.`,
    );
    expect(await kit.snapshot()).toBe(before);

    expect((await kit.api('POST', `/api/rooms/${first.roomCode}/cancel`, { as: a })).status).toBe(200);
    const third = await kit.create(a, { betTier: 10 });
    expect(third.status).toBe(201);
    expect(third.body.room.roomCode).not.toBe(first.roomCode);
    expect(await kit.balance(a.id)).toEqual({ available: START - minor(10), escrow: minor(10) });
    await kit.expectAuditClean();
  });

  it('lets only one of several simultaneous creates by one user through', async () => {
    const a = await kit.signUp();
    const replies = await Promise.all(Array.from({ length: 5 }, () => kit.create(a)));
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await kit.balance(a.id)).toEqual({ available: START - minor(20), escrow: minor(20) });
    await kit.expectAuditClean();
  });

  it('refuses a stake the balance cannot cover', async () => {
    const a = await kit.signUp();
    await kit.setAvailable(a.id, minor(19));
    const before = await kit.snapshot();
    const r = await kit.create(a, { betTier: 20 });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ code: 'insufficient_funds', message: ROOMS.insufficientToCreate });
    expect(await kit.snapshot()).toBe(before);
    expect((await kit.create(a, { betTier: 10 })).status).toBe(201);
  });
});

describe('join', () => {
  it("locks the joiner's stake and creates the match in one go; the creator hears about it", async () => {
    const a = await kit.signUp();
    const b = await kit.signUp();
    const room = (await kit.create(a, { gameType: 'checkers', betTier: 50 })).body.room;
    const r = await kit.api('POST', `/api/rooms/${room.roomCode.toLowerCase()}/join`, { as: b });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const matchId = r.body.matchId;
    expect(r.body.redirectTo).toBe(`/live-arena?match=${matchId}`);
    expect(r.body.room).toMatchObject({ id: room.id, status: 'match_created', joinerId: b.id, matchId });

    const [match] = await kit.database.db.query<Record<string, unknown>>(
      `SELECT challenge_id, player1_id, player2_id, game_type, platform, stake, bet_amount, currency, status,
              is_private, room_code, scheduled_time
         FROM matches WHERE id = $1`,
      [matchId],
    );
    expect(match).toMatchObject({
      challenge_id: null,
      player1_id: a.id,
      player2_id: b.id,
      game_type: 'checkers',
      platform: 'web',
      stake: 50,
      bet_amount: 50,
      currency: 'credits',
      status: 'pending',
      is_private: true,
      room_code: room.roomCode,
    });
    expect(Math.abs(new Date(match!.scheduled_time as string).getTime() - Date.now())).toBeLessThan(60_000);
    for (const p of [a, b]) expect(await kit.balance(p.id)).toEqual({ available: START - minor(50), escrow: minor(50) });
    expect(
      await kit.database.db.query(`SELECT user_id, room_id FROM escrow_holds WHERE match_id = $1 AND status = 'held' ORDER BY id`, [
        matchId,
      ]),
    ).toEqual([
      { user_id: a.id, room_id: null },
      { user_id: b.id, room_id: null },
    ]);

    const expected = {
      joinerId: b.id,
      username: b.username,
      gameType: 'checkers',
      roomCode: room.roomCode,
      isPrivateRoom: true,
      betAmount: 50,
      matchId,
    };
    const userEvents = await kit.events(`user:${a.id}`);
    expect(userEvents.find((e) => e.type === 'room.joined')?.payload).toMatchObject(expected);
    expect((await kit.events(`room:${room.roomCode}`)).find((e) => e.type === 'room.joined')?.payload).toMatchObject(expected);

    // A retry by the joiner answers the same and moves nothing.
    const snapshot = await kit.snapshot();
    const retry = await kit.api('POST', `/api/rooms/${room.roomCode}/join`, { as: b });
    expect(retry.status).toBe(200);
    expect(retry.body.matchId).toBe(matchId);
    expect(await kit.snapshot()).toBe(snapshot);

    // The room is no longer waiting: no preview, not mine; both players see the match.
    expect((await kit.api('GET', `/api/rooms/${room.roomCode}`)).status).toBe(404);
    expect((await kit.api('GET', '/api/rooms/mine', { as: a })).body.room).toBeNull();
    for (const p of [a, b]) expect((await kit.api('GET', `/api/matches/${matchId}`, { as: p })).status).toBe(200);
    await kit.expectAuditClean();
  });

  it("refuses every bad join with SPEC's message and changes nothing", async () => {
    const a = await kit.signUp();
    const b = await kit.signUp();
    const c = await kit.signUp();
    const room = (await kit.create(a)).body.room;
    const join = (code: string, as?: typeof a) => kit.api('POST', `/api/rooms/${encodeURIComponent(code)}/join`, as ? { as } : {});

    let before = await kit.snapshot();
    for (const code of ['ABC', 'ABCDEFG', '     ']) {
      const r = await join(code, b);
      expect(r.status).toBe(400);
      expect(r.body.error.message).toBe(ROOMS.codeLength);
    }
    const anonymous = await join(room.roomCode);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.message).toBe(ROOMS.authRequired);
    const own = await join(room.roomCode, a);
    expect(own.status).toBe(400);
    expect(own.body.error.message).toBe(ROOMS.ownRoom);
    const unknown = await join('ZZZZZ9', b);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe(ROOMS.notFound);
    expect((await kit.api('GET', '/api/rooms/ZZZZZ9')).body.error.message).toBe(ROOMS.notFound);
    expect((await kit.api('GET', '/api/rooms/ZZ')).body.error.message).toBe(ROOMS.codeLength);
    expect(await kit.snapshot()).toBe(before);

    await kit.setAvailable(b.id, minor(19));
    before = await kit.snapshot();
    const poor = await join(room.roomCode, b);
    expect(poor.status).toBe(409);
    expect(poor.body.error.message).toBe(ROOMS.insufficientToJoin);
    expect(await kit.snapshot()).toBe(before);

    expect((await join(room.roomCode, c)).status).toBe(200);
    await kit.setAvailable(b.id, minor(1000));
    before = await kit.snapshot();
    const full = await join(room.roomCode, b);
    expect(full.status).toBe(409);
    expect(full.body.error.message).toBe(ROOMS.full);
    expect(await kit.snapshot()).toBe(before);
    await kit.expectAuditClean();
  });

  it('says an expired room has expired (before and after the job reaches it), and a cancelled one is not found', async () => {
    const a = await kit.signUp();
    const b = await kit.signUp();
    const room = (await kit.create(a)).body.room;
    await kit.database.db.query(`UPDATE private_rooms SET expires_at = now() - interval '1 second' WHERE id = $1`, [room.id]);
    const before = await kit.snapshot();
    const r = await kit.api('POST', `/api/rooms/${room.roomCode}/join`, { as: b });
    expect(r.status).toBe(410);
    expect(r.body.error.message).toBe(ROOMS.expired);
    expect(await kit.snapshot()).toBe(before);
    expect((await kit.api('GET', `/api/rooms/${room.roomCode}`)).status).toBe(404);
    expect((await kit.api('GET', '/api/rooms/mine', { as: a })).body.room).toBeNull();

    // Creating again cleans the stale room up first (its stake released), then opens the new one.
    const again = await kit.create(a);
    expect(again.status).toBe(201);
    expect((await kit.database.db.query<{ status: string }>('SELECT status FROM private_rooms WHERE id = $1', [room.id]))[0]!.status).toBe(
      'expired',
    );
    expect(await kit.balance(a.id)).toEqual({ available: START - minor(20), escrow: minor(20) });
    expect((await kit.api('POST', `/api/rooms/${room.roomCode}/join`, { as: b })).body.error.message).toBe(ROOMS.expired);

    expect((await kit.api('POST', `/api/rooms/${again.body.room.roomCode}/cancel`, { as: a })).status).toBe(200);
    const cancelled = await kit.api('POST', `/api/rooms/${again.body.room.roomCode}/join`, { as: b });
    expect(cancelled.status).toBe(404);
    expect(cancelled.body.error.message).toBe(ROOMS.notFound);
    await kit.expectAuditClean();
  });

  it('stakes VTokens for virtual accounts', async () => {
    const a = await kit.signUp('virtual');
    const b = await kit.signUp('virtual');
    const start = (await kit.balance(a.id, 'vtokens')).available;
    const room = (await kit.create(a, { betTier: 10 })).body.room;
    expect(room.currency).toBe('vtokens');
    const r = await kit.api('POST', `/api/rooms/${room.roomCode}/join`, { as: b });
    expect(r.status).toBe(200);
    for (const p of [a, b]) expect(await kit.balance(p.id, 'vtokens')).toEqual({ available: start - minor(10), escrow: minor(10) });
    expect(await kit.balance(a.id, 'credits')).toEqual({ available: 0, escrow: 0 });
    await kit.expectAuditClean();
  });
});

describe('cancel', () => {
  it('is for the creator while waiting: the stake comes back; others are refused', async () => {
    const a = await kit.signUp();
    const b = await kit.signUp();
    const room = (await kit.create(a, { betTier: 100 })).body.room;
    const before = await kit.snapshot();
    const other = await kit.api('POST', `/api/rooms/${room.roomCode}/cancel`, { as: b });
    expect(other.status).toBe(403);
    expect(other.body.error.message).toBe(ROOMS.cancelForbidden);
    expect((await kit.api('POST', `/api/rooms/${room.roomCode}/cancel`)).status).toBe(401);
    expect(await kit.snapshot()).toBe(before);

    const r = await kit.api('POST', `/api/rooms/${room.roomCode}/cancel`, { as: a });
    expect(r.status).toBe(200);
    expect(r.body.room.status).toBe('cancelled');
    expect(await kit.balance(a.id)).toEqual({ available: START, escrow: 0 });
    expect((await kit.events(`room:${room.roomCode}`)).map((e) => e.type)).toEqual(['room.cancelled']);
    const again = await kit.api('POST', `/api/rooms/${room.roomCode}/cancel`, { as: a });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(ROOMS.notCancellable);
    await kit.expectAuditClean();
  });

  it('cannot cancel a room that became a match', async () => {
    const a = await kit.signUp();
    const b = await kit.signUp();
    const room = (await kit.create(a)).body.room;
    expect((await kit.api('POST', `/api/rooms/${room.roomCode}/join`, { as: b })).status).toBe(200);
    const r = await kit.api('POST', `/api/rooms/${room.roomCode}/cancel`, { as: a });
    expect(r.status).toBe(409);
    expect(await kit.balance(a.id)).toEqual({ available: START - minor(20), escrow: minor(20) });
  });
});

describe('the room topic', () => {
  it('is for the creator and the joiner only', async () => {
    const a = await kit.signUp();
    const b = await kit.signUp();
    const c = await kit.signUp();
    const room = (await kit.create(a)).body.room;
    const claims = (p: typeof a) => ({ userId: p.id, role: 'user' as const, accountType: p.accountType });
    const topic = `room:${room.roomCode}`;
    expect(await kit.ctx.topics.canFollow(claims(a), topic)).toBe(true);
    expect(await kit.ctx.topics.canFollow(claims(b), topic)).toBe(false);
    await kit.api('POST', `/api/rooms/${room.roomCode}/join`, { as: b });
    expect(await kit.ctx.topics.canFollow(claims(b), topic)).toBe(true);
    expect(await kit.ctx.topics.canFollow(claims(c), topic)).toBe(false);
    expect(await kit.ctx.topics.canFollow(claims(c), 'room:ZZZZZ9')).toBe(false);
  });
});
