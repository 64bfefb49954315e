// The Versus server as the move bench runs it: the real app (every feature, jobs on) on the
// bench database, in its own process. Prints {"port": n} once listening; on SIGUSR2 prints the
// arena writer's figures (batches, items per batch) as one JSON line; exits on SIGTERM.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../../apps/server/src/app.ts';
import { arenaOf } from '../../apps/server/src/arena/arena.routes.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openPostgres } from '../../apps/server/src/db/database.ts';

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('BENCH_DATABASE_URL is required');
const config = loadConfig({ ...process.env, WEB_DIR: '', SEED_DEMO: 'false', RUN_JOBS: 'true', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', PORT: '0' });
const db = openPostgres(url, { max: Number(process.env.BENCH_POOL ?? 20) });
const app = await buildApp({ config, db });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no port');
process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);

// How late the event loop runs its callbacks (a busy loop delays every socket and query).
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();

process.on('SIGUSR2', () => {
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  const loop = { p50ms: ms(loopDelay.percentile(50)), p99ms: ms(loopDelay.percentile(99)), maxms: ms(loopDelay.max) };
  process.stdout.write(`${JSON.stringify({ writer: { ...arenaOf(app).writer.stats, eventLoopDelay: loop } })}\n`);
});
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => db.close())
    .finally(() => process.exit(0));
});
