// What DATABASE_POOL_MODE=transaction costs: the ledger's matches (lock A's stake, lock B's,
// settle; three transactions, as the API runs them) three ways in the same run —
//   named:    straight to PostgreSQL, statements named (the default)
//   unnamed:  straight to PostgreSQL, statements unnamed (what transaction mode does)
//   bouncer:  unnamed, through a transaction-mode PgBouncer of the bench's own
//
//   npx tsx bench/pgbouncer/run.ts     (DATABASE_URL, or postgres://postgres@127.0.0.1:5432)
//   BENCH_ROUNDS=3 BENCH_SECONDS=10 BENCH_CLIENTS=16 npx tsx bench/pgbouncer/run.ts
//
// Needs /usr/sbin/pgbouncer. The three alternate in rotating order within each round, so each
// sees the same load from whatever else runs on the machine; compare them only within a run.
// Figures, CPU first: CPU per match of PostgreSQL's backends, this process and PgBouncer
// (steadier than throughput on a shared machine), then matches/s. Each round is printed, then
// the medians.
import crypto from 'node:crypto';
import type { Database } from '../../apps/server/src/db/database.ts';
import { openPostgres } from '../../apps/server/src/db/database.ts';
import { grant, lockEscrow, settleEscrow } from '../../apps/server/src/ledger/ledger.service.ts';
import { startPgbouncer } from '../../apps/server/src/test/pgbouncer.ts';
import { postgresBackendsCpuSec, postgresCpuSecSince, procStat } from '../lib/cpu.ts';
import { ADMIN_URL, urlFor } from '../lib/postgres.ts';
import { benchRounds, median } from '../lib/rounds.ts';
import { freshDatabase, inParallel, insertPlayers } from '../lib/setup.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = benchRounds();
const PLAYERS = 256;
const STAKE = 1_000;
const DB_NAME = 'versus_bench_pgbouncer';

type Way = 'named' | 'unnamed' | 'bouncer';
const WAYS: Way[] = ['named', 'unnamed', 'bouncer'];

interface Run {
  cpuMsPerMatch: { postgres: number; client: number; pgbouncer: number };
  matchesPerSecond: number;
}

const named = await freshDatabase(DB_NAME, CLIENTS);
const players = Array.from({ length: PLAYERS }, () => crypto.randomUUID());
await insertPlayers(named, players, 'bench');
await inParallel(players, 8, (userId) =>
  named
    .transaction((tx) => grant(tx, { userId, currency: 'credits', amount: 1_000_000_000, idempotencyKey: `bench-fund:${userId}` }))
    .then(() => undefined),
);
await named.query('VACUUM ANALYZE');
// As many server connections as clients: the proxy's own cost, not a smaller pool's queueing.
const bouncer = await startPgbouncer({ poolSize: CLIENTS, target: ADMIN_URL });
const dbs: Record<Way, Database> = {
  named,
  unnamed: openPostgres(urlFor(DB_NAME), { max: CLIENTS, poolMode: 'transaction' }),
  bouncer: openPostgres(bouncer.url(urlFor(DB_NAME)), { max: CLIENTS, poolMode: 'transaction', listenUrl: urlFor(DB_NAME) }),
};

async function run(db: Database, forSeconds: number): Promise<Run> {
  let matches = 0;
  const deadline = performance.now() + forSeconds * 1000;
  const pick = () => players[Math.floor(Math.random() * players.length)]!;
  const pg0 = postgresBackendsCpuSec(DB_NAME);
  const own0 = process.cpuUsage();
  const bouncer0 = procStat(bouncer.pid).cpuSec;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < deadline) {
        const a = pick();
        let b = pick();
        while (b === a) b = pick();
        const matchId = crypto.randomUUID();
        for (const userId of [a, b]) {
          await db.transaction((tx) =>
            lockEscrow(tx, { userId, amount: STAKE, owner: { matchId }, idempotencyKey: `lock:${matchId}:${userId}` }),
          );
        }
        await db.transaction((tx) => settleEscrow(tx, { owner: { matchId }, winnerId: a, idempotencyKey: `settle:${matchId}` }));
        matches += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const own = process.cpuUsage(own0);
  const perMatch = (sec: number) => Number(((1000 * sec) / Math.max(1, matches)).toFixed(3));
  return {
    cpuMsPerMatch: {
      postgres: perMatch(postgresCpuSecSince(DB_NAME, pg0)),
      client: perMatch((own.user + own.system) / 1e6),
      pgbouncer: perMatch(procStat(bouncer.pid).cpuSec - bouncer0),
    },
    matchesPerSecond: Math.round(matches / seconds),
  };
}

try {
  console.error(`warm-up: each way, ${CLIENTS} clients, 2 s ...`);
  for (const way of WAYS) await run(dbs[way], 2);
  const rounds: Record<Way, Run>[] = [];
  for (let n = 0; n < ROUNDS; n++) {
    const round = {} as Record<Way, Run>;
    for (let i = 0; i < WAYS.length; i++) {
      const way = WAYS[(n + i) % WAYS.length]!;
      await named.query('VACUUM ANALYZE');
      console.error(`round ${n + 1}: ${way}, ${CLIENTS} clients, ${SECONDS} s ...`);
      round[way] = await run(dbs[way], SECONDS);
    }
    console.log(JSON.stringify({ round: n + 1, ...round }));
    rounds.push(round);
  }
  const summary = Object.fromEntries(
    WAYS.map((way) => {
      const m = (f: (r: Run) => number) => Number(median(rounds.map((r) => f(r[way]))).toFixed(3));
      const relative = median(rounds.map((r) => r[way].matchesPerSecond / r.named.matchesPerSecond));
      return [
        way,
        {
          cpuMsPerMatch: {
            postgres: m((r) => r.cpuMsPerMatch.postgres),
            client: m((r) => r.cpuMsPerMatch.client),
            pgbouncer: m((r) => r.cpuMsPerMatch.pgbouncer),
          },
          matchesPerSecond: m((r) => r.matchesPerSecond),
          throughputVsNamed: Number(relative.toFixed(2)),
        },
      ];
    }),
  );
  console.log(
    JSON.stringify({ bench: 'pgbouncer', at: new Date().toISOString(), clients: CLIENTS, seconds: SECONDS, rounds: ROUNDS, summary }),
  );
} finally {
  for (const db of Object.values(dbs)) await db.close();
  await bouncer.stop();
}
