// A Versus server for a bench: the real app (every feature, jobs on) on the bench database, in a
// process of its own. The child side (startBenchApp) prints {"port": n} once listening and exits
// on SIGTERM; the bench side (spawnBenchServer) starts it and waits for that line.
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import readline from 'node:readline';
import v8 from 'node:v8';
import { buildApp, type App } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openPostgres } from '../../apps/server/src/db/database.ts';
import { startNodeFlags } from '../../apps/server/src/test/start-flags.ts';

export interface BenchServer {
  child: ChildProcess;
  port: number;
  /** What the server prints as JSON, line by line (its answers to SIGUSR2); other lines go to stderr. */
  lines: EventEmitter<{ line: [string] }>;
}

/** The Node.js flags `npm start` gives the server, unless BENCH_SERVER_FLAGS says otherwise. */
const SERVER_NODE_FLAGS = process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? startNodeFlags();

/** Starts `script` (a server.ts next to a bench) with `nodeArgs`, on the database at `databaseUrl`. */
export async function spawnBenchServer(script: string, databaseUrl: string, nodeArgs: string[] = []): Promise<BenchServer> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeArgs, '--import', 'tsx', script], {
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // V8's tracing flags (--trace-deopt, --log-deopt) print on stdout too: only JSON lines are answers.
  const lines = new EventEmitter<{ line: [string] }>();
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('{')) lines.emit('line', line);
    else process.stderr.write(`${line}\n`);
  });
  const port = await new Promise<number>((resolve, reject) => {
    lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`bench server exited early (${code})`)));
  });
  return { child, port, lines };
}

/** The server's memory after two garbage collections (answerMemory): what live objects hold. */
export interface ServerMemory {
  memory: {
    rss: number;
    heapUsed: number;
    /** What V8 holds from the system (used or not): RSS beyond heapUsed is mostly this, new space above all. */
    heapCommitted: number;
    newSpaceCommitted: number;
    external: number;
    arrayBuffers: number;
    gc: boolean;
  };
  eventLoopDelay: LoopDelay;
}

/** Asks a server that runs answerMemory(signal) (and --expose-gc) for its memory. */
export function serverMemory(server: BenchServer, signal: NodeJS.Signals): Promise<ServerMemory> {
  return new Promise((resolve) => {
    const onLine = (line: string) => {
      if (!line.startsWith('{"memory"')) return;
      server.lines.off('line', onLine);
      resolve(JSON.parse(line) as ServerMemory);
    };
    server.lines.on('line', onLine);
    server.child.kill(signal);
  });
}

/** In the server process: on `signal`, collects garbage twice and prints its memory and event-loop delay as one JSON line {"memory": …}. */
export function answerMemory(signal: NodeJS.Signals, loopDelay: (reset?: boolean) => LoopDelay): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  process.on(signal, () => {
    // Twice, with a turn of the loop between: what is left is what live objects hold.
    gc?.();
    setImmediate(() => {
      gc?.();
      const m = process.memoryUsage();
      const newSpace = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
      const memory = {
        rss: m.rss,
        heapUsed: m.heapUsed,
        heapCommitted: m.heapTotal,
        newSpaceCommitted: newSpace?.physical_space_size ?? 0,
        external: m.external,
        arrayBuffers: m.arrayBuffers,
        gc: Boolean(gc),
      };
      process.stdout.write(`${JSON.stringify({ memory, eventLoopDelay: loopDelay(true) } satisfies ServerMemory)}\n`);
    });
  });
}

/** How late the event loop ran its callbacks since it was last reset (ms). */
export interface LoopDelay {
  p50ms: number;
  p99ms: number;
  maxms: number;
}

/**
 * In the server process: builds the app on BENCH_DATABASE_URL, listens on a free port, prints it,
 * and closes on SIGTERM. `loopDelay()` reads how late the event loop has been running.
 */
export async function startBenchApp(): Promise<{ app: App; loopDelay(reset?: boolean): LoopDelay }> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) throw new Error('BENCH_DATABASE_URL is required');
  // Thousands of sockets from one address (the bench's own): past the per-address cap.
  const config = loadConfig({
    REALTIME_SOCKETS_PER_ADDRESS: '1000000',
    ...process.env,
    WEB_DIR: '',
    SEED_DEMO: 'false',
    RUN_JOBS: 'true',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    PORT: '0',
  });
  const db = openPostgres(url, { max: Number(process.env.BENCH_POOL ?? 20) });
  const app = await buildApp({ config, db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);

  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  logCollections('server');
  process.on('SIGTERM', () => {
    void app
      .close()
      .then(() => db.close())
      .finally(() => process.exit(0));
  });
  return {
    app,
    loopDelay(reset = false) {
      const ms = (ns: number) => Math.round(ns / 1e4) / 100;
      const figures = { p50ms: ms(histogram.percentile(50)), p99ms: ms(histogram.percentile(99)), maxms: ms(histogram.max) };
      if (reset) histogram.reset();
      return figures;
    },
  };
}

/**
 * Diagnostics (BENCH_GC_LOG=prefix): this process's garbage collections, one JSON line each (`at`, ms since the epoch, as
 * BENCH_LATENCY_DUMP's send times), to `prefix.<name>.jsonl`, to set beside the slow moves.
 */
export function logCollections(name: string): void {
  const prefix = process.env.BENCH_GC_LOG;
  if (!prefix) return;
  const out = fs.createWriteStream(`${prefix}.${name}.jsonl`);
  const kinds: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weakcb' };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = kinds[(entry as { detail?: { kind?: number } }).detail?.kind ?? 0] ?? 'other';
      out.write(`${JSON.stringify({ at: performance.timeOrigin + entry.startTime, ms: entry.duration, kind })}\n`);
    }
  }).observe({ entryTypes: ['gc'] });
}
