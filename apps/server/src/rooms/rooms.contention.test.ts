// Join, cancel and expiry of one room at once, and crossed joins: whoever wins, every stake is back with its
// player or held for a live room or match.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { cancelRoom, createRoom, expireRoom, joinRoom } from './rooms.service.ts';
import { settled, sweepFaults, type FaultScenario } from '../test/fault-sweep.ts';
import { createKit, minor, type Kit, type Player } from './rooms.test-kit.ts';

let kit: Kit;
beforeAll(async () => {
  kit = await createKit({ max: 12 });
});
afterAll(() => kit?.close());
afterEach(() => kit.expectAuditClean());

const withDb = (db: Database) => ({ db, log: kit.ctx.log });
const claims = (p: Player) => ({ userId: p.id, role: 'user' as const, accountType: p.accountType });

it('settles a join, a cancel and the expiry of one room at the same moment on exactly one of them', async () => {
  for (let round = 0; round < 6; round++) {
    const creator = await kit.signUp();
    const joiner = await kit.signUp();
    const room = (await kit.create(creator, { betTier: 50 })).body.room;
    const at = new Date(room.expiresAt);
    const before = new Date(at.getTime() - 1);

    const [joined, cancelled, expired] = await Promise.all([
      settled(joinRoom(kit.ctx, claims(joiner), room.roomCode, before)),
      settled(cancelRoom(kit.ctx, claims(creator), room.roomCode, before)),
      settled(expireRoom(kit.ctx, room.id, at)),
    ]);
    const wins = [joined.ok, cancelled.ok, expired.ok && expired.value].filter(Boolean);
    expect(wins).toHaveLength(1);
    const [row] = await kit.database.db.query<{ status: string }>('SELECT status FROM private_rooms WHERE id = $1', [room.id]);
    const held = await kit.database.db.query(`SELECT 1 FROM escrow_holds WHERE status = 'held' AND room_id = $1`, [room.id]);
    expect(held).toEqual([]);
    if (joined.ok) {
      expect(row!.status).toBe('match_created');
      expect(await kit.balance(creator.id)).toEqual({ available: minor(950), escrow: minor(50) });
      expect(await kit.balance(joiner.id)).toEqual({ available: minor(950), escrow: minor(50) });
    } else {
      expect(row!.status).toBe(cancelled.ok ? 'cancelled' : 'expired');
      expect([404, 410]).toContain(joined.error.status);
      expect(await kit.balance(creator.id)).toEqual({ available: minor(1000), escrow: 0 });
      expect(await kit.balance(joiner.id)).toEqual({ available: minor(1000), escrow: 0 });
    }
  }
});

it("lets two creators join each other's rooms at once: two matches, each stake held once", async () => {
  const a = await kit.signUp();
  const b = await kit.signUp();
  const roomA = (await kit.create(a, { betTier: 20 })).body.room;
  const roomB = (await kit.create(b, { betTier: 20 })).body.room;
  const [ab, ba] = await Promise.all([
    kit.api('POST', `/api/rooms/${roomB.roomCode}/join`, { as: a }),
    kit.api('POST', `/api/rooms/${roomA.roomCode}/join`, { as: b }),
  ]);
  expect([ab.status, ba.status]).toEqual([200, 200]);
  for (const p of [a, b]) expect(await kit.balance(p.id)).toEqual({ available: minor(960), escrow: minor(40) });
});

it('leaves nothing behind when any statement of a join, a cancel, an expiry or a create that expires an old room fails', async () => {
  const scenarios: FaultScenario[] = [
    {
      name: 'join',
      async setup() {
        const [creator, joiner] = [await kit.signUp(), await kit.signUp()];
        const room = (await kit.create(creator)).body.room;
        return (db) => joinRoom(withDb(db), claims(joiner), room.roomCode);
      },
    },
    {
      name: 'cancel',
      async setup() {
        const creator = await kit.signUp();
        const room = (await kit.create(creator)).body.room;
        return (db) => cancelRoom(withDb(db), claims(creator), room.roomCode);
      },
    },
    {
      name: 'expiry',
      async setup() {
        const creator = await kit.signUp();
        const room = (await kit.create(creator)).body.room;
        const at = new Date(new Date(room.expiresAt).getTime() + 1);
        return async (db) => {
          if (!(await expireRoom(withDb(db), room.id, at))) throw new Error('not expired');
        };
      },
    },
    {
      name: 'a create that expires my old room',
      async setup() {
        const creator = await kit.signUp();
        const room = (await kit.create(creator, { betTier: 100 })).body.room;
        await kit.setAvailable(creator.id, minor(50));
        const at = new Date(new Date(room.expiresAt).getTime() + 1);
        return (db) => createRoom(withDb(db), claims(creator), { betTier: 100 }, { now: at });
      },
    },
  ];
  await sweepFaults(scenarios, kit);
});
