// Races for real: workers fire random money requests (replays too) at a few hot players and matches; afterwards the audit finds
// nothing, refusals left no trace, every key moved money at most once, and circulation changed by exactly grants minus spends.
import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Currency } from '@versus/domain';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { auditLedger, type AuditOptions } from './ledger.audit.ts';
import { createOwner, createOwnerTables, createPlayer, type TestPlayer } from './ledger.fixtures.ts';
import { LedgerError, ledgerOf, type Ledger, type OperationDone } from './ledger.service.ts';

const PLAYERS = 60;
const HOT_PLAYERS = 8;
const MATCHES = 40;
const HOT_MATCHES = 8;
const WORKERS = 16;
const OPS_PER_WORKER = 250;

let t: TestDatabase;
let ledger: Ledger;
let owners: AuditOptions;

beforeAll(async () => {
  t = await createTestDatabase({ max: 20 });
  ledger = ledgerOf(t.db);
  owners = await createOwnerTables(t.db);
});
afterAll(() => t.drop());

type Kind = 'grant' | 'spend' | 'lock' | 'release' | 'settle' | 'draw';
interface Request {
  kind: Kind;
  key: string;
  run: () => Promise<OperationDone>;
  /** Money entering (+) or leaving (−) circulation if it succeeds, per currency. */
  circulation?: { currency: Currency; amount: number };
}
interface Attempt {
  request: Request;
  outcome: OperationDone | string;
}

/** A small deterministic generator, so a failure can be rerun with the same seed. */
function random(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[], hot: number): T => items[next() < 0.7 ? Math.floor(next() * hot) : Math.floor(next() * items.length)]!,
  };
}

it('keeps every invariant under 16 concurrent workers', async () => {
  const seed = Number(process.env.LEDGER_SEED ?? Date.now() % 1_000_000);
  const players: TestPlayer[] = [];
  for (let i = 0; i < PLAYERS; i++) {
    const kind = i % 15;
    players.push(await createPlayer(t.db, kind === 3 ? { role: 'promoter' } : kind === 7 ? { accountType: 'virtual' } : {}));
  }
  const matches = await Promise.all(Array.from({ length: MATCHES }, () => createOwner(t.db, 'matches')));
  const currencyOf = (p: TestPlayer): Currency => (p.accountType === 'virtual' ? 'vtokens' : p.role === 'user' ? 'credits' : 'pcredits');

  const circulationBefore = await circulation();
  const operationsBefore = await operationKeys();
  const attempts: Attempt[] = [];
  const issued: Request[] = [];
  const unexpected: unknown[] = [];

  function newRequest(rng: ReturnType<typeof random>): Request {
    const roll = rng.next();
    const key = crypto.randomUUID();
    const p = rng.pick(players, HOT_PLAYERS);
    const owner = { matchId: rng.pick(matches, HOT_MATCHES) };
    if (roll < 0.1) {
      const amount = rng.int(1, 20_000);
      return {
        kind: 'grant',
        key,
        circulation: { currency: currencyOf(p), amount },
        run: () => ledger.grant({ userId: p.id, currency: currencyOf(p), amount, idempotencyKey: key }),
      };
    }
    if (roll < 0.25) {
      const amount = rng.int(1, 40_000);
      return {
        kind: 'spend',
        key,
        circulation: { currency: currencyOf(p), amount: -amount },
        run: () => ledger.spend({ userId: p.id, amount, idempotencyKey: key }),
      };
    }
    if (roll < 0.65) {
      const amount = rng.int(100, 30_000);
      return { kind: 'lock', key, run: () => ledger.lockEscrow({ userId: p.id, amount, owner, idempotencyKey: key }) };
    }
    if (roll < 0.73) {
      const only = rng.next() < 0.5 ? p.id : undefined;
      return { kind: 'release', key, run: () => ledger.releaseEscrow({ owner, userId: only, idempotencyKey: key }) };
    }
    if (roll < 0.93) return { kind: 'settle', key, run: () => ledger.settleEscrow({ owner, winnerId: p.id, idempotencyKey: key }) };
    return { kind: 'draw', key, run: () => ledger.settleDraw({ owner, idempotencyKey: key }) };
  }

  async function worker(id: number) {
    const rng = random(seed * 31 + id);
    for (let i = 0; i < OPS_PER_WORKER; i++) {
      // Replays of any worker's request, possibly still in flight there.
      const request = rng.next() < 0.08 && issued.length > 0 ? issued[rng.int(0, issued.length - 1)]! : newRequest(rng);
      issued.push(request);
      try {
        attempts.push({ request, outcome: await request.run() });
      } catch (error) {
        if (error instanceof LedgerError) attempts.push({ request, outcome: error.refusal.error });
        else unexpected.push(error);
      }
    }
  }

  const started = performance.now();
  await Promise.all(Array.from({ length: WORKERS }, (_, i) => worker(i)));
  const seconds = (performance.now() - started) / 1000;

  expect(unexpected, `seed ${seed}`).toEqual([]);
  expect(attempts).toHaveLength(WORKERS * OPS_PER_WORKER);
  const refusals = attempts.filter((a): a is Attempt & { outcome: string } => typeof a.outcome === 'string');
  const successes = attempts.filter((a): a is Attempt & { outcome: OperationDone } => typeof a.outcome !== 'string');
  // The mix must really exercise both paths and every kind of operation.
  expect(refusals.length).toBeGreaterThan(200);
  for (const kind of ['grant', 'spend', 'lock', 'release', 'settle', 'draw'] as const) {
    expect(
      successes.some((a) => a.request.kind === kind),
      `some ${kind} succeeded (seed ${seed})`,
    ).toBe(true);
  }
  const refusalKinds = new Set(refusals.map((a) => a.outcome));
  expect(refusalKinds.has('insufficient') && refusalKinds.size >= 4, [...refusalKinds].join()).toBe(true);

  // 1. The audit finds nothing.
  const audit = await auditLedger(t.db, owners);
  expect(audit.problems, `seed ${seed}`).toEqual([]);

  // 2. Each key moved money at most once: one first result, every other success a replay of it.
  const byKey = new Map<string, OperationDone[]>();
  for (const a of successes) byKey.set(a.request.key, [...(byKey.get(a.request.key) ?? []), a.outcome]);
  for (const [key, results] of byKey) {
    expect(
      results.filter((r) => !r.replayed),
      key,
    ).toHaveLength(1);
    expect(new Set(results.map((r) => r.operationId)).size, key).toBe(1);
  }
  const replays = successes.filter((a) => a.outcome.replayed).length;
  expect(replays).toBeGreaterThan(0);

  // 3. Refused requests left no trace: the operations recorded are exactly the successful keys.
  const recorded = new Set([...(await operationKeys())].filter((k) => !operationsBefore.has(k)));
  expect(recorded.size).toBe(byKey.size);
  for (const key of byKey.keys()) expect(recorded.has(key)).toBe(true);
  const neverDone = refusals.filter((a) => !byKey.has(a.request.key));
  for (const a of neverDone) expect(recorded.has(a.request.key)).toBe(false);

  // 4. Each operation's transfers add up to what it reported.
  const moved = await t.db.query<{ key: string; total: number }>(
    `SELECT o.idempotency_key AS key, sum(t.amount)::bigint AS total
       FROM ledger_operations o JOIN ledger_transfers t ON t.operation_id = o.id
      WHERE o.idempotency_key = ANY ($1) GROUP BY o.idempotency_key`,
    [[...byKey.keys()]],
  );
  expect(moved).toHaveLength(byKey.size);
  for (const row of moved) expect(row.total, row.key).toBe(byKey.get(row.key)![0]!.amount);

  // 5. Money in circulation changed by exactly the successful grants minus spends.
  const expected = { ...circulationBefore };
  for (const [key, results] of byKey) {
    const request = successes.find((a) => a.request.key === key)!.request;
    if (request.circulation) expected[request.circulation.currency] += request.circulation.amount;
    expect(results[0]!.ok).toBe(true);
  }
  expect(await circulation()).toEqual(expected);

  console.info(
    `ledger concurrency (seed ${seed}): ${attempts.length} requests in ${seconds.toFixed(1)} s ` +
      `(${Math.round(attempts.length / seconds)}/s), ${byKey.size} moved money, ${replays} replays, ${refusals.length} refusals ` +
      `(${[...refusalKinds].join(', ')})`,
  );
}, 60_000);

async function circulation(): Promise<Record<Currency, number>> {
  const rows = await t.db.query<{ currency: Currency; total: number }>(
    `SELECT currency, sum(balance)::bigint AS total FROM ledger_accounts WHERE kind <> 'house' GROUP BY currency`,
  );
  const totals: Record<Currency, number> = { credits: 0, pcredits: 0, vtokens: 0 };
  for (const row of rows) totals[row.currency] = row.total;
  return totals;
}

async function operationKeys(): Promise<Set<string>> {
  const rows = await t.db.query<{ idempotency_key: string }>('SELECT idempotency_key FROM ledger_operations');
  return new Set(rows.map((r) => r.idempotency_key));
}
