// Accept, cancel and expiry racing on one challenge or pool: whoever wins, every stake is back with its
// player or held for a live owner.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { acceptChallenge, cancelChallenge, expireDueChallenges } from './challenges.service.ts';
import { settled, sweepFaults, type FaultScenario } from '../test/fault-sweep.ts';
import { chess, createKit, minor, type Kit, type Player } from './challenges.test-kit.ts';

let kit: Kit;
beforeAll(async () => {
  kit = await createKit({ max: 20 });
});
afterAll(() => kit?.close());
afterEach(() => kit.expectAuditClean());

async function heldBy(ownerColumn: 'challenge_id' | 'match_id', ownerId: string) {
  return kit.database.db.query<{ user_id: string }>(
    `SELECT user_id FROM escrow_holds WHERE status = 'held' AND ${ownerColumn} = $1 ORDER BY user_id`,
    [ownerId],
  );
}

it('settles accept, cancel and expiry of one challenge at the same moment on exactly one of them', async () => {
  for (let round = 0; round < 6; round++) {
    const creator = await kit.player();
    const acceptor = await kit.player();
    const { challenge } = (await kit.create(creator, { ...chess, stake: 30 })).body;
    // Due for expiry at `at`, so the job (run at `at`) and an accept made just before it meet.
    const at = new Date(Date.now() + 60_000);
    await kit.database.db.query('UPDATE challenges SET expires_at = $2 WHERE id = $1', [challenge.id, at]);

    const [accepted, cancelled, expired] = await Promise.all([
      settled(acceptChallenge(kit.ctx, acceptor.claims, challenge.id, { now: new Date(at.getTime() - 1) })),
      settled(cancelChallenge(kit.ctx, creator.claims, challenge.id, new Date(at.getTime() - 1))),
      settled(expireDueChallenges(kit.ctx, at)),
    ]);
    const [row] = await kit.database.db.query<{ status: string }>('SELECT status FROM challenges WHERE id = $1', [challenge.id]);
    const wins = [accepted.ok, cancelled.ok, expired.ok && expired.value === 1].filter(Boolean);
    expect(wins).toHaveLength(1);

    if (accepted.ok) {
      expect(row!.status).toBe('accepted');
      expect(await heldBy('match_id', accepted.value.match!.id)).toHaveLength(2);
      expect(await kit.balance(creator.id)).toEqual({ available: minor(970), escrow: minor(30) });
      expect(await kit.balance(acceptor.id)).toEqual({ available: minor(970), escrow: minor(30) });
    } else {
      expect(row!.status).toBe(cancelled.ok ? 'cancelled' : 'expired');
      expect(accepted.error.status).toBe(409);
      expect(await kit.balance(creator.id)).toEqual({ available: minor(1000), escrow: 0 });
      expect(await kit.balance(acceptor.id)).toEqual({ available: minor(1000), escrow: 0 });
    }
    expect(await heldBy('challenge_id', challenge.id)).toEqual([]);
  }
});

it('seats exactly as many players as a pool has while its creator cancels, and loses nobody a stake', async () => {
  for (let round = 0; round < 3; round++) {
    const host = await kit.player();
    const { challenge } = (await kit.create(host, { game: 'ludo', stake: 10, duration: 30, isPrivate: true, maxParticipants: 4 })).body;
    const players = await Promise.all(Array.from({ length: 6 }, () => kit.player()));

    const [cancelled, ...joins] = await Promise.all([
      settled(cancelChallenge(kit.ctx, host.claims, challenge.id)),
      ...players.map((p) => settled(acceptChallenge(kit.ctx, p.claims, challenge.id, { code: challenge.code! }))),
    ]);
    const joined = players.filter((_, i) => joins[i]!.ok);
    const [row] = await kit.database.db.query<{ status: string; match_id: string | null }>(
      'SELECT status, match_id FROM challenges WHERE id = $1',
      [challenge.id],
    );
    if (row!.status === 'accepted') {
      expect(cancelled.ok).toBe(false);
      expect(joined).toHaveLength(3);
      expect(await heldBy('match_id', row!.match_id!)).toHaveLength(4);
    } else {
      expect(row!.status).toBe('cancelled');
      expect(joined.length).toBeLessThan(3);
      for (const p of [host, ...players]) expect(await kit.balance(p.id)).toEqual({ available: minor(1000), escrow: 0 });
    }
    for (const p of players) {
      expect(await kit.balance(p.id)).toEqual(
        row!.status === 'accepted' && joined.includes(p)
          ? { available: minor(990), escrow: minor(10) }
          : { available: minor(1000), escrow: 0 },
      );
    }
    expect(await heldBy('challenge_id', challenge.id)).toEqual([]);
  }
});

it('never lets a creator win the race to accept their own challenge', async () => {
  const creator = await kit.player();
  const others: Player[] = [await kit.player(), await kit.player()];
  const { challenge } = (await kit.create(creator, chess)).body;
  const replies = await Promise.all(
    [creator, ...others, creator].map((p) => kit.api('POST', `/api/challenges/${challenge.id}/accept`, { as: p, body: {} })),
  );
  expect(replies[0]!.status).not.toBe(200);
  expect(replies[3]!.status).not.toBe(200);
  expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
  expect(await kit.balance(creator.id)).toEqual({ available: minor(975), escrow: minor(25) });
});

it('leaves nothing behind when any statement of an accept, a pool join, a cancel or an expiry fails', async () => {
  const scenarios: FaultScenario[] = [
    {
      name: 'accept',
      async setup() {
        const [creator, acceptor] = [await kit.player(), await kit.player()];
        const { challenge } = (await kit.create(creator, chess)).body;
        return (db) => acceptChallenge({ db, challengeList: kit.app.services.challengeList }, acceptor.claims, challenge.id);
      },
    },
    {
      name: 'the join that fills a pool',
      async setup() {
        const [host, first, last] = [await kit.player(), await kit.player(), await kit.player()];
        const { challenge } = (await kit.create(host, { game: 'ludo', stake: 10, duration: 30, isPrivate: true, maxParticipants: 3 })).body;
        await acceptChallenge(kit.ctx, first.claims, challenge.id, { code: challenge.code! });
        return (db) =>
          acceptChallenge({ db, challengeList: kit.app.services.challengeList }, last.claims, challenge.id, { code: challenge.code! });
      },
    },
    {
      name: 'cancel of a pool',
      async setup() {
        const [host, first] = [await kit.player(), await kit.player()];
        const { challenge } = (await kit.create(host, { game: 'ludo', stake: 10, duration: 30, isPrivate: true, maxParticipants: 3 })).body;
        await acceptChallenge(kit.ctx, first.claims, challenge.id, { code: challenge.code! });
        return (db) => cancelChallenge({ db, challengeList: kit.app.services.challengeList }, host.claims, challenge.id);
      },
    },
    {
      name: 'expiry',
      async setup() {
        const creator = await kit.player();
        const { challenge } = (await kit.create(creator, chess)).body;
        await kit.database.db.query(`UPDATE challenges SET expires_at = now() - interval '1 minute' WHERE id = $1`, [challenge.id]);
        return async (db) => {
          // Other tests' challenges are long closed; this one is the only one due.
          if ((await expireDueChallenges({ db, challengeList: kit.app.services.challengeList })) !== 1) throw new Error('not expired');
        };
      },
    },
  ];
  await sweepFaults(scenarios, kit);
});
