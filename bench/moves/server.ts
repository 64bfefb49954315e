// The Versus server as the move bench runs it (bench/lib/server.ts). On SIGUSR2 it prints the
// arena writer's figures so far (batches, items per batch) and how late its event loop ran since
// the last SIGUSR2 (a busy loop delays every socket and query) as one JSON line.
import { startBenchApp } from '../lib/server.ts';

const { app, loopDelay } = await startBenchApp();

process.on('SIGUSR2', () => {
  process.stdout.write(`${JSON.stringify({ writer: { ...app.services.arena.writer.stats, eventLoopDelay: loopDelay(true) } })}\n`);
});
