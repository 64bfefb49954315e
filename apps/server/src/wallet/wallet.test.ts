import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, BALANCE, LEDGER } from '@versus/domain';
import { balanceViewSchema, creditsResultSchema, ledgerAuditSchema, walletTransactionsSchema } from '@versus/domain/wallet';
import { recordHints } from '../realtime/test-hints.ts';
import { accessTokenFor, createTestApp, type TestApp } from '../test/app.ts';
import { createPlayer, ledgerSnapshot, type TestPlayer } from '../ledger/ledger.fixtures.ts';
import { refuseForVirtual } from './wallet.service.ts';

let t: TestApp;
let alice: TestPlayer;
let bob: TestPlayer;
let virtual: TestPlayer;
let promoter: TestPlayer;
let admin: TestPlayer;

beforeAll(async () => {
  t = await createTestApp();
  alice = await createPlayer(t.database.db);
  bob = await createPlayer(t.database.db);
  virtual = await createPlayer(t.database.db, { accountType: 'virtual' });
  promoter = await createPlayer(t.database.db, { role: 'promoter' });
  admin = await createPlayer(t.database.db, { role: 'admin' });
});
afterAll(() => t.close());

const tokenFor = (player: TestPlayer) => accessTokenFor(t.app, player);

async function call(method: 'GET' | 'POST', url: string, player: TestPlayer | null, body?: unknown) {
  const headers: Record<string, string> = player ? { authorization: `Bearer ${await tokenFor(player)}` } : {};
  return t.app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as object }) });
}

const balanceOf = async (player: TestPlayer) => balanceViewSchema.parse((await call('GET', '/api/wallet/balance', player)).json());
const key = () => crypto.randomUUID();

describe('GET /api/wallet/balance', () => {
  it('answers SPEC §3 Balance for the signed-in user only', async () => {
    const res = await call('GET', `/api/wallet/balance?userId=${bob.id}&user_id=${bob.id}`, alice);
    expect(res.statusCode).toBe(200);
    const view = balanceViewSchema.parse(res.json());
    expect(view).toMatchObject({
      available_balance: 1000,
      escrow_balance: 0,
      currency: 'credits',
      role: 'user',
      available_credits: 1000,
      available_pcredits: 0,
      escrow_credits: 0,
      escrow_pcredits: 0,
      virtual_credits_available: 0,
      virtual_credits_escrow: 0,
      is_virtual: false,
      minor: { available_credits: 100_000 },
    });
    expect(await balanceOf(virtual)).toMatchObject({ is_virtual: true, active_currency: 'vtokens', virtual_credits_available: 500 });
    expect(await balanceOf(promoter)).toMatchObject({ currency: 'pcredits', available_balance: 1000 });
  });

  it('refuses visitors and forged tokens with 401', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/wallet/balance', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: { code: 'unauthorized', message: AUTH.signInRequired } });
    }
  });
});

describe('POST /api/wallet/credits/use', () => {
  it('spends from the user’s own balance, publishes the balance, and a retry with the same key moves nothing', async () => {
    const body = { amount: 12.5, description: 'Tournament snack', idempotencyKey: key() };
    const hints = await recordHints(t.database.db, `user:${alice.id}`);
    const res = await call('POST', '/api/wallet/credits/use', alice, body);
    expect(res.statusCode).toBe(200);
    const result = creditsResultSchema.parse(res.json());
    expect(result).toMatchObject({
      currency: 'credits',
      amount: 12.5,
      amountMinor: 1250,
      replayed: false,
      available: 987.5,
      message: BALANCE.deducted('12.50'),
    });
    const snapshot = await ledgerSnapshot(t.database.db);
    const again = await call('POST', '/api/wallet/credits/use', alice, body);
    expect(again.json()).toEqual({ ...result, replayed: true });
    expect(await ledgerSnapshot(t.database.db)).toBe(snapshot);
    expect((await balanceOf(alice)).available_balance).toBe(987.5);
    expect((await balanceOf(bob)).available_balance).toBe(1000);
    expect((await hints.heard()).map((h) => h.payload)).toEqual([
      { currency: 'credits', available: 987.5, escrow: 0, availableMinor: 98_750, escrowMinor: 0 },
    ]);
    await hints.stop();
  });

  it('one user’s key never replays another user’s request', async () => {
    const shared = key();
    await call('POST', '/api/wallet/credits/use', alice, { amount: 1, idempotencyKey: shared });
    const res = await call('POST', '/api/wallet/credits/use', bob, { amount: 1, idempotencyKey: shared });
    expect(res.json()).toMatchObject({ replayed: false, available: 999 });
  });

  it('refuses bad amounts and insufficient balances with clear messages, changing nothing', async () => {
    const snapshot = await ledgerSnapshot(t.database.db);
    const cases: [unknown, number, string][] = [
      [{ amount: 0, idempotencyKey: key() }, 400, LEDGER.amountPositive],
      [{ amount: -3, idempotencyKey: key() }, 400, LEDGER.amountPositive],
      [{ amount: 1.234, idempotencyKey: key() }, 400, LEDGER.amountDecimals],
      [{ amount: '5', idempotencyKey: key() }, 400, LEDGER.amountNotNumber],
      [{ amount: 5 }, 400, LEDGER.keyRequired],
      [{ amount: 5000, idempotencyKey: key() }, 409, BALANCE.insufficient('$5,000.00', '$999.00')],
    ];
    for (const [body, status, message] of cases) {
      const res = await call('POST', '/api/wallet/credits/use', bob, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error.message).toContain(message);
    }
    const virtualRes = await call('POST', '/api/wallet/credits/use', virtual, { amount: 600, idempotencyKey: key() });
    expect(virtualRes.json()).toEqual({ error: { code: 'insufficient_funds', message: 'Need 600.00 VT but only have 500.00 VT' } });
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/credits/use',
      headers: { authorization: `Bearer ${await tokenFor(bob)}`, 'content-type': 'application/json' },
      payload: '{"amount": 5,',
    });
    expect(malformed.statusCode).toBe(400);
    expect(await ledgerSnapshot(t.database.db)).toBe(snapshot);
  });

  it('a virtual account spends VTokens and its weekly allowance, never credits', async () => {
    const res = await call('POST', '/api/wallet/credits/use', virtual, { amount: 20, idempotencyKey: key() });
    expect(res.json()).toMatchObject({ currency: 'vtokens', available: 480 });
    expect(await balanceOf(virtual)).toMatchObject({
      virtual_credits_available: 480,
      weekly_virtual_credits_remaining: 480,
      available_credits: 0,
    });
  });

  it('repairs a role change before spending: a player made promoter spends their pcredits without reading the balance first', async () => {
    const erin = await createPlayer(t.database.db);
    await t.database.db.query(`UPDATE profiles SET role = 'promoter' WHERE id = $1`, [erin.id]);
    const promoted = { ...erin, role: 'promoter' as const };
    const res = await call('POST', '/api/wallet/credits/use', promoted, { amount: 5, idempotencyKey: key() });
    expect(res.statusCode, JSON.stringify(res.json())).toBe(200);
    expect(res.json()).toMatchObject({ currency: 'pcredits', available: 995 });
    expect(await balanceOf(promoted)).toMatchObject({ currency: 'pcredits', available_pcredits: 995, available_credits: 1000 });
  });

  it('refuses visitors', async () => {
    const res = await call('POST', '/api/wallet/credits/use', null, { amount: 1, idempotencyKey: key() });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/wallet/credits/add', () => {
  it('is "Feature Coming Soon" for players and promoters, a refused deposit for virtual accounts, allowed for admins', async () => {
    const snapshot = await ledgerSnapshot(t.database.db);
    const player = await call('POST', '/api/wallet/credits/add', alice, { amount: 50, idempotencyKey: key() });
    expect(player.statusCode).toBe(403);
    expect(player.json()).toEqual({ error: { code: 'feature_coming_soon', message: BALANCE.featureComingSoon } });
    expect((await call('POST', '/api/wallet/credits/add', promoter, { amount: 50, idempotencyKey: key() })).statusCode).toBe(403);
    const demo = await call('POST', '/api/wallet/credits/add', virtual, { amount: 50, idempotencyKey: key() });
    expect(demo.statusCode).toBe(403);
    expect(demo.json()).toEqual({ error: { code: 'virtual_restricted', message: LEDGER.virtualRestricted.deposit } });
    expect(await ledgerSnapshot(t.database.db)).toBe(snapshot);

    const res = await call('POST', '/api/wallet/credits/add', admin, { amount: 50, idempotencyKey: key() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ currency: 'pcredits', amount: 50, available: 1050, message: BALANCE.added('50.00') });
  });
});

describe('virtual restrictions (SPEC §5)', () => {
  it('refuse every restricted action to virtual accounts only', () => {
    for (const action of ['deposit', 'withdrawal', 'crypto', 'highStakes', 'tournament'] as const) {
      expect(() => refuseForVirtual('virtual', action)).toThrow(LEDGER.virtualRestricted[action]);
      expect(() => refuseForVirtual('real', action)).not.toThrow();
    }
  });
});

describe('admin endpoints', () => {
  it('refuse visitors (401) and players and promoters (403)', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/admin/ledger/audit', undefined],
      ['POST', '/api/admin/ledger/grant', { userId: alice.id, amount: 1, idempotencyKey: key() }],
    ] as const) {
      expect((await call(method, url, null, body)).statusCode).toBe(401);
      for (const who of [alice, promoter, virtual]) {
        const res = await call(method, url, who, body);
        expect(res.statusCode).toBe(403);
        expect(res.json().error.message).toBe(AUTH.forbidden);
      }
    }
    expect((await balanceOf(alice)).available_balance).toBe(986.5);
  });

  it('lets an admin grant to a user in that user’s currency only', async () => {
    const res = await call('POST', '/api/admin/ledger/grant', admin, {
      userId: bob.id,
      amount: 25.75,
      idempotencyKey: key(),
      description: 'Prize',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ currency: 'credits', amount: 25.75, available: 1024.75 });
    const vt = await call('POST', '/api/admin/ledger/grant', admin, {
      userId: bob.id,
      currency: 'vtokens',
      amount: 5,
      idempotencyKey: key(),
    });
    expect(vt.statusCode).toBe(403);
    expect(vt.json().error.message).toBe(LEDGER.vtokensVirtualOnly);
    const credits = await call('POST', '/api/admin/ledger/grant', admin, {
      userId: virtual.id,
      currency: 'credits',
      amount: 5,
      idempotencyKey: key(),
    });
    expect(credits.json().error.message).toBe(LEDGER.virtualOnlyVTokens('Credits'));
    const nobody = await call('POST', '/api/admin/ledger/grant', admin, { userId: crypto.randomUUID(), amount: 5, idempotencyKey: key() });
    expect(nobody.statusCode).toBe(404);
    const history = walletTransactionsSchema.parse((await call('GET', '/api/wallet/transactions?limit=1', bob)).json());
    expect(history.items[0]).toMatchObject({ reason: 'admin_grant', description: 'Prize', available: 25.75 });
  });

  it('a grant naming the user in capitals answers their real balance, tells them, and a retry in lower case moves nothing', async () => {
    const dave = await createPlayer(t.database.db);
    const body = { userId: dave.id.toUpperCase(), amount: 10, idempotencyKey: key() };
    const events = await recordHints(t.database.db, `user:${dave.id}`);
    const res = await call('POST', '/api/admin/ledger/grant', admin, body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ currency: 'credits', amount: 10, available: 1010, replayed: false });
    const snapshot = await ledgerSnapshot(t.database.db);
    const retry = await call('POST', '/api/admin/ledger/grant', admin, { ...body, userId: dave.id });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ available: 1010, replayed: true });
    expect(await ledgerSnapshot(t.database.db)).toBe(snapshot);
    expect((await balanceOf(dave)).available_balance).toBe(1010);
    expect((await events.heard()).map((h) => h.type)).toEqual(['balance']);
    await events.stop();
    // The credits_earned notice goes to the user's own topic.
    const [topic] = await t.database.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM realtime_events WHERE topic = $1 AND type = 'notification.created'`,
      [`user:${dave.id}`],
    );
    expect(topic!.n).toBe(1);
  });

  it('returns a clean audit to an admin', async () => {
    const res = await call('GET', '/api/admin/ledger/audit', admin);
    expect(res.statusCode).toBe(200);
    const audit = ledgerAuditSchema.parse(res.json());
    expect(audit.ok).toBe(true);
    expect(audit.currencies.find((c) => c.currency === 'credits')).toMatchObject({ total: 0 });
  });
});

describe('GET /api/wallet/transactions', () => {
  it('pages through the user’s own history, newest first, and shows nobody else’s', async () => {
    const carol = await createPlayer(t.database.db);
    for (const amount of [1, 2, 3]) await call('POST', '/api/wallet/credits/use', carol, { amount, idempotencyKey: key() });
    const first = walletTransactionsSchema.parse((await call('GET', '/api/wallet/transactions?limit=2', carol)).json());
    expect(first.items.map((i) => i.available)).toEqual([-3, -2]);
    const second = walletTransactionsSchema.parse(
      (await call('GET', `/api/wallet/transactions?limit=2&cursor=${first.nextCursor}`, carol)).json(),
    );
    expect(second.items.map((i) => [i.reason, i.available])).toEqual([
      ['spend', -1],
      ['starting', 1000],
    ]);
    expect(second.nextCursor).toBeNull();
    const bad = await call('GET', '/api/wallet/transactions?limit=500', carol);
    expect(bad.statusCode).toBe(400);
    expect((await call('GET', '/api/wallet/transactions', null)).statusCode).toBe(401);
  });
});
