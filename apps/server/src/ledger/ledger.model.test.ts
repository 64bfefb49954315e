// Property-based test against a model: random sequences of money requests on real PostgreSQL; after every step balances and
// refusals are the model's, and after every sequence the audit finds nothing.
import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CURRENCIES, type AccountType, type Currency, type Role } from '@versus/domain';
import { currencyFor, startingBalance } from '@versus/domain/money';
import { createTestDatabase, type TestDatabase } from '../test/database.ts';
import { auditLedger, type AuditOptions } from './ledger.audit.ts';
import { createOwner, createOwnerTables, createPlayer } from './ledger.fixtures.ts';
import type { RefusalCode } from './ledger.repository.ts';
import { LedgerError, ledgerOf, type Ledger, type OperationDone } from './ledger.service.ts';

let t: TestDatabase;
let ledger: Ledger;
let owners: AuditOptions;

beforeAll(async () => {
  t = await createTestDatabase();
  ledger = ledgerOf(t.db);
  owners = await createOwnerTables(t.db);
});
afterAll(() => t.drop());

type Op =
  | { kind: 'grant'; user: number; currency: Currency; amount: number }
  | { kind: 'spend'; user: number; currency: Currency | undefined; amount: number }
  | { kind: 'lock'; user: number; owner: number; currency: Currency | undefined; amount: number }
  | { kind: 'release'; owner: number; user: number | undefined }
  | { kind: 'settle'; owner: number; winner: number }
  | { kind: 'draw'; owner: number }
  | { kind: 'replay'; of: number }
  | { kind: 'reuse'; of: number };

const USERS = 3;
const OWNERS = 2;
const user = fc.integer({ min: 0, max: USERS - 1 });
const ownerSlot = fc.integer({ min: 0, max: OWNERS - 1 });
const currency = fc.constantFrom(...CURRENCIES);
const maybeCurrency = fc.option(currency, { nil: undefined, freq: 4 });
const amount = fc.integer({ min: 1, max: 60_000 });
const index = fc.nat({ max: 40 });

const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('grant' as const), user, currency, amount }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('spend' as const),
      user,
      currency: maybeCurrency,
      amount: fc.integer({ min: 1, max: 150_000 }),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('lock' as const), user, owner: ownerSlot, currency: maybeCurrency, amount }), weight: 5 },
  {
    arbitrary: fc.record({ kind: fc.constant('release' as const), owner: ownerSlot, user: fc.option(user, { nil: undefined }) }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('settle' as const), owner: ownerSlot, winner: user }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('draw' as const), owner: ownerSlot }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('replay' as const), of: index }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('reuse' as const), of: index }), weight: 1 },
);

const player = fc.record({
  role: fc.constantFrom<Role>('user', 'user', 'promoter', 'admin'),
  accountType: fc.constantFrom<AccountType>('real', 'real', 'virtual'),
});

/** The ledger as it should be, for the users of one sequence. */
class Model {
  balances: Record<Currency, { available: number; escrow: number }>[] = [];
  holds: Map<number, { amount: number; currency: Currency }>[] = Array.from({ length: OWNERS }, () => new Map());
  done = new Map<string, { request: string; result: OperationDone }>();

  constructor(readonly players: { role: Role; accountType: AccountType }[]) {
    for (const p of players) {
      const zero = () => ({ available: 0, escrow: 0 });
      const b = { credits: zero(), pcredits: zero(), vtokens: zero() };
      b[currencyFor(p.role, p.accountType)].available = startingBalance(currencyFor(p.role, p.accountType));
      this.balances.push(b);
    }
  }

  /** The refusal the ledger must answer with, or null when the operation goes through (and is applied here). */
  apply(step: Exclude<Op, { kind: 'replay' | 'reuse' }>): RefusalCode | null {
    switch (step.kind) {
      case 'grant':
        this.balances[step.user]![step.currency].available += step.amount;
        return null;
      case 'spend':
      case 'lock': {
        const p = this.players[step.user]!;
        const own = currencyFor(p.role, p.accountType);
        const c = step.currency ?? own;
        if (c !== own) return 'currency_not_allowed';
        const b = this.balances[step.user]![c];
        if (b.available < step.amount) return 'insufficient';
        if (step.kind === 'lock') {
          if (this.holds[step.owner]!.has(step.user)) return 'already_held';
          this.holds[step.owner]!.set(step.user, { amount: step.amount, currency: c });
          b.escrow += step.amount;
        }
        b.available -= step.amount;
        return null;
      }
      case 'release':
      case 'draw':
      case 'settle': {
        const holds = this.holds[step.owner]!;
        const closing = [...holds.entries()].filter(([u]) => step.kind !== 'release' || step.user === undefined || u === step.user);
        if (closing.length === 0) return 'nothing_held';
        if (new Set(closing.map(([, h]) => h.currency)).size > 1) return 'mixed_currencies';
        if (step.kind === 'settle') {
          if (!holds.has(step.winner)) return 'winner_without_stake';
          if (closing.length < 2) return 'stakes_missing';
        }
        for (const [u, h] of closing) {
          this.balances[u]![h.currency].escrow -= h.amount;
          const to = step.kind === 'settle' ? step.winner : u;
          this.balances[to]![h.currency].available += h.amount;
          holds.delete(u);
        }
        return null;
      }
    }
  }
}

it('matches the model on random sequences, refusing exactly what it should, and the audit stays clean', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(player, { minLength: USERS, maxLength: USERS }),
      fc.array(op, { minLength: 1, maxLength: 30 }),
      async (players, ops) => {
        const users = await Promise.all(players.map((p) => createPlayer(t.db, p)));
        const ownerIds = await Promise.all(Array.from({ length: OWNERS }, () => createOwner(t.db, 'matches')));
        const model = new Model(players);
        // Each executed step, with its key, so replays and reuses can point back at it.
        const executed: { step: Exclude<Op, { kind: 'replay' | 'reuse' }>; key: string }[] = [];

        const call = (step: Exclude<Op, { kind: 'replay' | 'reuse' }>, key: string): Promise<OperationDone> => {
          switch (step.kind) {
            case 'grant':
              return ledger.grant({ userId: users[step.user]!.id, currency: step.currency, amount: step.amount, idempotencyKey: key });
            case 'spend':
              return ledger.spend({ userId: users[step.user]!.id, currency: step.currency, amount: step.amount, idempotencyKey: key });
            case 'lock':
              return ledger.lockEscrow({
                userId: users[step.user]!.id,
                currency: step.currency,
                amount: step.amount,
                owner: { matchId: ownerIds[step.owner]! },
                idempotencyKey: key,
              });
            case 'release':
              return ledger.releaseEscrow({
                owner: { matchId: ownerIds[step.owner]! },
                userId: step.user === undefined ? undefined : users[step.user]!.id,
                idempotencyKey: key,
              });
            case 'settle':
              return ledger.settleEscrow({
                owner: { matchId: ownerIds[step.owner]! },
                winnerId: users[step.winner]!.id,
                idempotencyKey: key,
              });
            case 'draw':
              return ledger.settleDraw({ owner: { matchId: ownerIds[step.owner]! }, idempotencyKey: key });
          }
        };

        for (const next of ops) {
          let step: Exclude<Op, { kind: 'replay' | 'reuse' }>;
          let key: string;
          let expected: RefusalCode | null | 'replay';
          if (next.kind === 'replay' || next.kind === 'reuse') {
            const earlier = executed[next.of % Math.max(1, executed.length)];
            if (!earlier) continue;
            key = earlier.key;
            step = next.kind === 'replay' ? earlier.step : changed(earlier.step);
            const recorded = model.done.get(key);
            if (recorded) expected = recorded.request === JSON.stringify(step) ? 'replay' : 'key_reused';
            else expected = model.apply(step);
          } else {
            step = next;
            key = crypto.randomUUID();
            expected = model.apply(step);
          }
          executed.push({ step, key });

          const outcome = await call(step, key).then(
            (result) => result,
            (error: unknown) => {
              if (error instanceof LedgerError) return error.refusal.error;
              throw error;
            },
          );
          if (expected === 'replay') {
            expect(outcome).toEqual({ ...model.done.get(key)!.result, replayed: true });
          } else if (expected === null) {
            expect(outcome).toMatchObject({ ok: true, replayed: false });
            model.done.set(key, { request: JSON.stringify(step), result: outcome as OperationDone });
          } else {
            expect(outcome).toBe(expected);
          }

          const rows = await t.db.query<{ user_id: string; currency: Currency; kind: 'available' | 'escrow'; balance: number }>(
            'SELECT user_id, currency, kind, balance FROM ledger_accounts WHERE user_id = ANY ($1)',
            [users.map((u) => u.id)],
          );
          users.forEach((u, i) => {
            for (const c of CURRENCIES) {
              for (const kind of ['available', 'escrow'] as const) {
                const actual = rows.find((r) => r.user_id === u.id && r.currency === c && r.kind === kind)?.balance ?? 0;
                expect(actual, `${kind} ${c} of user ${i} after ${JSON.stringify(step)}`).toBe(model.balances[i]![c][kind]);
              }
            }
          });
        }
        const audit = await auditLedger(t.db, owners);
        expect(audit.problems).toEqual([]);
      },
    ),
    { numRuns: 25 },
  );
}, 60_000);

/** The same kind of request with different content, for reusing a key. */
function changed(step: Exclude<Op, { kind: 'replay' | 'reuse' }>): Exclude<Op, { kind: 'replay' | 'reuse' }> {
  switch (step.kind) {
    case 'grant':
    case 'spend':
    case 'lock':
      return { ...step, amount: step.amount + 1 };
    case 'release':
      return { ...step, user: step.user === undefined ? 0 : undefined };
    case 'settle':
      return { ...step, winner: (step.winner + 1) % USERS };
    case 'draw':
      return { kind: 'release', owner: step.owner, user: undefined };
  }
}
