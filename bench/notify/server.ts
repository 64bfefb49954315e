// The Versus server as the notify bench runs it: the real app (every feature, jobs on) on the
// bench database, in its own process (started with --expose-gc). Prints {"port": n} once
// listening; on SIGUSR2 collects garbage twice and prints its memory and event-loop delay as one
// JSON line {"memory": {...}}; exits on SIGTERM.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../../apps/server/src/app.ts';
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

const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();

const gc = (globalThis as { gc?: () => void }).gc;

process.on('SIGUSR2', () => {
  // Twice, with a turn of the loop between: what is left is what the sockets hold.
  gc?.();
  setImmediate(() => {
    gc?.();
    const m = process.memoryUsage();
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const loop = { p50ms: ms(loopDelay.percentile(50)), p99ms: ms(loopDelay.percentile(99)), maxms: ms(loopDelay.max) };
    loopDelay.reset();
    process.stdout.write(
      `${JSON.stringify({ memory: { rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, gc: Boolean(gc) }, eventLoopDelay: loop })}\n`,
    );
  });
});
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => db.close())
    .finally(() => process.exit(0));
});
