// 50 funded players accept one challenge at the same moment, against real PostgreSQL with a
// pool big enough for real concurrency: exactly one wins, the rest lose nothing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chess, createKit, minor, type Kit } from './challenges.test-kit.ts';

let kit: Kit;
beforeAll(async () => {
  kit = await createKit({ max: 30 });
});
afterAll(() => kit?.close());

it('lets exactly one of 50 concurrent accepts win', async () => {
  const creator = await kit.player();
  const players = await Promise.all(Array.from({ length: 50 }, () => kit.player()));
  const { challenge } = (await kit.create(creator, { ...chess, stake: 40 })).body;

  const replies = await Promise.all(players.map((p) => kit.api('POST', `/api/challenges/${challenge.id}/accept`, { as: p, body: {} })));

  const winners = replies.filter((r) => r.status === 200);
  const losers = replies.filter((r) => r.status !== 200);
  expect(winners).toHaveLength(1);
  expect(losers).toHaveLength(49);
  for (const loser of losers) {
    expect(loser.status).toBe(409);
    expect(loser.body.error).toMatchObject({
      code: 'already_accepted',
      message: 'This challenge has already been accepted by another player.',
    });
  }
  const winner = players[replies.indexOf(winners[0]!)]!;

  const db = kit.database.db;
  expect(await db.query('SELECT count(*)::int AS n FROM matches WHERE challenge_id = $1', [challenge.id])).toEqual([{ n: 1 }]);
  const [row] = await db.query<{ status: string; accepted_by: string; match_id: string }>(
    'SELECT status, accepted_by, match_id FROM challenges WHERE id = $1',
    [challenge.id],
  );
  expect(row).toEqual({ status: 'accepted', accepted_by: winner.id, match_id: winners[0]!.body.match.id });

  expect(await kit.balance(creator.id)).toEqual({ available: minor(960), escrow: minor(40) });
  for (const p of players) {
    expect(await kit.balance(p.id)).toEqual(
      p === winner ? { available: minor(960), escrow: minor(40) } : { available: minor(1000), escrow: 0 },
    );
  }
  const held = await db.query<{ n: number; total: number }>(
    `SELECT count(*)::int AS n, sum(amount)::bigint AS total FROM escrow_holds WHERE status = 'held'`,
  );
  expect(held).toEqual([{ n: 2, total: minor(80) }]);
  // Every accept that lost wrote nothing at all: one lock operation per stake.
  expect(await db.query(`SELECT count(*)::int AS n FROM ledger_operations WHERE kind = 'lock'`)).toEqual([{ n: 2 }]);
  await kit.expectAuditClean();
});
