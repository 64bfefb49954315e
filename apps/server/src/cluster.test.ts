// Three processes behind HAProxy (deploy/haproxy.cfg, no sticky sessions) through kill -9 and a rolling
// restart: docs/operations.md, "What the tests check, and what they measured".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALTIME_CLOSE } from '@versus/domain/realtime';
import { turnBackMatch } from './arena/arena.test-kit.ts';
import { startChildServer, type ChildServer } from './test/child-server.ts';
import { createTestDatabase, type TestDatabase } from './test/database.ts';
import { haproxyUnavailable, startHaproxy, type Proxy } from './test/haproxy.ts';
import { doubleRuns, longestWait, watchJobs, type JobWatch } from './test/job-runs.ts';
import { expectAuditClean } from './test/ledger-checks.ts';
import {
  Api,
  LivePlayer,
  newMatchTally,
  newTally,
  playTicTacToe,
  signUpThrough,
  sleep,
  ticTacToeMatch,
  type Account,
  type HttpTally,
  type LiveStats,
} from './test/live-player.ts';

const unavailable = haproxyUnavailable();
/** Checks every 200 ms, 2 failures take a process out, 1 success brings it back: out within ~0.5 s. */
const CHECK = { interMs: 200, fall: 2, rise: 1 };
/** Comfortably more than fall × inter on a busy machine. */
const DRAIN_GRACE_MS = 1500;
const ENV = {
  DRAIN_GRACE_MS: String(DRAIN_GRACE_MS),
  TRUST_PROXY: '1',
  RUN_JOBS: 'true',
  SIGNUP_LIMIT_PER_ADDRESS: '1000000',
  SIGNUP_LIMIT_GLOBAL: '1000000',
};
const SWEEP = 'arena.sweep';

describe.skipIf(unavailable !== null)(`three processes behind HAProxy${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let database: TestDatabase;
  let servers: ChildServer[] = [];
  let proxy: Proxy;
  let jobs: JobWatch;
  const tallies: HttpTally[] = [];

  const start = (port?: number) => startChildServer(database.url, ENV, { until: '/api/ready', ...(port ? { port } : {}) });
  const api = () => {
    const tally = newTally();
    tallies.push(tally);
    return new Api(proxy.http, tally);
  };
  const dbNowMs = async () => (await database.db.query<{ ms: number }>('SELECT extract(epoch FROM now()) * 1000 AS ms'))[0]!.ms;

  beforeAll(async () => {
    database = await createTestDatabase();
    servers = await Promise.all([0, 1, 2].map(() => start()));
    proxy = await startHaproxy({ backends: servers.map((s) => s.port) as [number, number, number], check: CHECK });
    jobs = watchJobs(database.db);
  }, 60_000);

  afterAll(async () => {
    await jobs?.stop();
    await proxy?.stop();
    for (const server of servers) server.kill();
    await Promise.all(servers.map((s) => s.exited));
    await database?.drop();
  });

  /** The same process started again on its port; resolves once HAProxy has it back. */
  async function restart(i: number) {
    servers[i] = await start(servers[i]!.port);
    return proxy.until(proxy.servers[i]!, 'UP');
  }

  const expectClean = (stats: LiveStats[]) => {
    for (const s of stats) expect({ duplicates: s.duplicates, skipped: s.skipped }).toEqual({ duplicates: 0, skipped: 0 });
  };

  it('kill -9 of the process serving one player: it resumes elsewhere, the match pays, its clock is swept once', async () => {
    const http = api();
    const [alice, bob, carol, dave] = await Promise.all(['ka', 'kb', 'kc', 'kd'].map((label) => signUpThrough(http, label)));
    const matchId = await ticTacToeMatch(http, alice!, bob!, 10);
    const sideId = await ticTacToeMatch(http, carol!, dave!, 10);

    // Each player on a different process, through the proxy: round robin places a new socket on the next one.
    const a = new LivePlayer(http, proxy.ws, alice!, matchId);
    const b = new LivePlayer(http, proxy.ws, bob!, matchId);
    await a.start();
    await b.start();
    while (b.server === a.server) await b.reconnect();
    const victim = a.server!;
    const victimIndex = proxy.servers.indexOf(victim);
    for (const who of [alice!, bob!]) await http.must('POST', `/api/matches/${matchId}/ready`, { as: who });
    await Promise.all([a, b].map((p) => p.until(() => p.view!.status === 'in_progress')));

    // The side match's last write is a move over a socket on the victim: its clock timer lives there.
    const c = new LivePlayer(http, proxy.ws, carol!, sideId);
    const d = new LivePlayer(http, proxy.ws, dave!, sideId);
    await c.start();
    await d.start();
    while (c.server !== victim) await c.reconnect();
    for (const who of [carol!, dave!]) await http.must('POST', `/api/matches/${sideId}/ready`, { as: who });
    await Promise.all([c, d].map((p) => p.until(() => p.view!.status === 'in_progress')));
    const sideTally = newMatchTally();
    await playTicTacToe([c, d], sideTally, {
      over: () => 'socket',
      // Stop as soon as it is Dave's turn after a move of Carol's (over her socket, on the victim).
      beforeMove: async (n, mover) => {
        if (n > 0 && mover === d) throw new StopPlaying();
      },
    }).catch((error: unknown) => {
      if (!(error instanceof StopPlaying)) throw error;
    });
    expect(c.server).toBe(victim);

    let killedAt = 0;
    const tally = newMatchTally();
    const final = await playTicTacToe([a, b], tally, {
      over: () => 'socket',
      beforeMove: async (n, mover) => {
        if (killedAt || n < 3 || mover !== b) return;
        // Bob is about to move: Alice's process dies first, so she misses his move while away.
        servers[victimIndex]!.process.kill('SIGKILL');
        killedAt = performance.now();
        await a.until(() => a.server === undefined, 5_000, 'the socket to drop');
      },
    });
    expect(killedAt).toBeGreaterThan(0);
    expect(final.status).toBe('completed');
    expect(await servers[victimIndex]!.exited).toBeNull();

    // Alice came back through the proxy to another process, from where she left off.
    expect(a.stats.resumes).toBe(1);
    expect(a.stats.servers.at(-1)).not.toBe(victim);
    // Dropped by the proxy when its process died (1006: no close frame), not closed by a server.
    expect(a.stats.closes[0]).toBe(1006);
    expect(b.stats.resumes).toBe(0);
    expectClean([a.stats, b.stats]);
    for (const p of [a, b]) expect(p.stats.events + p.stats.reloaded).toBe(final.version - p.firstVersion);
    expect(tally).toMatchObject({ refused: 0, unknown: 0 });

    const [row] = await database.db.query<{ moves: number; winner_id: string }>(
      `SELECT (SELECT count(*)::int FROM match_moves WHERE match_id = $1) AS moves, winner_id FROM matches WHERE id = $1`,
      [matchId],
    );
    expect(row!.moves).toBe(tally.acked);
    const winner = row!.winner_id === alice!.id ? alice! : bob!;
    const loser = winner === alice ? bob! : alice!;
    const balance = (who: Account) =>
      http.must<{ available_balance: number; escrow_balance: number }>('GET', '/api/wallet/balance', { as: who });
    expect((await balance(winner)).body).toMatchObject({ available_balance: 1010, escrow_balance: 0 });
    expect((await balance(loser)).body).toMatchObject({ available_balance: 990, escrow_balance: 0 });

    // Dave's clock ran on the dead process's timer. Made overdue, the sweep (a scheduled job,
    // claimed by one of the survivors) ends his game on time, once.
    await turnBackMatch(database.db, sideId, 10 * 60_000);
    const swept = performance.now();
    await c.until(() => (c.stats.types['match.timeout'] ?? 0) > 0, 20_000, 'the timeout');
    const sweptMs = Math.round(performance.now() - swept);
    const side = await http.must<{ match: { version: number; series: { wins: number[] } } }>('GET', `/api/matches/${sideId}`, {
      as: carol!,
    });
    expect(side.body.match.series.wins[c.seat]).toBe(1);
    await http.must('POST', `/api/matches/${sideId}/resign`, { as: dave!, body: { version: side.body.match.version } });
    await Promise.all([c, d].map((p) => p.until(() => p.view!.status === 'completed')));
    for (const p of [c, d]) expect(p.stats.types['match.timeout']).toBe(1);
    expectClean([c.stats, d.stats]);
    for (const p of [a, b, c, d]) p.stop();

    await expectAuditClean(database.db, ['challenges', 'matches']);
    const down = await proxy.until(victim, 'DOWN');
    // Requests the dead process took with it, or that HAProxy sent it before the checks noticed.
    const lost = tallies.flatMap((t) => t.failures);
    expect(lost.filter((f) => f.at < killedAt || f.at > down.at + 1000)).toEqual([]);

    const downMs = Math.round(down.at - killedAt);
    const up = await restart(victimIndex);
    console.info(
      `cluster kill -9: ${victim} killed mid-match; Alice's socket back on ${a.stats.servers.at(-1)} after ${a.stats.resumeMs[0]} ms ` +
        `(${a.stats.gaps ? 'gap, match reloaded' : 'missed events replayed'}); HAProxy marked it DOWN after ${downMs} ms; ` +
        `the orphaned clock swept ${sweptMs} ms after it fell due; ${tally.acked} moves, none lost; ` +
        `${lost.length} HTTP requests unanswered around the kill; back UP ${Math.round(up.at - killedAt)} ms after the kill`,
    );
  }, 60_000);

  it('rolling restart under a steady load of moves: none lost or duplicated, no 5xx but the documented 503', async () => {
    // Three processes to begin with, whatever the test before left.
    for (const [i, server] of servers.entries())
      if (server.process.exitCode !== null || server.process.signalCode !== null) await restart(i);
    const http = api();
    const PAIRS = 6;
    const accounts = await Promise.all(Array.from({ length: PAIRS * 2 }, (_, i) => signUpThrough(http, `r${i}`)));
    const tally = newMatchTally();
    const stats: LiveStats[] = [];
    const matches: string[] = [];
    let loading = true;
    let versionsToSee = 0;

    const pair = async (p: Account, q: Account) => {
      while (loading) {
        const id = await ticTacToeMatch(http, p, q, 1);
        matches.push(id);
        const players: [LivePlayer, LivePlayer] = [new LivePlayer(http, proxy.ws, p, id), new LivePlayer(http, proxy.ws, q, id)];
        await Promise.all(players.map((player) => player.start()));
        for (const who of [p, q]) await http.must('POST', `/api/matches/${id}/ready`, { as: who });
        await Promise.all(players.map((player) => player.until(() => player.view!.status === 'in_progress')));
        const final = await playTicTacToe(players, tally, {
          // Half the moves over the socket (as the web app), half over HTTP (every request balanced anew).
          over: (n) => (n % 2 === 0 ? 'socket' : 'http'),
          // A player's think time: a match outlasts a drain's grace, so some sockets are open when their process closes.
          beforeMove: () => sleep(200),
        });
        expect(final.status).toBe('completed');
        for (const player of players) versionsToSee += final.version - player.firstVersion;
        for (const player of players) {
          await player.until(() => player.view!.version === final.version);
          player.stop();
          stats.push(player.stats);
        }
      }
    };
    const load = Array.from({ length: PAIRS }, (_, i) => pair(accounts[2 * i]!, accounts[2 * i + 1]!));
    const failed = Promise.race(load).then(
      () => undefined,
      () => undefined,
    );

    const windows: { server: string; termAt: number; downMs: number; exitMs: number; upMs: number }[] = [];
    const jobsFrom = await dbNowMs();
    await Promise.race([sleep(1000), failed]);
    for (let i = 0; i < servers.length; i++) {
      const server = proxy.servers[i]!;
      const termAt = performance.now();
      servers[i]!.process.kill('SIGTERM');
      const down = await proxy.until(server, 'DOWN');
      expect(await servers[i]!.exited).toBe(0);
      const exitAt = performance.now();
      const up = await restart(i);
      windows.push({
        server,
        termAt,
        downMs: Math.round(down.at - termAt),
        exitMs: Math.round(exitAt - termAt),
        upMs: Math.round(up.at - termAt),
      });
      await sleep(500);
    }
    loading = false;
    await Promise.all(load);

    // Every HTTP answer was below 500, but for a closing process's documented 503 (Retry-After: 1).
    const failures = tallies.flatMap((t) => t.failures);
    const undocumented = failures.filter((f) => f.status !== 503 || f.retryAfter !== '1' || !f.body.includes('"unavailable"'));
    expect(undocumented).toEqual([]);
    const inDrain = failures.filter((f) => windows.some((w) => f.at >= w.termAt && f.at <= w.termAt + w.upMs));
    expect(inDrain.length).toBe(failures.length);

    // Every move answered as applied is stored once; none refused; none stored that was not sent.
    expect(tally.refused).toBe(0);
    const [stored] = await database.db.query<{ moves: number; open: number }>(
      `SELECT (SELECT count(*)::int FROM match_moves WHERE match_id = ANY($1::uuid[])) AS moves,
              (SELECT count(*)::int FROM matches WHERE id = ANY($1::uuid[]) AND status <> 'completed') AS open`,
      [matches],
    );
    expect(stored!.moves).toBe(tally.acked + tally.landed);
    expect(stored!.open).toBe(0);
    // Every player saw every version of its match once: as an event, or in a reload after a gap.
    expectClean(stats);
    expect(stats.reduce((sum, s) => sum + s.events + s.reloaded, 0)).toBe(versionsToSee);
    const closes = stats.flatMap((s) => s.closes);
    expect(closes.length).toBeGreaterThan(0);
    for (const code of closes) expect(code).toBe(REALTIME_CLOSE.restart);

    await expectAuditClean(database.db, ['challenges', 'matches']);

    // Scheduled jobs: never twice in one period, the sweep never waiting long, the hourly ones once in all.
    await jobs.stop();
    const jobsUntil = await dbNowMs();
    expect(jobs.unseen).toEqual([]);
    expect(doubleRuns(jobs.runs)).toEqual([]);
    const sweepWait = longestWait(
      jobs.runs.filter((r) => r.startedAtMs >= jobsFrom - 5_000),
      SWEEP,
      jobsUntil,
    );
    expect(sweepWait).toBeLessThan(2 * 5_000 + 2_000);
    const rare = await database.db.query<{ name: string; runs: number }>(
      `SELECT name, runs FROM scheduled_jobs WHERE next_run_at - last_started_at >= interval '5 minutes'`,
    );
    expect(rare.length).toBeGreaterThan(3);
    for (const job of rare) expect(job, 'a job with a long period ran once across every start and restart').toMatchObject({ runs: 1 });

    const statuses = new Map<number | string, number>();
    for (const t of tallies) for (const [status, count] of t.byStatus) statuses.set(status, (statuses.get(status) ?? 0) + count);
    const resumeMs = stats.flatMap((s) => s.resumeMs).sort((x, y) => x - y);
    const drain = windows
      .map((w) => `${w.server} out of rotation ${w.downMs} ms after SIGTERM, exited ${w.exitMs} ms, back UP ${w.upMs} ms`)
      .join('; ');
    console.info(
      `cluster rolling restart: ${matches.length} matches, ${tally.sent} moves sent (${tally.bySocket} socket, ${tally.byHttp} HTTP), ` +
        `${tally.acked} applied, ${tally.unknown} unanswered or refused 503 by a closing process ` +
        `(${tally.landed} of them found applied, the rest sent again), 0 lost, 0 duplicated; ` +
        `HTTP answers ${[...statuses].map(([status, count]) => `${status}×${count}`).join(' ')}; ` +
        `503 during drains: ${failures.length}; sockets moved ${closes.length} (1012), ` +
        `resumed in median ${resumeMs[Math.floor(resumeMs.length / 2)] ?? '-'} ms, max ${resumeMs.at(-1) ?? '-'} ms; ` +
        `gaps ${stats.reduce((sum, s) => sum + s.gaps, 0)}; ${drain}; longest sweep wait ${sweepWait} ms`,
    );
  }, 90_000);
});

class StopPlaying extends Error {}
