// The rooms maintenance: unjoined rooms expire, abandoned matches end through finishMatch, stuck rooms are
// cleaned; a failure holds back nothing.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ROOMS } from '@versus/domain';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { runMaintenance, type ServiceContext } from './rooms.service.ts';
import { createKit, minor, type Kit } from './rooms.test-kit.ts';

let kit: Kit;
beforeAll(async () => {
  kit = await createKit();
});
afterAll(() => kit?.close());

const START = minor(1000);
const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);

it('expires a room nobody joined within 30 minutes and releases its stake', async () => {
  const a = await kit.signUp();
  const b = await kit.signUp();
  const room = (await kit.create(a, { betTier: 50 })).body.room;

  expect((await runMaintenance(kit.ctx, later(29))).expired).toBe(0);
  expect(await kit.balance(a.id)).toEqual({ available: START - minor(50), escrow: minor(50) });

  const result = await runMaintenance(kit.ctx, later(31));
  expect(result).toMatchObject({ expired: 1, failed: 0 });
  expect(await kit.balance(a.id)).toEqual({ available: START, escrow: 0 });
  expect((await kit.database.db.query<{ status: string }>('SELECT status FROM private_rooms WHERE id = $1', [room.id]))[0]!.status).toBe(
    'expired',
  );
  expect((await kit.events(`room:${room.roomCode}`)).map((e) => e.type)).toEqual(['room.expired']);
  expect((await kit.events(`user:${a.id}`)).map((e) => e.type)).toContain('room.expired');

  const join = await kit.api('POST', `/api/rooms/${room.roomCode}/join`, { as: b });
  expect(join.status).toBe(410);
  expect(join.body.error.message).toBe(ROOMS.expired);
  expect((await runMaintenance(kit.ctx, later(40))).expired).toBe(0);
  await kit.expectAuditClean();
});

it('ends a private match nobody started within 30 minutes as void, both stakes returned', async () => {
  const a = await kit.signUp();
  const b = await kit.signUp();
  const room = (await kit.create(a, { betTier: 20 })).body.room;
  const { matchId } = (await kit.api('POST', `/api/rooms/${room.roomCode}/join`, { as: b })).body;
  expect(await kit.balance(b.id)).toEqual({ available: START - minor(20), escrow: minor(20) });

  expect((await runMaintenance(kit.ctx, later(29))).abandoned).toBe(0);
  const result = await runMaintenance(kit.ctx, later(31));
  expect(result, JSON.stringify(result)).toMatchObject({ abandoned: 1, failed: 0 });

  const [match] = await kit.database.db.query<{ status: string; end_reason: string; winner_id: string | null }>(
    'SELECT status, end_reason, winner_id FROM matches WHERE id = $1',
    [matchId],
  );
  expect(match).toEqual({ status: 'cancelled', end_reason: 'void', winner_id: null });
  for (const p of [a, b]) {
    expect(await kit.balance(p.id)).toEqual({ available: START, escrow: 0 });
    expect((await kit.events(`user:${p.id}`)).find((e) => e.type === 'match.completed')?.payload).toMatchObject({
      matchId,
      result: 'void',
      received: 20,
    });
  }
  // Records untouched by a void.
  expect(await kit.database.db.query('SELECT wins, losses FROM profiles WHERE id = $1', [a.id])).toEqual([{ wins: 0, losses: 0 }]);
  expect((await runMaintenance(kit.ctx, later(60))).abandoned).toBe(0);
  await kit.expectAuditClean();
});

it('ends it as a forfeit when one player was ready: the one who came is paid', async () => {
  const a = await kit.signUp();
  const b = await kit.signUp();
  const room = (await kit.create(a, { betTier: 20 })).body.room;
  const { matchId } = (await kit.api('POST', `/api/rooms/${room.roomCode}/join`, { as: b })).body;
  // Bob arrived (ready); Alice never did.
  await kit.database.db.query('UPDATE matches SET player2_ready_at = now() WHERE id = $1', [matchId]);

  const result = await runMaintenance(kit.ctx, later(31));
  expect(result, JSON.stringify(result)).toMatchObject({ abandoned: 1, failed: 0 });
  const [match] = await kit.database.db.query<{ status: string; end_reason: string; winner_id: string | null }>(
    'SELECT status, end_reason, winner_id FROM matches WHERE id = $1',
    [matchId],
  );
  expect(match).toEqual({ status: 'completed', end_reason: 'forfeit', winner_id: b.id });
  expect(await kit.balance(b.id)).toEqual({ available: START + minor(20), escrow: 0 });
  expect(await kit.balance(a.id)).toEqual({ available: START - minor(20), escrow: 0 });
  await kit.expectAuditClean();
});

it('cleans up a room stuck between joined and match: the stake is released', async () => {
  const a = await kit.signUp();
  const b = await kit.signUp();
  const room = (await kit.create(a, { betTier: 10 })).body.room;
  await kit.database.db.query(
    `UPDATE private_rooms SET status = 'both_joined', joiner_id = $2, updated_at = now() - interval '10 minutes' WHERE id = $1`,
    [room.id, b.id],
  );
  const result = await runMaintenance(kit.ctx, new Date());
  expect(result).toMatchObject({ cleaned: 1, failed: 0 });
  expect((await kit.database.db.query<{ status: string }>('SELECT status FROM private_rooms WHERE id = $1', [room.id]))[0]!.status).toBe(
    'cancelled',
  );
  expect(await kit.balance(a.id)).toEqual({ available: START, escrow: 0 });
  // The creator may open a new room again.
  const again = await kit.create(a);
  expect(again.status).toBe(201);
  expect((await kit.api('POST', `/api/rooms/${again.body.room.roomCode}/cancel`, { as: a })).status).toBe(200);
  await kit.expectAuditClean();
});

it('logs a failure and carries on with the rest', async () => {
  const a = await kit.signUp();
  const b = await kit.signUp();
  const first = (await kit.create(a)).body.room;
  const second = (await kit.create(b)).body.room;
  const error = vi.fn();
  const log = { ...kit.ctx.log, error } as unknown as FastifyBaseLogger;
  let calls = 0;
  const db = kit.ctx.db;
  const flaky: ServiceContext = {
    log,
    db: {
      ...db,
      transaction: (work) => (++calls === 1 ? Promise.reject(new Error('connection lost')) : db.transaction(work)),
    },
  };
  const result = await runMaintenance(flaky, later(31));
  expect(result).toMatchObject({ expired: 1, failed: 1 });
  expect(error).toHaveBeenCalledTimes(1);
  // The next run picks up the one that failed.
  expect(await runMaintenance(kit.ctx, later(31))).toMatchObject({ expired: 1, failed: 0 });
  const statuses = await kit.database.db.query<{ status: string }>('SELECT status FROM private_rooms WHERE id = ANY($1::uuid[])', [
    [first.id, second.id],
  ]);
  expect(statuses.map((s) => s.status)).toEqual(['expired', 'expired']);
  await kit.expectAuditClean();
});

it('runs once at start when jobs run', async () => {
  const config = loadConfig({ WEB_DIR: '', SEED_DEMO: 'false', RUN_JOBS: 'true' });
  const a = await kit.signUp();
  const room = (await kit.create(a)).body.room;
  await kit.database.db.query(`UPDATE private_rooms SET expires_at = now() - interval '1 minute' WHERE id = $1`, [room.id]);
  const app = await buildApp({ config, db: kit.database.db, logger: false });
  await app.ready();
  try {
    await vi.waitFor(
      async () => {
        const [row] = await kit.database.db.query<{ status: string }>('SELECT status FROM private_rooms WHERE id = $1', [room.id]);
        expect(row!.status).toBe('expired');
      },
      { timeout: 5_000, interval: 100 },
    );
    expect(await kit.database.db.query(`SELECT runs FROM scheduled_jobs WHERE name = 'rooms-maintenance'`)).toEqual([{ runs: 1 }]);
  } finally {
    await app.close();
  }
  expect(await kit.balance(a.id)).toEqual({ available: START, escrow: 0 });
  await kit.expectAuditClean();
});
