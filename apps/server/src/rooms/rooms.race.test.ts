// Many players join one room at once on real PostgreSQL: one match, the rest told it is full, losing
// nothing; a code collision is retried.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOMS } from '@versus/domain';
import { createRoom } from './rooms.service.ts';
import { createKit, minor, type Kit } from './rooms.test-kit.ts';

let kit: Kit;
beforeAll(async () => {
  kit = await createKit({ max: 25 });
});
afterAll(() => kit?.close());

it('lets exactly one of 20 concurrent joins win', async () => {
  const creator = await kit.signUp();
  const players = await Promise.all(Array.from({ length: 20 }, () => kit.signUp()));
  const room = (await kit.create(creator, { betTier: 50 })).body.room;

  const replies = await Promise.all(players.map((p) => kit.api('POST', `/api/rooms/${room.roomCode}/join`, { as: p })));
  const winners = replies.filter((r) => r.status === 200);
  const losers = replies.filter((r) => r.status !== 200);
  expect(winners).toHaveLength(1);
  expect(losers).toHaveLength(19);
  for (const loser of losers) {
    expect(loser.status).toBe(409);
    expect(loser.body.error).toMatchObject({ code: 'room_full', message: ROOMS.full });
  }
  const winner = players[replies.indexOf(winners[0]!)]!;
  const db = kit.database.db;
  expect(await db.query(`SELECT count(*)::int AS n FROM matches WHERE room_code = $1`, [room.roomCode])).toEqual([{ n: 1 }]);
  expect(await db.query('SELECT status, joiner_id, match_id FROM private_rooms WHERE id = $1', [room.id])).toEqual([
    { status: 'match_created', joiner_id: winner.id, match_id: winners[0]!.body.matchId },
  ]);
  expect(await kit.balance(creator.id)).toEqual({ available: minor(950), escrow: minor(50) });
  for (const p of players) {
    expect(await kit.balance(p.id)).toEqual(
      p === winner ? { available: minor(950), escrow: minor(50) } : { available: minor(1000), escrow: 0 },
    );
  }
  expect(await db.query(`SELECT count(*)::int AS n FROM ledger_operations WHERE kind = 'lock'`)).toEqual([{ n: 2 }]);
  expect((await kit.events(`user:${creator.id}`)).filter((e) => e.type === 'room.joined')).toHaveLength(1);
  await kit.expectAuditClean();
});

it('draws another code when the first is taken', async () => {
  const a = await kit.signUp();
  const b = await kit.signUp();
  const first = (await kit.create(a)).body.room;
  const scripted = [first.roomCode, first.roomCode, 'K7M2PQ'];
  const claims = { userId: b.id, role: 'user' as const, accountType: 'real' as const };
  const made = await createRoom(kit.ctx, claims, {}, { drawCode: () => scripted.shift()! });
  expect(made.room.roomCode).toBe('K7M2PQ');
  await kit.expectAuditClean();
});
