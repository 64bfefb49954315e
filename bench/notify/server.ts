// The Versus server as the notify bench runs it (bench/lib/server.ts), started with --expose-gc.
// On SIGUSR2 it collects garbage twice and prints its memory and event-loop delay as one JSON
// line {"memory": {...}}.
import { startBenchApp } from '../lib/server.ts';

const { loopDelay } = await startBenchApp();
const gc = (globalThis as { gc?: () => void }).gc;

process.on('SIGUSR2', () => {
  // Twice, with a turn of the loop between: what is left is what the sockets hold.
  gc?.();
  setImmediate(() => {
    gc?.();
    const m = process.memoryUsage();
    process.stdout.write(
      `${JSON.stringify({ memory: { rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, gc: Boolean(gc) }, eventLoopDelay: loopDelay(true) })}\n`,
    );
  });
});
