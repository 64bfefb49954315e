// A tournament's escrow: stakes held by the tournament, returned one by one or all at once, and
// the pool paid to several winners in ONE operation (a sponsor's pcredits funding credits at par).
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LEDGER, type Currency } from '@versus/domain';
import { balances } from '../test/ledger-checks.ts';
import { auditLedger } from './ledger.audit.ts';
import { createOwner, createPlayer, finishOwner, key, ledgerSnapshot, ledgerSuite, refusedUnchanged } from './ledger.fixtures.ts';

const suite = ledgerSuite();

const accounts = (userId: string, currency: Currency = 'credits') => balances(suite.db, userId, currency);

const house = async (currency: string) =>
  (await suite.db.query<{ balance: number }>(`SELECT balance FROM ledger_accounts WHERE kind = 'house' AND currency = $1`, [currency]))[0]!
    .balance;

const refused = (work: () => Promise<unknown>) => refusedUnchanged(suite.db, work);

/** `n` players, each with a 10.00 stake held by a new tournament. */
async function entered(n: number) {
  const tournamentId = await createOwner(suite.db, 'tournaments');
  const players = [];
  for (let i = 0; i < n; i++) {
    const player = await createPlayer(suite.db);
    await suite.ledger.lockEscrow({ userId: player.id, amount: 1000, owner: { tournamentId }, idempotencyKey: key() });
    players.push(player);
  }
  return { tournamentId, players };
}

describe('tournament escrow', () => {
  it('pays the pool to several winners in one operation: stakes into the house, prizes out of it', async () => {
    const { tournamentId, players } = await entered(4);
    const [a, b, c, d] = players;
    const houseBefore = await house('credits');
    const payoutKey = key();
    const pay = () =>
      suite.ledger.payPool({
        idempotencyKey: payoutKey,
        tournamentId,
        currency: 'credits',
        payouts: [
          { userId: a!.id, amount: 2500, description: 'Tournament prize: 1st' },
          { userId: b!.id, amount: 1000 },
          { userId: c!.id, amount: 500 },
        ],
        description: 'Friday Blitz',
      });
    const done = await pay();
    expect(done).toMatchObject({ ok: true, replayed: false, amount: 4000, holds: 4, currency: 'credits' });
    expect(await accounts(a!.id)).toEqual({ available: 100_000 - 1000 + 2500, escrow: 0 });
    expect(await accounts(b!.id)).toEqual({ available: 100_000, escrow: 0 });
    expect(await accounts(c!.id)).toEqual({ available: 100_000 - 500, escrow: 0 });
    expect(await accounts(d!.id)).toEqual({ available: 100_000 - 1000, escrow: 0 });
    expect(await house('credits')).toBe(houseBefore);
    // One operation: four stakes in, three prizes out, every hold settled by it.
    const transfers = await suite.db.query<{ reason: string; n: number }>(
      `SELECT reason, count(*)::int AS n FROM ledger_transfers WHERE operation_id = $1 GROUP BY reason ORDER BY reason`,
      [done.operationId],
    );
    expect(transfers).toEqual([
      { reason: 'tournament_pool', n: 4 },
      { reason: 'tournament_prize', n: 3 },
    ]);
    const holds = await suite.db.query<{ status: string; close_operation_id: number }>(
      'SELECT status, close_operation_id FROM escrow_holds WHERE tournament_id = $1',
      [tournamentId],
    );
    expect(holds.every((h) => h.status === 'settled' && h.close_operation_id === done.operationId)).toBe(true);
    expect(done.balances.map((x) => x.userId).sort()).toEqual(players.map((p) => p.id).sort());

    // A retry is the first result; the same key for another request is refused.
    const before = await ledgerSnapshot(suite.db);
    expect(await pay()).toMatchObject({ replayed: true, operationId: done.operationId });
    expect(await ledgerSnapshot(suite.db)).toBe(before);
    const reused = await refused(() =>
      suite.ledger.payPool({ idempotencyKey: payoutKey, tournamentId, currency: 'credits', payouts: [{ userId: a!.id, amount: 4000 }] }),
    );
    expect(reused.refusal.error).toBe('key_reused');

    await finishOwner(suite.db, 'tournaments', tournamentId, 'finished');
    expect((await auditLedger(suite.db, suite.owners)).problems).toEqual([]);
  });

  it('refuses prizes that do not add up to the pool, and a pool with nothing held, changing nothing', async () => {
    const { tournamentId, players } = await entered(2);
    const short = await refused(() =>
      suite.ledger.payPool({
        idempotencyKey: key(),
        tournamentId,
        currency: 'credits',
        payouts: [{ userId: players[0]!.id, amount: 1999 }],
      }),
    );
    expect(short).toMatchObject({ status: 409, code: 'payout_mismatch', message: LEDGER.payoutMismatch });
    const nobody = await refused(() =>
      suite.ledger.payPool({
        idempotencyKey: key(),
        tournamentId: crypto.randomUUID(),
        currency: 'credits',
        payouts: [{ userId: players[0]!.id, amount: 100 }],
      }),
    );
    expect(nobody.refusal.error).toBe('nothing_held');
    // A winner with no account in the prize's currency.
    const virtual = await createPlayer(suite.db, { accountType: 'virtual' });
    const stranger = await refused(() =>
      suite.ledger.payPool({ idempotencyKey: key(), tournamentId, currency: 'credits', payouts: [{ userId: virtual.id, amount: 2000 }] }),
    );
    expect(stranger.refusal.error).toBe('user_not_found');
    expect((await auditLedger(suite.db, suite.owners)).problems).toEqual([]);
  });

  it("returns one player's stake (leaving before the start), then every stake (a cancel)", async () => {
    const { tournamentId, players } = await entered(3);
    await suite.ledger.releaseEscrow({ idempotencyKey: key(), owner: { tournamentId }, userId: players[0]!.id });
    expect(await accounts(players[0]!.id)).toEqual({ available: 100_000, escrow: 0 });
    expect(await accounts(players[1]!.id)).toEqual({ available: 99_000, escrow: 1000 });
    // Entering again locks a new stake under a new key.
    await suite.ledger.lockEscrow({ userId: players[0]!.id, amount: 1000, owner: { tournamentId }, idempotencyKey: key() });
    const all = await suite.ledger.releaseEscrow({ idempotencyKey: key(), owner: { tournamentId } });
    expect(all).toMatchObject({ amount: 3000, holds: 3 });
    for (const p of players) expect(await accounts(p.id)).toEqual({ available: 100_000, escrow: 0 });
    await finishOwner(suite.db, 'tournaments', tournamentId, 'cancelled');
    expect((await auditLedger(suite.db, suite.owners)).problems).toEqual([]);
  });

  it("pays a sponsor's pcredits out as credits at par, each currency balancing through its house account", async () => {
    const tournamentId = await createOwner(suite.db, 'tournaments');
    const sponsor = await createPlayer(suite.db, { role: 'promoter' });
    await suite.ledger.lockEscrow({
      userId: sponsor.id,
      amount: 30_000,
      currency: 'pcredits',
      owner: { tournamentId },
      idempotencyKey: key(),
    });
    const [a, b] = [await createPlayer(suite.db), await createPlayer(suite.db)];
    const houses = { credits: await house('credits'), pcredits: await house('pcredits') };
    await suite.ledger.payPool({
      idempotencyKey: key(),
      tournamentId,
      currency: 'credits',
      payouts: [
        { userId: a.id, amount: 20_000 },
        { userId: b.id, amount: 10_000 },
      ],
    });
    expect(await accounts(sponsor.id, 'pcredits')).toEqual({ available: 70_000, escrow: 0 });
    expect(await accounts(a.id)).toEqual({ available: 120_000, escrow: 0 });
    expect(await accounts(b.id)).toEqual({ available: 110_000, escrow: 0 });
    expect(await house('pcredits')).toBe(houses.pcredits + 30_000);
    expect(await house('credits')).toBe(houses.credits - 30_000);
    await finishOwner(suite.db, 'tournaments', tournamentId, 'finished');
    const audit = await auditLedger(suite.db, suite.owners);
    expect(audit.problems).toEqual([]);
    expect(audit.ownersChecked.tournaments).toBe(true);
  });

  it('the audit finds a stake still held by a finished tournament', async () => {
    const { tournamentId } = await entered(1);
    await finishOwner(suite.db, 'tournaments', tournamentId, 'finished');
    expect((await auditLedger(suite.db, suite.owners)).problems).toEqual([
      { check: 'escrow_owner_live', detail: expect.stringContaining('tournaments') as string },
    ]);
    await suite.ledger.releaseEscrow({ idempotencyKey: key(), owner: { tournamentId } });
    expect((await auditLedger(suite.db, suite.owners)).ok).toBe(true);
  });
});
