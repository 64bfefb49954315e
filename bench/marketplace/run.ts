// The marketplace list under load, with 100,000 challenges in the database (mostly closed).
//
//   npx tsx bench/marketplace/run.ts     (DATABASE_URL, or postgres://postgres@127.0.0.1:5432)
//   BENCH_RATE=1000 BENCH_OPEN_SECONDS=15 BENCH_CLIENTS=50 BENCH_CLOSED_SECONDS=10 npx tsx bench/marketplace/run.ts
//
// (a) Open loop: a fixed offered load of BENCH_RATE listing requests per second. Each request
//     has a scheduled send time and its latency counts from that time, so a slow server cannot
//     slow the load down and hide its own queueing (no coordinated omission). p50/p90/p99/max.
// (b) Closed loop: BENCH_CLIENTS clients each sending their next request as soon as the last
//     answered, for BENCH_CLOSED_SECONDS: requests per second, next to a bare Fastify route doing
//     one trivial query (SELECT 1) measured the same way in the same run; the ratio.
// Both phases also run against the real app with its list cache turned off, so every request
// runs the listing query (the partial index, not just the cache), and against a bare Fastify
// route serving the same cached body without the app (what the token check and the rest cost).
// The servers run in a child process (server.ts); the load generator here uses node:http with
// keep-alive agents.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createChallengeRequestSchema, type CreateChallengeRequest } from '@versus/domain/challenges';
import { GAME_LIST } from '@versus/domain/catalogue';
import type { Queryable } from '../../apps/server/src/db/database.ts';
import type { Database } from '../../apps/server/src/db/database.ts';
import { listOpenPublic } from '../../apps/server/src/challenges/challenges.repository.ts';
import { createChallenge } from '../../apps/server/src/challenges/challenges.service.ts';
import { openAccounts } from '../../apps/server/src/ledger/ledger.service.ts';
import { admin, urlFor } from '../lib/postgres.ts';
import { freshDatabase, insertPlayers } from '../lib/setup.ts';
import { ChallengeListCache } from '../../apps/server/src/challenges/challenges.cache.ts';

const RATE = Number(process.env.BENCH_RATE ?? 1000);
const OPEN_SECONDS = Number(process.env.BENCH_OPEN_SECONDS ?? 15);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const CLOSED_SECONDS = Number(process.env.BENCH_CLOSED_SECONDS ?? 10);
const WARMUP_SECONDS = 3;
const TOTAL_CHALLENGES = 100_000;
const OPEN_CHALLENGES = 400;
const PLAYERS = 200;
const DB_NAME = 'versus_bench_marketplace';
const here = path.dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------------------------------
// Data

async function setUp(): Promise<Database> {
  const db = await freshDatabase(DB_NAME, 4);
  const players: string[] = Array.from({ length: PLAYERS }, () => crypto.randomUUID());
  await insertPlayers(db, players, 'bench', { display_name: `'Bench ' || n`, wins: 'n % 40', losses: 'n % 17', streak: 'n % 5' });
  for (const userId of players) await db.transaction((tx) => openAccounts(tx, { userId, role: 'user', accountType: 'real' }));

  // The closed history, written in bulk: cancelled and expired challenges over the last 60
  // days, a fifth of them private. (Accepted ones would need matches; closed is what matters:
  // rows the listing must not read.)
  const closed = TOTAL_CHALLENGES - OPEN_CHALLENGES;
  const webGames = GAME_LIST.filter((g) => g.kind === 'web').map((g) => g.id);
  await db.query(
    `INSERT INTO challenges (creator_id, title, game, platform, stake, currency, duration, status, code, expires_at,
                             scheduled_time, created_at, updated_at, closed_at, views)
     SELECT ($1::uuid[])[1 + n % ${PLAYERS}], 'Closed challenge ' || n, ($3::text[])[1 + n % array_length($3::text[], 1)], 'web',
            1 + n % 1000, 'credits', 30,
            CASE WHEN n % 2 = 0 THEN 'cancelled' ELSE 'expired' END,
            CASE WHEN n % 5 = 0 THEN lpad(upper(to_hex(n)), 6, '0') END,
            t - interval '1 hour', t + interval '30 minutes', t - interval '30 hours', t, t, n % 50
       FROM generate_series(1, $2::int) AS n, LATERAL (SELECT now() - n * interval '50 seconds' AS t) AS times`,
    [players, closed, webGames],
  );

  // The open ones through the service, stakes locked in escrow as in production.
  const requests: CreateChallengeRequest[] = [
    { game: 'chess', stake: 25, duration: 30 },
    { game: 'fortnite', platform: 'pc', gamertag: 'bench', stake: 50, duration: 30, message: 'Zero build' },
    { game: 'tic-tac-toe', stake: 5, duration: 10 },
    { game: 'valorant', platform: 'pc', gamertag: 'bench#1', stake: 100, duration: 45 },
  ];
  for (let i = 0; i < OPEN_CHALLENGES; i++) {
    const creator = players[i % PLAYERS]!;
    await createChallenge(
      { db, challengeList: new ChallengeListCache() },
      { userId: creator, role: 'user', accountType: 'real' },
      createChallengeRequestSchema.parse(requests[i % requests.length]),
    );
  }
  await db.query('VACUUM ANALYZE');
  return db;
}

async function explainListing(db: Database): Promise<string[]> {
  const lines: string[] = [];
  const explaining: Queryable = {
    async query<T>(sql: string, params?: unknown[]) {
      const rows = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, params);
      lines.push(...rows.map((r) => r['QUERY PLAN']));
      return [] as T[];
    },
    exec: (sql: string) => db.exec(sql),
    notifyAfterCommit: () => {},
  };
  await listOpenPublic(explaining, {}, new Date(), 50);
  return lines;
}

// ---------------------------------------------------------------------------------------
// Load

interface Target {
  name: string;
  port: number;
  path: string;
  headers: Record<string, string>;
}

const agents = new Map<string, http.Agent>();
function agentFor(target: Target): http.Agent {
  let agent = agents.get(target.name);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 256 });
    agents.set(target.name, agent);
  }
  return agent;
}

function request(target: Target): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: target.port, path: target.path, headers: target.headers, agent: agentFor(target) },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

interface OpenResult {
  offered: number;
  completed: number;
  errors: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Sends `rate` requests per second for `seconds`, each at its scheduled time; latency from that time. */
async function openLoop(target: Target, rate: number, seconds: number): Promise<OpenResult> {
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const latencies = new Float64Array(total);
  let errors = 0;
  let done = 0;
  const start = performance.now() + 20;
  await new Promise<void>((resolve) => {
    let sent = 0;
    const finish = () => {
      done += 1;
      if (done === total) resolve();
    };
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) {
        const i = sent++;
        const scheduled = start + i * interval;
        request(target).then(
          (status) => {
            latencies[i] = performance.now() - scheduled;
            if (status !== 200) errors += 1;
            finish();
          },
          () => {
            latencies[i] = performance.now() - scheduled;
            errors += 1;
            finish();
          },
        );
      }
      if (sent < total) setTimeout(tick, Math.max(0, Math.min(1, start + sent * interval - performance.now())));
    };
    tick();
  });
  const sorted = Array.from(latencies).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { offered: total, completed: done, errors, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted.at(-1)! };
}

/** `clients` loops, each sending its next request when the last one answers, for `seconds`. */
async function closedLoop(target: Target, clients: number, seconds: number): Promise<{ perSecond: number; errors: number }> {
  let count = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const status = await request(target).catch(() => 0);
        if (status === 200) count += 1;
        else errors += 1;
      }
    }),
  );
  return { perSecond: count / ((performance.now() - started) / 1000), errors };
}

// ---------------------------------------------------------------------------------------

type Ports = { listing: number; uncached: number; bare: number; noauth: number };

async function startServers(): Promise<{ child: ChildProcess; ports: Ports; token: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'server.ts')], {
    env: { ...process.env, BENCH_DATABASE_URL: urlFor(DB_NAME) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited early (${code})`)));
  });
  const { token, ...ports } = JSON.parse(first) as Ports & { token: string };
  return { child, ports, token };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

async function main() {
  console.log(`Seeding ${TOTAL_CHALLENGES.toLocaleString('en-US')} challenges (${OPEN_CHALLENGES} open) ...`);
  const seedStarted = performance.now();
  const db = await setUp();
  const counts = await db.query<{ status: string; private: boolean; n: number }>(
    `SELECT status, code IS NOT NULL AS private, count(*)::int AS n FROM challenges GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  console.log(
    `  done in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s:`,
    counts.map((c) => `${c.status}${c.private ? ' (private)' : ''} ${c.n}`).join(', '),
  );
  console.log('\nListing query plan (uncached path):');
  for (const line of await explainListing(db)) console.log(`  ${line}`);
  await db.close();

  const { child, ports, token } = await startServers();
  const auth = { authorization: `Bearer ${token}` };
  const targets: Target[] = [
    { name: 'listing (real app, cached 15 s)', port: ports.listing, path: '/api/challenges', headers: auth },
    { name: 'listing (real app, cache off)', port: ports.uncached, path: '/api/challenges', headers: auth },
    { name: 'bare Fastify SELECT 1', port: ports.bare, path: '/bare', headers: {} },
    { name: 'cached list body, bare Fastify', port: ports.noauth, path: '/list', headers: {} },
  ];
  try {
    const probe = await request(targets[0]!);
    if (probe !== 200) throw new Error(`listing answered ${probe}`);

    console.log(
      `\n(a) Open loop: ${RATE} requests/s offered for ${OPEN_SECONDS} s (after ${WARMUP_SECONDS} s warm-up); latency from the scheduled send time`,
    );
    const open: Record<string, OpenResult> = {};
    for (const target of targets) {
      await openLoop(target, RATE, WARMUP_SECONDS);
      const result = await openLoop(target, RATE, OPEN_SECONDS);
      open[target.name] = result;
      console.log(
        `  ${target.name.padEnd(34)} p50 ${ms(result.p50)}  p90 ${ms(result.p90)}  p99 ${ms(result.p99)}  max ${ms(result.max)}  (${result.completed}/${result.offered} answered, ${result.errors} errors)`,
      );
    }

    console.log(`\n(b) Closed loop: ${CLIENTS} clients as fast as they can for ${CLOSED_SECONDS} s`);
    const closed: Record<string, { perSecond: number; errors: number }> = {};
    for (const target of targets) {
      await closedLoop(target, CLIENTS, 2);
      closed[target.name] = await closedLoop(target, CLIENTS, CLOSED_SECONDS);
      console.log(`  ${target.name.padEnd(34)} ${closed[target.name]!.perSecond.toFixed(0)} req/s (${closed[target.name]!.errors} errors)`);
    }

    const bare = closed[targets[2]!.name]!.perSecond;
    const p99 = open[targets[0]!.name]!.p99;
    console.log('\nSummary');
    console.log(
      `  (a) listing p99 at ${RATE}/s: ${ms(p99)}  (goal < 20 ms: ${p99 < 20 ? 'met' : 'NOT met'}); p50 ${ms(open[targets[0]!.name]!.p50)}`,
    );
    for (const target of [targets[0]!, targets[1]!, targets[3]!]) {
      const ratio = closed[target.name]!.perSecond / bare;
      console.log(
        `  (b) ${target.name}: ${closed[target.name]!.perSecond.toFixed(0)} req/s vs bare ${bare.toFixed(0)} req/s = ratio ${ratio.toFixed(2)}${target === targets[0] ? ` (goal >= 0.5: ${ratio >= 0.5 ? 'met' : 'NOT met'})` : ''}`,
      );
    }
  } finally {
    child.kill('SIGTERM');
    for (const agent of agents.values()) agent.destroy();
    await new Promise((resolve) => child.once('exit', resolve));
    await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  }
}

await main();
