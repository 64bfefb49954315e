// Escrow throughput on real PostgreSQL: 16 clients each play matches as fast as they can —
// lock player A's stake, lock player B's stake, settle both to the winner, each a transaction
// of its own as challenge creation, acceptance and the match result make them — next to
// pgbench's TPC-B-like run against the same server in the same invocation.
//
//   npx tsx bench/ledger/run.ts            (DATABASE_URL, or postgres://postgres@127.0.0.1:5432)
//   BENCH_ROUNDS=3 BENCH_SECONDS=20 BENCH_CLIENTS=16 BENCH_WARMUP=5 npx tsx bench/ledger/run.ts
//
// Figures, CPU first: PostgreSQL's and Node.js's CPU per match (a match is 2 locks + 1 settle
// that pays both stakes out; steadier than throughput on a shared machine); then lock-and-settle
// pairs/s — stakes locked in escrow and then settled, two per match — and their ratio to pgbench's tps
// (issue #3's goal: at least 0.5); also matches/s and ledger transactions/s (3 per match). The
// ledger runs three ways: as the API runs it (each new balance hinted to its player's socket
// after commit), the ledger core alone, and the ledger's functions driven by pgbench's own C
// client.
//
// In rounds: pgbench, then each ledger run, then pgbench again before the next round, so every
// ledger figure sits between two pgbench figures taken just before and just after it (the
// ratio uses their mean). On a shared two-core machine throughput drifts by ±20 % over a
// minute; one pgbench at each end of a long run is a poor yardstick for the runs in the middle.
// The order of the API and core runs alternates between rounds. Every round is printed; the
// summary is the median of each run's pairs/s and ratio over the rounds.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database, Queryable } from '../../apps/server/src/db/database.ts';
import * as repo from '../../apps/server/src/ledger/ledger.repository.ts';
import { grant, lockEscrow, settleEscrow, refusalError } from '../../apps/server/src/ledger/ledger.service.ts';
import { postgresCpuSec } from '../lib/cpu.ts';
import { ADMIN_URL, admin, urlFor } from '../lib/postgres.ts';
import { benchRounds, median } from '../lib/rounds.ts';
import { freshDatabase, insertPlayers } from '../lib/setup.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const ROUNDS = benchRounds();
/** Seconds of uncounted play first: a new database's tables and indexes grow from empty (pgbench's come filled). */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const PLAYERS = 1024;
const STAKE = 1_000;
const DB_NAME = 'versus_bench_ledger';
const here = path.dirname(fileURLToPath(import.meta.url));
const pgbenchScript = path.resolve(here, '../../../shared/peers/pgbench/run.sh');

async function setUp(): Promise<{ db: Database; players: string[] }> {
  const db = await freshDatabase(DB_NAME, CLIENTS);
  const players = Array.from({ length: PLAYERS }, () => crypto.randomUUID());
  await insertPlayers(db, players, 'bench');
  for (const id of players) {
    await db.transaction((tx) => grant(tx, { userId: id, currency: 'credits', amount: 1_000_000_000, idempotencyKey: `bench-fund:${id}` }));
  }
  // Numbered players, for the pgbench-driven run of the same operations.
  await db.query('CREATE TABLE bench_players AS SELECT n::int, id FROM unnest($1::uuid[]) WITH ORDINALITY AS t (id, n)', [players]);
  await db.query('CREATE UNIQUE INDEX ON bench_players (n)');
  await db.query('VACUUM ANALYZE');
  return { db, players };
}

type Mode = 'api' | 'core';

interface Operations {
  lock(tx: Queryable, userId: string, matchId: string): Promise<unknown>;
  settle(tx: Queryable, matchId: string, winnerId: string): Promise<unknown>;
}

/** The ledger as the API runs it (balances hinted), or the bare SQL operations. */
const operations: Record<Mode, Operations> = {
  api: {
    lock: (tx: Queryable, userId: string, matchId: string) =>
      lockEscrow(tx, { userId, amount: STAKE, owner: { matchId }, idempotencyKey: `lock:${matchId}:${userId}` }),
    settle: (tx: Queryable, matchId: string, winnerId: string) =>
      settleEscrow(tx, { owner: { matchId }, winnerId, idempotencyKey: `settle:${matchId}` }),
  },
  core: {
    lock: async (tx: Queryable, userId: string, matchId: string) => {
      const result = await repo.lockEscrow(tx, `lock:${matchId}:${userId}`, userId, null, STAKE, { matchId }, null);
      if (!result.ok) throw refusalError(result);
    },
    settle: async (tx: Queryable, matchId: string, winnerId: string) => {
      const result = await repo.closeHolds(tx, 'settle', `settle:${matchId}`, { matchId }, null, winnerId, null);
      if (!result.ok) throw refusalError(result);
    },
  },
};

interface LedgerRun {
  matches: number;
  seconds: number;
  latencyMs: number;
  /** CPU seconds spent by the bench database's PostgreSQL backends and by this process. */
  postgresCpuSec: number;
  clientCpuSec: number;
}

async function runLedger(db: Database, players: string[], mode: Mode, forSeconds = SECONDS): Promise<LedgerRun> {
  const ops = operations[mode];
  let matches = 0;
  let totalMs = 0;
  const deadline = performance.now() + forSeconds * 1000;
  async function client() {
    while (performance.now() < deadline) {
      const a = players[Math.floor(Math.random() * players.length)]!;
      let b = a;
      while (b === a) b = players[Math.floor(Math.random() * players.length)]!;
      const matchId = crypto.randomUUID();
      const started = performance.now();
      await db.transaction((tx) => ops.lock(tx, a, matchId));
      await db.transaction((tx) => ops.lock(tx, b, matchId));
      await db.transaction((tx) => ops.settle(tx, matchId, Math.random() < 0.5 ? a : b));
      totalMs += performance.now() - started;
      matches += 1;
    }
  }
  const started = performance.now();
  const pg0 = postgresCpuSec(DB_NAME);
  const own0 = process.cpuUsage();
  await Promise.all(Array.from({ length: CLIENTS }, () => client()));
  const seconds = (performance.now() - started) / 1000;
  const own = process.cpuUsage(own0);
  return {
    matches,
    seconds,
    latencyMs: totalMs / Math.max(1, matches),
    postgresCpuSec: postgresCpuSec(DB_NAME) - pg0,
    clientCpuSec: (own.user + own.system) / 1e6,
  };
}

/**
 * The same matches (lock A, lock B, settle; three transactions) driven by pgbench's own C
 * client against the bench database: what PostgreSQL alone spends on our ledger, without the
 * Node.js client's share of the machine's two cores.
 */
function runLedgerFromPgbench(): number {
  const script = path.join(os.tmpdir(), `versus-ledger-${process.pid}.sql`);
  const owner = `md5(:client_id || ':' || :m)::uuid`;
  const player = (n: string) => `(SELECT id FROM bench_players WHERE n = ${n})`;
  fs.writeFileSync(
    script,
    [
      `\\set a random(1, ${PLAYERS})`,
      `\\set b random(1, ${PLAYERS - 1})`,
      '\\set m random(1, 900000000000000)',
      'BEGIN;',
      `SELECT ledger_lock_escrow('pl:' || :client_id || ':' || :m || ':a', ${player(':a')}, NULL, ${STAKE}, NULL, ${owner}, NULL, NULL, NULL);`,
      'COMMIT;',
      'BEGIN;',
      `SELECT ledger_lock_escrow('pl:' || :client_id || ':' || :m || ':b', ${player(`(:a + :b - 1) % ${PLAYERS} + 1`)}, NULL, ${STAKE}, NULL, ${owner}, NULL, NULL, NULL);`,
      'COMMIT;',
      'BEGIN;',
      `SELECT ledger_close_holds('settle', 'ps:' || :client_id || ':' || :m, NULL, ${owner}, NULL, NULL, NULL, ${player(':a')}, NULL);`,
      'COMMIT;',
      '',
    ].join('\n'),
  );
  try {
    const url = new URL(urlFor(DB_NAME));
    const out = execFileSync(
      'pgbench',
      [
        '-n',
        '-f',
        script,
        '-c',
        String(CLIENTS),
        '-j',
        '2',
        '-T',
        String(SECONDS),
        '-h',
        url.hostname,
        '-p',
        url.port || '5432',
        '-U',
        url.username || 'postgres',
        DB_NAME,
      ],
      { encoding: 'utf8' },
    );
    const tps = /^tps = ([0-9.]+)/m.exec(out);
    if (!tps) throw new Error(`pgbench printed no tps:\n${out}`);
    return Number(tps[1]);
  } finally {
    fs.rmSync(script, { force: true });
  }
}

function runPgbench(): { tps: number; latencyAvgMs: number } {
  const out = execFileSync('bash', [pgbenchScript, String(CLIENTS), String(SECONDS)], {
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: ADMIN_URL },
  });
  const line = out.trim().split('\n').at(-1)!;
  return JSON.parse(line) as { tps: number; latencyAvgMs: number };
}

async function audit(db: Database): Promise<void> {
  const [row] = await db.query<{ total: number; negative: number; held: number }>(
    `SELECT (SELECT coalesce(sum(balance), 0) FROM ledger_accounts) AS total,
            (SELECT count(*) FROM ledger_accounts WHERE kind <> 'house' AND balance < 0) AS negative,
            (SELECT count(*) FROM escrow_holds WHERE status = 'held') AS held`,
  );
  if (!row || row.total !== 0 || row.negative !== 0 || row.held !== 0)
    throw new Error(`ledger invariants broken after the run: ${JSON.stringify(row)}`);
}

interface Figures {
  pairsPerSecond: number;
  ratioPairsToTps: number;
  matchesPerSecond: number;
  ledgerTransactionsPerSecond: number;
  ratioTransactionsToTps: number;
}

function figures(matchesPerSecond: number, tps: number): Figures {
  return {
    pairsPerSecond: Math.round(matchesPerSecond * 2),
    ratioPairsToTps: Number(((matchesPerSecond * 2) / tps).toFixed(2)),
    matchesPerSecond: Math.round(matchesPerSecond),
    ledgerTransactionsPerSecond: Math.round(matchesPerSecond * 3),
    ratioTransactionsToTps: Number(((matchesPerSecond * 3) / tps).toFixed(2)),
  };
}

interface CpuPerMatch {
  cpuMsPerMatch: { postgres: number; client: number };
}

interface Round {
  pgbenchTps: { before: number; after: number; mean: number };
  asTheApiRunsIt: CpuPerMatch & Figures & { matchLatencyMs: number };
  ledgerCore: CpuPerMatch & Figures & { matchLatencyMs: number };
  ledgerFromPgbench: Figures;
}

function ledgerFigures(r: LedgerRun, tps: number): Round['asTheApiRunsIt'] {
  return {
    // Steadier than throughput on a shared machine: what one match cost each side. First.
    cpuMsPerMatch: {
      postgres: Number(((1000 * r.postgresCpuSec) / r.matches).toFixed(2)),
      client: Number(((1000 * r.clientCpuSec) / r.matches).toFixed(2)),
    },
    ...figures(r.matches / r.seconds, tps),
    matchLatencyMs: Number(r.latencyMs.toFixed(1)),
  };
}

const { db, players } = await setUp();
try {
  if (WARMUP > 0) {
    console.error(`warm-up (not counted): ${CLIENTS} clients, ${WARMUP} s ...`);
    await runLedger(db, players, 'api', WARMUP);
  }
  const rounds: Round[] = [];
  console.error(`pgbench: ${CLIENTS} clients, ${SECONDS} s ...`);
  let before = runPgbench();
  for (let n = 1; n <= ROUNDS; n++) {
    const runs = {} as Record<Mode, LedgerRun>;
    for (const mode of n % 2 ? (['api', 'core'] as const) : (['core', 'api'] as const)) {
      // Each run from the same footing, as pgbench vacuums before its runs: the dead rows an
      // earlier run left are not the next one's cost.
      await db.query('VACUUM ANALYZE');
      await db.query('CHECKPOINT');
      console.error(`round ${n}: ledger (${mode}), ${CLIENTS} clients, ${SECONDS} s ...`);
      runs[mode] = await runLedger(db, players, mode);
    }
    console.error(`round ${n}: ledger driven by pgbench's client, ${CLIENTS} clients, ${SECONDS} s ...`);
    const fromPgbench = runLedgerFromPgbench();
    // pgbench stops at its deadline between transactions: a match cut after its locks gives its stakes back.
    await db.query(
      `SELECT ledger_close_holds('release', 'bench-cleanup:' || match_id, NULL, match_id, NULL, NULL, NULL, NULL, NULL)
         FROM (SELECT DISTINCT match_id FROM escrow_holds WHERE status = 'held') cut`,
    );
    console.error(`pgbench: ${CLIENTS} clients, ${SECONDS} s ...`);
    const after = runPgbench();
    const tps = (before.tps + after.tps) / 2;
    rounds.push({
      pgbenchTps: { before: Math.round(before.tps), after: Math.round(after.tps), mean: Math.round(tps) },
      asTheApiRunsIt: ledgerFigures(runs.api, tps),
      ledgerCore: ledgerFigures(runs.core, tps),
      ledgerFromPgbench: figures(fromPgbench, tps),
    });
    before = after;
  }
  await audit(db);

  const names = {
    asTheApiRunsIt: 'ledger, as the API runs it (balances hinted after commit)',
    ledgerCore: 'ledger core (no hints)',
    ledgerFromPgbench: "ledger functions driven by pgbench's C client",
  } as const;
  const medianCpu = (name: keyof typeof names) => {
    if (name === 'ledgerFromPgbench') return null;
    const of = (part: 'postgres' | 'client') => Number(median(rounds.map((r) => r[name].cpuMsPerMatch[part])).toFixed(2));
    return { postgres: of('postgres'), client: of('client') };
  };
  const summary = Object.fromEntries(
    (Object.keys(names) as (keyof typeof names)[]).map((name) => [
      name,
      {
        // pgbench's own client is not measured: PostgreSQL's share is its whole run.
        medianCpuMsPerMatch: medianCpu(name),
        medianPairsPerSecond: Math.round(median(rounds.map((r) => r[name].pairsPerSecond))),
        medianRatioPairsToTps: Number(median(rounds.map((r) => r[name].ratioPairsToTps)).toFixed(2)),
        ratiosPerRound: rounds.map((r) => r[name].ratioPairsToTps),
      },
    ]),
  ) as Record<
    keyof typeof names,
    {
      medianCpuMsPerMatch: { postgres: number; client: number } | null;
      medianPairsPerSecond: number;
      medianRatioPairsToTps: number;
      ratiosPerRound: number[];
    }
  >;
  const report = { bench: 'ledger-escrow', clients: CLIENTS, secondsPerRun: SECONDS, rounds, summary };
  const lines = rounds.flatMap((r, i) => [
    `round ${i + 1}: pgbench TPC-B-like ${r.pgbenchTps.mean} tps (before ${r.pgbenchTps.before}, after ${r.pgbenchTps.after})`,
    ...(['asTheApiRunsIt', 'ledgerCore'] as const).map((name) => {
      const f = r[name];
      return (
        `  ${names[name]}: CPU per match: PostgreSQL ${f.cpuMsPerMatch.postgres} ms, Node.js ${f.cpuMsPerMatch.client} ms; ` +
        `${f.pairsPerSecond} lock-and-settle pairs/s, ratio ${f.ratioPairsToTps}; ${f.matchesPerSecond} matches/s = ` +
        `${f.ledgerTransactionsPerSecond} ledger transactions/s (ratio ${f.ratioTransactionsToTps})`
      );
    }),
    `  ${names.ledgerFromPgbench} (PostgreSQL's share only): ${r.ledgerFromPgbench.pairsPerSecond} pairs/s, ratio ${r.ledgerFromPgbench.ratioPairsToTps}; ` +
      `${r.ledgerFromPgbench.ledgerTransactionsPerSecond} ledger transactions/s (ratio ${r.ledgerFromPgbench.ratioTransactionsToTps})`,
  ]);
  console.log(
    [
      ...lines,
      `median over ${ROUNDS} rounds (goal: ratio at least 0.5):`,
      ...(Object.keys(names) as (keyof typeof names)[]).map((name) => {
        const cpu = summary[name].medianCpuMsPerMatch;
        const cpuText = cpu ? `CPU per match: PostgreSQL ${cpu.postgres} ms, Node.js ${cpu.client} ms; ` : '';
        return `  ${names[name]}: ${cpuText}${summary[name].medianPairsPerSecond} pairs/s, ratio ${summary[name].medianRatioPairsToTps} (rounds: ${summary[name].ratiosPerRound.join(', ')})`;
      }),
      JSON.stringify(report),
    ].join('\n'),
  );
} finally {
  await db.close();
  await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
}
