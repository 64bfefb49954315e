// Startup to first served page with the embedded database, as `npm start` runs the server
// (after its build): a brand-new data folder (loaded from the build's template) and a reopen.
// Run after `npm run build`:  npx tsx bench/startup/run.ts
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

async function timeToFirstPage(dataDir: string, port: number): Promise<number> {
  const started = performance.now();
  const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/`);
        if (res.ok && (await res.text()).includes('<div id="root"')) return performance.now() - started;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 60_000) throw new Error('no page within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
}

if (!fs.existsSync(path.join(root, 'apps/server/dist/main.js'))) throw new Error('Run `npm run build` first.');
const results: { fresh: number[]; reopen: number[] } = { fresh: [], reopen: [] };
for (let run = 0; run < RUNS; run++) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'versus-startup-'));
  results.fresh.push(await timeToFirstPage(dir, 3900 + run));
  results.reopen.push(await timeToFirstPage(dir, 3950 + run));
  fs.rmSync(dir, { recursive: true, force: true });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `first served page, new data folder: median ${median(results.fresh).toFixed(0)} ms (${results.fresh.map((x) => x.toFixed(0)).join(', ')})`,
);
console.log(
  `first served page, reopened data folder: median ${median(results.reopen).toFixed(0)} ms (${results.reopen.map((x) => x.toFixed(0)).join(', ')})`,
);
console.log(JSON.stringify({ bench: 'startup', freshMs: results.fresh, reopenMs: results.reopen }));
