import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BALANCE, LEDGER } from '@versus/domain';
import { createTestDatabase } from '../test/database.ts';
import { recordHints } from '../realtime/test-hints.ts';
import { auditLedger } from './ledger.audit.ts';
import {
  createOwner,
  createOwnerTables,
  createPlayer,
  finishOwner,
  key,
  ledgerSnapshot,
  ledgerSuite,
  refusedUnchanged,
} from './ledger.fixtures.ts';
import { LedgerError, ensureAccounts, getBalanceView, getTransactions, ledgerOf, lockEscrow, runWeeklyResets } from './ledger.service.ts';

const suite = ledgerSuite();

async function balance(userId: string) {
  return suite.db.transaction((tx) => getBalanceView(tx, userId));
}

const refused = (work: () => Promise<unknown>) => refusedUnchanged(suite.db, work);

describe('opening accounts', () => {
  it('funds real players with 1,000 credits, promoters and admins with 1,000 pcredits, virtual players with 500 VTokens', async () => {
    const player = await createPlayer(suite.db);
    const promoter = await createPlayer(suite.db, { role: 'promoter' });
    const admin = await createPlayer(suite.db, { role: 'admin' });
    const virtual = await createPlayer(suite.db, { accountType: 'virtual' });
    expect(await balance(player.id)).toMatchObject({
      currency: 'credits',
      available_balance: 1000,
      escrow_balance: 0,
      available_credits: 1000,
      available_pcredits: 0,
      virtual_credits_available: 0,
      is_virtual: false,
    });
    expect(await balance(promoter.id)).toMatchObject({
      currency: 'pcredits',
      role: 'promoter',
      available_balance: 1000,
      available_pcredits: 1000,
      available_credits: 0,
    });
    expect(await balance(admin.id)).toMatchObject({ currency: 'pcredits', role: 'admin', available_pcredits: 1000 });
    expect(await balance(virtual.id)).toMatchObject({
      currency: 'credits',
      available_balance: 0,
      virtual_credits_available: 500,
      virtual_credits_escrow: 0,
      is_virtual: true,
      active_currency: 'vtokens',
      weekly_virtual_credits_remaining: 500,
    });
  });

  it('funds each mode once: ensureAccounts after a switch opens the other mode, repeated calls do nothing', async () => {
    const player = await createPlayer(suite.db);
    await suite.db.query(`UPDATE profiles SET account_type = 'virtual' WHERE id = $1`, [player.id]);
    const first = await suite.db.transaction((tx) => ensureAccounts(tx, { userId: player.id, role: 'user', accountType: 'virtual' }));
    const again = await suite.db.transaction((tx) => ensureAccounts(tx, { userId: player.id, role: 'user', accountType: 'virtual' }));
    expect(first).toEqual({ currency: 'vtokens', opened: true });
    expect(again).toEqual({ currency: 'vtokens', opened: false });
    expect(await balance(player.id)).toMatchObject({ available_credits: 1000, virtual_credits_available: 500, active_currency: 'vtokens' });
    await suite.db.query(`UPDATE profiles SET account_type = 'real' WHERE id = $1`, [player.id]);
    expect(await balance(player.id)).toMatchObject({ available_credits: 1000, virtual_credits_available: 500, active_currency: 'credits' });
  });

  it('repairs a role and currency mismatch when the balance is read: a player made admin gets pcredits, keeps credits', async () => {
    const player = await createPlayer(suite.db);
    await suite.db.query(`UPDATE profiles SET role = 'admin' WHERE id = $1`, [player.id]);
    const view = await balance(player.id);
    expect(view).toMatchObject({
      role: 'admin',
      currency: 'pcredits',
      available_balance: 1000,
      available_pcredits: 1000,
      available_credits: 1000,
    });
    await suite.ledger.spend({ userId: player.id, amount: 100, idempotencyKey: key() });
    expect(await balance(player.id)).toMatchObject({ available_pcredits: 999, available_credits: 1000 });
  });
});

describe('operations', () => {
  it('grants, spends, locks, releases, settles to the winner (2 × stake, no fee) and settles draws', async () => {
    const [a, b] = [await createPlayer(suite.db), await createPlayer(suite.db)];
    await suite.ledger.grant({ userId: a.id, currency: 'credits', amount: 5_050, idempotencyKey: key() });
    expect((await balance(a.id)).available_balance).toBe(1050.5);
    await suite.ledger.spend({ userId: a.id, amount: 50, idempotencyKey: key() });
    expect((await balance(a.id)).available_balance).toBe(1050);

    const challenge = await createOwner(suite.db, 'challenges');
    const lock = await suite.ledger.lockEscrow({ userId: a.id, amount: 2_500, owner: { challengeId: challenge }, idempotencyKey: key() });
    expect(lock).toMatchObject({
      ok: true,
      currency: 'credits',
      amount: 2_500,
      replayed: false,
      balances: [{ userId: a.id, available: 102_500, escrow: 2_500 }],
    });
    expect(await balance(a.id)).toMatchObject({ available_balance: 1025, escrow_balance: 25 });
    await suite.ledger.releaseEscrow({ owner: { challengeId: challenge }, idempotencyKey: key() });
    await finishOwner(suite.db, 'challenges', challenge, 'cancelled');
    expect(await balance(a.id)).toMatchObject({ available_balance: 1050, escrow_balance: 0 });

    const match = await createOwner(suite.db, 'matches');
    await suite.ledger.lockEscrow({ userId: a.id, amount: 10_000, owner: { matchId: match }, idempotencyKey: key() });
    await suite.ledger.lockEscrow({ userId: b.id, amount: 10_000, owner: { matchId: match }, idempotencyKey: key() });
    const settle = await suite.ledger.settleEscrow({ owner: { matchId: match }, winnerId: b.id, idempotencyKey: key() });
    await finishOwner(suite.db, 'matches', match);
    expect(settle).toMatchObject({ amount: 20_000, holds: 2, currency: 'credits' });
    expect(await balance(a.id)).toMatchObject({ available_balance: 950, escrow_balance: 0 });
    expect(await balance(b.id)).toMatchObject({ available_balance: 1100, escrow_balance: 0 });

    const drawn = await createOwner(suite.db, 'matches');
    await suite.ledger.lockEscrow({ userId: a.id, amount: 700, owner: { matchId: drawn }, idempotencyKey: key() });
    await suite.ledger.lockEscrow({ userId: b.id, amount: 700, owner: { matchId: drawn }, idempotencyKey: key() });
    await suite.ledger.settleDraw({ owner: { matchId: drawn }, idempotencyKey: key() });
    await finishOwner(suite.db, 'matches', drawn);
    expect(await balance(a.id)).toMatchObject({ available_balance: 950, escrow_balance: 0 });
    expect(await balance(b.id)).toMatchObject({ available_balance: 1100, escrow_balance: 0 });
    expect(await auditLedger(suite.db, suite.owners)).toMatchObject({ ok: true, problems: [] });
  });

  it('moves a challenge’s stakes to its match, then settles by the match', async () => {
    const [a, b] = [await createPlayer(suite.db), await createPlayer(suite.db)];
    const challenge = await createOwner(suite.db, 'challenges');
    await suite.ledger.lockEscrow({ userId: a.id, amount: 1_000, owner: { challengeId: challenge }, idempotencyKey: key() });
    await suite.ledger.lockEscrow({ userId: b.id, amount: 1_000, owner: { challengeId: challenge }, idempotencyKey: key() });
    const match = await createOwner(suite.db, 'matches');
    expect(await suite.ledger.transferHolds({ fromOwnerId: challenge, to: { matchId: match } })).toBe(2);
    await finishOwner(suite.db, 'challenges', challenge, 'completed');
    await expect(
      suite.ledger.settleEscrow({ owner: { challengeId: challenge }, winnerId: a.id, idempotencyKey: key() }),
    ).rejects.toMatchObject({
      code: 'nothing_held',
    });
    await suite.ledger.settleEscrow({ owner: { matchId: match }, winnerId: a.id, idempotencyKey: key() });
    await finishOwner(suite.db, 'matches', match);
    expect((await balance(a.id)).available_balance).toBe(1010);
    expect((await balance(b.id)).available_balance).toBe(990);
  });

  it('refuses insufficient funds with SPEC’s texts and changes nothing', async () => {
    const a = await createPlayer(suite.db);
    const error = await refused(() => suite.ledger.spend({ userId: a.id, amount: 100_001, idempotencyKey: key() }));
    expect(error).toMatchObject({
      status: 409,
      code: 'insufficient_funds',
      message: BALANCE.insufficient('$1,000.01', '$1,000.00'),
      title: 'Insufficient Credits',
    });
    const promoter = await createPlayer(suite.db, { role: 'promoter' });
    const lock = await refused(() =>
      suite.ledger.lockEscrow({ userId: promoter.id, amount: 200_000, owner: { matchId: crypto.randomUUID() }, idempotencyKey: key() }),
    );
    expect(lock).toMatchObject({ message: 'Need $2,000.00 but only have $1,000.00', title: 'Insufficient Pcredits' });
    const virtual = await createPlayer(suite.db, { accountType: 'virtual' });
    const tokens = await refused(() => suite.ledger.spend({ userId: virtual.id, amount: 50_001, idempotencyKey: key() }));
    expect(tokens).toMatchObject({ message: 'Need 500.01 VT but only have 500.00 VT', title: 'Insufficient VTokens' });
  });

  it('refuses every bad settlement with its own message and changes nothing', async () => {
    const [a, b, c] = [await createPlayer(suite.db), await createPlayer(suite.db), await createPlayer(suite.db)];
    const promoter = await createPlayer(suite.db, { role: 'promoter' });
    const match = await createOwner(suite.db, 'matches');
    expect(
      await refused(() => suite.ledger.settleEscrow({ owner: { matchId: match }, winnerId: a.id, idempotencyKey: key() })),
    ).toMatchObject({
      code: 'nothing_held',
      message: LEDGER.nothingHeld,
    });
    await suite.ledger.lockEscrow({ userId: a.id, amount: 500, owner: { matchId: match }, idempotencyKey: key() });
    expect(
      await refused(() => suite.ledger.lockEscrow({ userId: a.id, amount: 500, owner: { matchId: match }, idempotencyKey: key() })),
    ).toMatchObject({ code: 'already_held', message: LEDGER.alreadyHeld });
    expect(
      await refused(() => suite.ledger.settleEscrow({ owner: { matchId: match }, winnerId: a.id, idempotencyKey: key() })),
    ).toMatchObject({
      code: 'stakes_missing',
      message: LEDGER.stakesMissing,
    });
    await suite.ledger.lockEscrow({ userId: b.id, amount: 500, owner: { matchId: match }, idempotencyKey: key() });
    expect(
      await refused(() => suite.ledger.settleEscrow({ owner: { matchId: match }, winnerId: c.id, idempotencyKey: key() })),
    ).toMatchObject({
      code: 'winner_without_stake',
      message: LEDGER.winnerWithoutStake,
    });
    await suite.ledger.lockEscrow({ userId: promoter.id, amount: 500, owner: { matchId: match }, idempotencyKey: key() });
    expect(await refused(() => suite.ledger.settleDraw({ owner: { matchId: match }, idempotencyKey: key() }))).toMatchObject({
      code: 'mixed_currencies',
      message: LEDGER.mixedCurrencies,
    });
    await suite.ledger.releaseEscrow({ owner: { matchId: match }, userId: promoter.id, idempotencyKey: key() });
    await suite.ledger.settleEscrow({ owner: { matchId: match }, winnerId: a.id, idempotencyKey: key() });
    await finishOwner(suite.db, 'matches', match);
    expect(
      await refused(() => suite.ledger.grant({ userId: crypto.randomUUID(), currency: 'credits', amount: 1, idempotencyKey: key() })),
    ).toMatchObject({ status: 404, message: LEDGER.userNotFound });
    await expect(suite.ledger.spend({ userId: a.id, amount: 0, idempotencyKey: key() })).rejects.toMatchObject({
      status: 400,
      message: LEDGER.amountPositive,
    });
    await expect(suite.ledger.spend({ userId: a.id, amount: 1.5, idempotencyKey: key() })).rejects.toMatchObject({ status: 400 });
    expect(await auditLedger(suite.db, suite.owners)).toMatchObject({ ok: true });
  });

  it('keeps a refusal inside a caller’s transaction from spoiling that transaction', async () => {
    const a = await createPlayer(suite.db);
    const result = await suite.db.transaction(async (tx) => {
      const { spend, grant } = await import('./ledger.service.ts');
      await expect(spend(tx, { userId: a.id, amount: 10_000_000, idempotencyKey: key() })).rejects.toBeInstanceOf(LedgerError);
      return grant(tx, { userId: a.id, currency: 'credits', amount: 100, idempotencyKey: key() });
    });
    expect(result.ok).toBe(true);
    expect((await balance(a.id)).available_balance).toBe(1001);
  });
});

describe('idempotency', () => {
  it('returns the first result to a replay and moves nothing; another request with the key is refused', async () => {
    const a = await createPlayer(suite.db);
    const k = key();
    const first = await suite.ledger.spend({ userId: a.id, amount: 1_000, idempotencyKey: k });
    const before = await ledgerSnapshot(suite.db);
    const replay = await suite.ledger.spend({ userId: a.id, amount: 1_000, idempotencyKey: k });
    expect(replay).toEqual({ ...first, replayed: true });
    expect(await ledgerSnapshot(suite.db)).toBe(before);
    const other = await refused(() => suite.ledger.spend({ userId: a.id, amount: 2_000, idempotencyKey: k }));
    expect(other).toMatchObject({ status: 409, code: 'idempotency_key_reused', message: LEDGER.keyReused });
  });

  it('refuses one of two different requests racing with the same key, whichever loses', async () => {
    const players = await Promise.all(Array.from({ length: 6 }, () => createPlayer(suite.db)));
    const k = key();
    const outcomes = await Promise.allSettled(players.map((p) => suite.ledger.spend({ userId: p.id, amount: 100, idempotencyKey: k })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes.filter((o) => o.status === 'rejected')) {
      expect(o.reason).toMatchObject({ status: 409, code: 'idempotency_key_reused' });
    }
    const spent = await suite.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger_transfers t JOIN ledger_operations o ON o.id = t.operation_id WHERE o.idempotency_key = $1`,
      [k],
    );
    expect(spent[0]!.n).toBe(1);
  });

  it('answers a key racing another request’s uncommitted claim as reused, leaving the caller’s transaction usable', async () => {
    const [a, b] = [await createPlayer(suite.db), await createPlayer(suite.db)];
    const match = await createOwner(suite.db, 'matches');
    const k = key();
    let claimed!: () => void;
    let commit!: () => void;
    const hasClaimed = new Promise<void>((resolve) => (claimed = resolve));
    const mayCommit = new Promise<void>((resolve) => (commit = resolve));
    const first = suite.db.transaction(async (tx) => {
      await lockEscrow(tx, { userId: a.id, amount: 100, owner: { matchId: match }, idempotencyKey: k });
      claimed();
      await mayCommit;
    });
    await hasClaimed;
    const second = suite.db.transaction(async (tx) => {
      const error = await lockEscrow(tx, { userId: b.id, amount: 100, owner: { matchId: match }, idempotencyKey: k }).catch(
        (e: unknown) => e,
      );
      // The claim waited for the first transaction; this one can still do its other work.
      const [row] = await tx.query<{ ok: number }>('SELECT 1 AS ok');
      return { error, row };
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    commit();
    await first;
    const { error, row } = await second;
    expect(error).toMatchObject({ status: 409, code: 'idempotency_key_reused' });
    expect(row).toEqual({ ok: 1 });
    expect(await balance(b.id)).toMatchObject({ available_balance: 1000, escrow_balance: 0 });
  });

  it('moves money once when 12 replays of one request race', async () => {
    const [a, b] = [await createPlayer(suite.db), await createPlayer(suite.db)];
    const match = await createOwner(suite.db, 'matches');
    const lockKey = key();
    const locks = await Promise.all(
      Array.from({ length: 12 }, () =>
        suite.ledger.lockEscrow({ userId: a.id, amount: 300, owner: { matchId: match }, idempotencyKey: lockKey }),
      ),
    );
    expect(locks.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(locks.map((r) => r.holdId)).size).toBe(1);
    await suite.ledger.lockEscrow({ userId: b.id, amount: 300, owner: { matchId: match }, idempotencyKey: key() });
    const settleKey = key();
    const settles = await Promise.all(
      Array.from({ length: 12 }, () => suite.ledger.settleEscrow({ owner: { matchId: match }, winnerId: a.id, idempotencyKey: settleKey })),
    );
    await finishOwner(suite.db, 'matches', match);
    expect(settles.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await balance(a.id)).toMatchObject({ available_balance: 1003, escrow_balance: 0 });
    expect(await balance(b.id)).toMatchObject({ available_balance: 997, escrow_balance: 0 });
    expect(await auditLedger(suite.db, suite.owners)).toMatchObject({ ok: true });
  });
});

describe('virtual and real money stay apart', () => {
  it('a virtual account cannot spend or stake credits, a real one cannot touch VTokens', async () => {
    const virtual = await createPlayer(suite.db, { accountType: 'virtual' });
    const real = await createPlayer(suite.db);
    const promoter = await createPlayer(suite.db, { role: 'promoter' });
    // The virtual player also has credits from an earlier real mode: still untouchable in virtual mode.
    await suite.ledger.grant({ userId: virtual.id, currency: 'credits', amount: 10_000, idempotencyKey: key() });
    const owner = { matchId: crypto.randomUUID() };
    expect(
      await refused(() => suite.ledger.spend({ userId: virtual.id, currency: 'credits', amount: 100, idempotencyKey: key() })),
    ).toMatchObject({
      status: 403,
      code: 'currency_not_allowed',
      message: LEDGER.virtualOnlyVTokens('Credits'),
    });
    expect(
      await refused(() => suite.ledger.lockEscrow({ userId: virtual.id, currency: 'credits', amount: 100, owner, idempotencyKey: key() })),
    ).toMatchObject({ status: 403 });
    await suite.ledger.grant({ userId: real.id, currency: 'vtokens', amount: 10_000, idempotencyKey: key() });
    expect(
      await refused(() => suite.ledger.spend({ userId: real.id, currency: 'vtokens', amount: 100, idempotencyKey: key() })),
    ).toMatchObject({
      status: 403,
      message: LEDGER.vtokensVirtualOnly,
    });
    expect(
      await refused(() => suite.ledger.lockEscrow({ userId: real.id, currency: 'vtokens', amount: 100, owner, idempotencyKey: key() })),
    ).toMatchObject({ status: 403 });
    expect(
      await refused(() => suite.ledger.spend({ userId: promoter.id, currency: 'credits', amount: 100, idempotencyKey: key() })),
    ).toMatchObject({
      status: 403,
      message: LEDGER.wrongRealCurrency('Credits', 'Pcredits'),
    });
    // Without a currency each spends their own mode's money.
    await suite.ledger.spend({ userId: virtual.id, amount: 100, idempotencyKey: key() });
    expect(await balance(virtual.id)).toMatchObject({ virtual_credits_available: 499, available_credits: 100 });
  });
});

describe('weekly VTokens', () => {
  it('spending lowers the weekly allowance; 7 days after the last reset the balance is topped up to 500', async () => {
    const virtual = await createPlayer(suite.db, { accountType: 'virtual' });
    const rich = await createPlayer(suite.db, { accountType: 'virtual' });
    const real = await createPlayer(suite.db);
    await suite.ledger.spend({ userId: virtual.id, amount: 20_050, idempotencyKey: key() });
    expect(await balance(virtual.id)).toMatchObject({ virtual_credits_available: 299.5, weekly_virtual_credits_remaining: 299 });
    await suite.ledger.grant({ userId: rich.id, currency: 'vtokens', amount: 30_000, idempotencyKey: key() });

    // Six days: not yet.
    await suite.db.query(`UPDATE profiles SET weekly_virtual_credits_last_reset = now() - interval '6 days' WHERE id = ANY ($1)`, [
      [virtual.id, rich.id, real.id],
    ]);
    await runWeeklyResets(suite.db);
    expect((await balance(virtual.id)).virtual_credits_available).toBe(299.5);

    await suite.db.query(`UPDATE profiles SET weekly_virtual_credits_last_reset = now() - interval '7 days 1 minute' WHERE id = ANY ($1)`, [
      [virtual.id, rich.id, real.id],
    ]);
    const hints = await recordHints(suite.db, `user:${virtual.id}`);
    expect(await runWeeklyResets(suite.db)).toBeGreaterThanOrEqual(2);
    expect(await balance(virtual.id)).toMatchObject({ virtual_credits_available: 500, weekly_virtual_credits_remaining: 500 });
    expect((await hints.heard()).map((h) => h.payload)).toEqual([
      { currency: 'vtokens', available: 500, escrow: 0, availableMinor: 50_000, escrowMinor: 0 },
    ]);
    await hints.stop();
    // Tokens won above the allowance are kept; the week still starts again.
    expect(await balance(rich.id)).toMatchObject({ virtual_credits_available: 800, weekly_virtual_credits_remaining: 500 });
    // Real accounts have no weekly tokens.
    expect(await balance(real.id)).toMatchObject({ virtual_credits_available: 0 });
    // Once per week: running again does nothing.
    const snapshot = await ledgerSnapshot(suite.db);
    expect(await runWeeklyResets(suite.db)).toBe(0);
    expect(await ledgerSnapshot(suite.db)).toBe(snapshot);
    expect(await auditLedger(suite.db, suite.owners)).toMatchObject({ ok: true });
  });
});

describe('virtual winnings', () => {
  it('counts the VTokens a virtual player wins in total_virtual_credits_earned', async () => {
    const [a, b] = [await createPlayer(suite.db, { accountType: 'virtual' }), await createPlayer(suite.db, { accountType: 'virtual' })];
    const match = await createOwner(suite.db, 'matches');
    await suite.ledger.lockEscrow({ userId: a.id, amount: 2_500, owner: { matchId: match }, idempotencyKey: key() });
    await suite.ledger.lockEscrow({ userId: b.id, amount: 2_500, owner: { matchId: match }, idempotencyKey: key() });
    await suite.ledger.settleEscrow({ owner: { matchId: match }, winnerId: b.id, idempotencyKey: key() });
    await finishOwner(suite.db, 'matches', match);
    const earned = await suite.db.query<{ id: string; total_virtual_credits_earned: number }>(
      'SELECT id, total_virtual_credits_earned FROM profiles WHERE id = ANY ($1)',
      [[a.id, b.id]],
    );
    expect(Object.fromEntries(earned.map((r) => [r.id, r.total_virtual_credits_earned]))).toEqual({ [a.id]: 0, [b.id]: 25 });
    expect(await balance(b.id)).toMatchObject({ virtual_credits_available: 525, weekly_virtual_credits_remaining: 500 });
  });
});

describe('history and events', () => {
  it('lists a player’s own transfers newest first, page by page, with the change to each balance', async () => {
    const [a, b] = [await createPlayer(suite.db), await createPlayer(suite.db)];
    const match = await createOwner(suite.db, 'matches');
    await suite.ledger.lockEscrow({ userId: a.id, amount: 400, owner: { matchId: match }, idempotencyKey: key(), description: 'Stake' });
    await suite.ledger.lockEscrow({ userId: b.id, amount: 400, owner: { matchId: match }, idempotencyKey: key() });
    await suite.ledger.settleEscrow({ owner: { matchId: match }, winnerId: a.id, idempotencyKey: key() });
    await finishOwner(suite.db, 'matches', match);
    const first = await getTransactions(suite.db, a.id, { limit: 2 });
    expect(first.items.map((i) => [i.reason, i.availableMinor, i.escrowMinor])).toEqual([
      ['settle', 400, 0],
      ['settle', 400, -400],
    ]);
    expect(first.nextCursor).not.toBeNull();
    const second = await getTransactions(suite.db, a.id, { limit: 2, cursor: first.nextCursor! });
    expect(second.items.map((i) => [i.reason, i.available, i.escrow, i.description])).toEqual([
      ['escrow_lock', -4, 4, 'Stake'],
      ['starting', 1000, 0, 'Welcome credits'],
    ]);
    expect(second.nextCursor).toBeNull();
    const ofB = await getTransactions(suite.db, b.id, { limit: 10 });
    expect(ofB.items.map((i) => [i.reason, i.availableMinor, i.escrowMinor])).toEqual([
      ['settle', 0, -400],
      ['escrow_lock', -400, 400],
      ['starting', 100_000, 0],
    ]);
  });

  it('hints the new balance to user:{id} after commit, storing no event, and nothing for a refusal or a rollback', async () => {
    const a = await createPlayer(suite.db);
    const topic = `user:${a.id}`;
    const stored = () => suite.db.query(`SELECT 1 FROM realtime_events WHERE topic = $1 AND type = 'balance'`, [topic]);
    const hints = await recordHints(suite.db, topic);
    await suite.ledger.spend({ userId: a.id, amount: 250, idempotencyKey: key() });
    const balanceHint = {
      type: 'balance',
      payload: { currency: 'credits', available: 997.5, escrow: 0, availableMinor: 99_750, escrowMinor: 0 },
    };
    expect(await hints.heard()).toEqual([balanceHint]);
    expect(await stored()).toEqual([]);
    await expect(suite.ledger.spend({ userId: a.id, amount: 100_000_000, idempotencyKey: key() })).rejects.toBeInstanceOf(LedgerError);
    await expect(
      suite.db.transaction(async (tx) => {
        const { spend } = await import('./ledger.service.ts');
        await spend(tx, { userId: a.id, amount: 1, idempotencyKey: key() });
        throw new Error('the caller fails after the spend');
      }),
    ).rejects.toThrow('the caller fails');
    expect(await hints.heard()).toEqual([balanceHint]);
    await hints.stop();
    expect((await balance(a.id)).available_balance).toBe(997.5);
  });
});

describe('the schema itself', () => {
  // Writes behind the functions' back, as only a bug or a hand-edit could make them: each is
  // refused by the database, and the ledger does not change.
  it('refuses a transfer naming a missing account or one of another currency, and any change to an account’s identity', async () => {
    const a = await createPlayer(suite.db);
    const b = await createPlayer(suite.db);
    const [op] = await suite.db.query<{ id: string }>(`SELECT id FROM ledger_operations ORDER BY id LIMIT 1`);
    const account = async (userId: string, currency: string, kind: string) =>
      (
        await suite.db.query<{ id: string }>(`SELECT id FROM ledger_accounts WHERE user_id = $1 AND currency = $2 AND kind = $3`, [
          userId,
          currency,
          kind,
        ])
      )[0]!.id;
    const aCredits = await account(a.id, 'credits', 'available');
    const bCredits = await account(b.id, 'credits', 'available');
    const transfer = (from: string, to: string, currency: string, amount = 1, reason = 'grant') =>
      suite.db.query(
        `INSERT INTO ledger_transfers (operation_id, from_account, to_account, amount, currency, reason) VALUES ($1, $2, $3, $4, $5, $6)`,
        [op!.id, from, to, amount, currency, reason],
      );
    const { holdId } = await suite.ledger.lockEscrow({
      userId: a.id,
      amount: 100,
      owner: { matchId: crypto.randomUUID() },
      idempotencyKey: key(),
    });
    const before = await ledgerSnapshot(suite.db);
    await expect(transfer(aCredits, '999999999', 'credits')).rejects.toThrow(/not a credits account/);
    await expect(transfer(aCredits, bCredits, 'pcredits')).rejects.toThrow(/not a pcredits account/);
    await expect(transfer(aCredits, bCredits, 'doubloons')).rejects.toThrow(/ledger_currency_known/);
    await expect(transfer(aCredits, bCredits, 'credits', 0)).rejects.toThrow(/ledger_amount_positive/);
    await expect(transfer(aCredits, bCredits, 'credits', 1, 'gift')).rejects.toThrow(/ledger_transfer_reason_known/);
    await expect(transfer(aCredits, aCredits, 'credits')).rejects.toThrow(/ledger_transfers_two_accounts/);
    await expect(suite.db.query(`UPDATE ledger_accounts SET currency = 'pcredits' WHERE id = $1`, [aCredits])).rejects.toThrow(
      /never change/,
    );
    await expect(suite.db.query(`UPDATE ledger_accounts SET user_id = $2 WHERE id = $1`, [aCredits, b.id])).rejects.toThrow(/never change/);
    await expect(suite.db.query(`UPDATE ledger_accounts SET kind = 'escrow' WHERE id = $1`, [aCredits])).rejects.toThrow(/never change/);
    await expect(suite.db.query(`DELETE FROM ledger_accounts WHERE id = $1`, [aCredits])).rejects.toThrow(/never deleted/);
    await expect(
      suite.db.query(`INSERT INTO ledger_accounts (user_id, currency, kind) VALUES ($1, 'vtokens', 'house')`, [a.id]),
    ).rejects.toThrow(/ledger_accounts_owner/);
    await expect(
      suite.db.query(`INSERT INTO ledger_accounts (user_id, currency, kind) VALUES (NULL, 'vtokens', 'available')`),
    ).rejects.toThrow(/ledger_accounts_owner/);
    await expect(suite.db.query(`UPDATE escrow_holds SET status = 'lost' WHERE id = $1`, [holdId])).rejects.toThrow(
      /ledger_hold_status_known/,
    );
    await expect(
      suite.db.query(
        `INSERT INTO ledger_operations (idempotency_key, kind, request_hash, result) VALUES ('', 'grant', gen_random_uuid(), '{}')`,
      ),
    ).rejects.toThrow(/ledger_idempotency_key_length/);
    expect(await ledgerSnapshot(suite.db)).toBe(before);
    // A balance change alone is not an identity change (the test above it is how the ledger moves money).
    await expect(suite.db.query(`UPDATE ledger_accounts SET balance = balance WHERE id = $1`, [aCredits])).resolves.toBeDefined();
  });
});

describe('audit', () => {
  it('finds money created from nothing, negative accounts, escrow without a live owner', async () => {
    const scratch = await createTestDatabase();
    try {
      const sdb = scratch.db;
      const scratchOwners = await createOwnerTables(sdb);
      const a = await createPlayer(sdb);
      const b = await createPlayer(sdb);
      expect(await auditLedger(sdb, scratchOwners)).toMatchObject({
        ok: true,
        ownersChecked: { challenges: true, matches: true, private_rooms: true },
      });
      const match = crypto.randomUUID();
      await ledgerOf(sdb).lockEscrow({ userId: a.id, amount: 100, owner: { matchId: match }, idempotencyKey: key() });
      const orphan = await auditLedger(sdb, scratchOwners);
      expect(orphan.problems).toEqual([{ check: 'escrow_owner_live', detail: expect.stringContaining('does not exist') }]);
      await createOwner(sdb, 'matches', match);
      expect((await auditLedger(sdb, scratchOwners)).ok).toBe(true);
      await finishOwner(sdb, 'matches', match, 'completed');
      expect((await auditLedger(sdb, scratchOwners)).problems).toEqual([
        { check: 'escrow_owner_live', detail: expect.stringContaining('completed') },
      ]);
      await ledgerOf(sdb).releaseEscrow({ owner: { matchId: match }, idempotencyKey: key() });
      expect((await auditLedger(sdb, scratchOwners)).ok).toBe(true);

      // An accepted challenge, or a room whose match is made, has handed its stakes to the match
      // (in the same transaction): a stake still held by it is one the match will never settle.
      const challenge = await createOwner(sdb, 'challenges');
      await ledgerOf(sdb).lockEscrow({ userId: a.id, amount: 100, owner: { challengeId: challenge }, idempotencyKey: key() });
      await finishOwner(sdb, 'challenges', challenge, 'accepted');
      expect((await auditLedger(sdb, scratchOwners)).problems).toEqual([
        { check: 'escrow_owner_live', detail: expect.stringContaining('accepted') },
      ]);
      await ledgerOf(sdb).releaseEscrow({ owner: { challengeId: challenge }, idempotencyKey: key() });
      const room = await createOwner(sdb, 'private_rooms');
      await ledgerOf(sdb).lockEscrow({ userId: b.id, amount: 100, owner: { roomId: room }, idempotencyKey: key() });
      expect((await auditLedger(sdb, scratchOwners)).ok).toBe(true);
      await finishOwner(sdb, 'private_rooms', room, 'match_created');
      expect((await auditLedger(sdb, scratchOwners)).problems).toEqual([
        { check: 'escrow_owner_live', detail: expect.stringContaining('match_created') },
      ]);
      await ledgerOf(sdb).releaseEscrow({ owner: { roomId: room }, idempotencyKey: key() });
      expect((await auditLedger(sdb, scratchOwners)).ok).toBe(true);

      // Tampering behind the ledger's back (as only a bug or a hand-edit could).
      await sdb.query(
        `UPDATE ledger_accounts SET balance = balance + 5 WHERE user_id = $1 AND kind = 'available' AND currency = 'credits'`,
        [a.id],
      );
      const created = await auditLedger(sdb, scratchOwners);
      expect(created.problems.map((p) => p.check).sort()).toEqual(['balance_matches_transfers', 'sum_zero']);
      expect(created.currencies.find((c) => c.currency === 'credits')).toMatchObject({ total: 5 });
      await sdb.query(
        `UPDATE ledger_accounts SET balance = balance - 5 WHERE user_id = $1 AND kind = 'available' AND currency = 'credits'`,
        [a.id],
      );
      await sdb.query(`UPDATE escrow_holds SET status = 'held', closed_at = NULL, close_operation_id = NULL`);
      expect((await auditLedger(sdb, scratchOwners)).problems.map((p) => p.check)).toContain('escrow_matches_holds');
      await expect(sdb.query(`UPDATE ledger_accounts SET balance = -1 WHERE user_id = $1 AND kind = 'escrow'`, [b.id])).rejects.toThrow(
        /ledger_accounts_not_negative/,
      );
      await expect(sdb.query(`DELETE FROM ledger_transfers`)).rejects.toThrow(/immutable/);
      await expect(sdb.query(`DELETE FROM escrow_holds`)).rejects.toThrow(/never deleted/);
      await expect(sdb.query(`TRUNCATE escrow_holds CASCADE`)).rejects.toThrow(/never deleted|immutable/);

      // A link to a row that is not there (the functions never write one; a hand-edit could).
      await sdb.query(`UPDATE escrow_holds SET status = 'released', closed_at = now(), close_operation_id = lock_operation_id`);
      expect((await auditLedger(sdb, scratchOwners)).ok).toBe(true);
      await sdb.query(`UPDATE escrow_holds SET close_operation_id = 999999999 WHERE id = (SELECT min(id) FROM escrow_holds)`);
      const dangling = await auditLedger(sdb, scratchOwners);
      expect(dangling.problems).toEqual([
        { check: 'links', detail: expect.stringMatching(/^hold \d+ names close operation 999999999, which does not exist$/) },
      ]);
    } finally {
      await scratch.drop();
    }
  });
});
