// The Versus server as the move bench runs it (bench/lib/server.ts). On SIGUSR2 it prints the
// arena writer's figures so far (batches, items per batch) and how late its event loop ran since
// the last SIGUSR2 (a busy loop delays every socket and query) as one JSON line.
// On SIGHUP (the server runs with --expose-gc) it collects garbage and prints its memory (answerMemory).
// BENCH_ALLOC_PROF=dir: the first measured window's allocations (V8's sampling heap profiler,
// collected objects included: what the young-generation collections sweep up), written to dir;
// with BENCH_ALLOC_SURVIVORS=1, only what no collection has freed by the window's end (what is
// promoted to the old generation shows there until a full collection).
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import v8 from 'node:v8';
import { answerMemory, startBenchApp } from '../lib/server.ts';

const { app, loopDelay } = await startBenchApp();
answerMemory('SIGHUP', loopDelay);
// BENCH_HEAP_SNAPSHOT=dir: a heap snapshot at each memory reading as well (what the sockets and matches hold, by constructor).
const snapshotDir = process.env.BENCH_HEAP_SNAPSHOT;
let snapshots = 0;
if (snapshotDir) {
  fs.mkdirSync(snapshotDir, { recursive: true });
  process.on('SIGHUP', () => setImmediate(() => v8.writeHeapSnapshot(path.join(snapshotDir, `memory-${++snapshots}.heapsnapshot`))));
}

const allocDir = process.env.BENCH_ALLOC_PROF;
const survivors = process.env.BENCH_ALLOC_SURVIVORS === '1';
let session: Session | null = null;
let windows = 0;

process.on('SIGUSR2', () => {
  process.stdout.write(`${JSON.stringify({ writer: { ...app.services.arena.writer.stats, eventLoopDelay: loopDelay(true) } })}\n`);
  if (!allocDir) return;
  // The bench signals at the start and at the end of each window.
  if (++windows === 1) void startAllocations();
  else if (windows === 2) void stopAllocations(allocDir);
});

async function startAllocations(): Promise<void> {
  session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: !survivors,
    includeObjectsCollectedByMinorGC: !survivors,
  } as never);
}

async function stopAllocations(dir: string): Promise<void> {
  if (!session) return;
  const { profile } = await session.post('HeapProfiler.stopSampling');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `alloc-${process.pid}.heapprofile`), JSON.stringify(profile));
  session.disconnect();
}
