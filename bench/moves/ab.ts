// A/B of CPU per move between two commits, in one sitting: the closed loop (and Colyseus beside
// it) at A, then at B, AB_ROUNDS times (A B A B ...), every run with this checkout's bench/ so
// only the server differs. On a shared machine, figures drift over minutes; alternating keeps
// each B next to an A, and each run waits (AB_QUIET_WAIT s at most, default 120) for the machine
// to be under a quarter busy.
//
//   npx tsx bench/moves/ab.ts BASE [HEAD]        (commits; other settings as for run.ts)
//   AB_ROUNDS=2 MATCHES=500 SECONDS=20 npx tsx bench/moves/ab.ts 149086c HEAD
// Each commit is unpacked under /tmp/versus-ab/<commit> (git archive) with this checkout's
// node_modules linked in; each run's JSON is kept there as ab-<label>-<round>.json.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineCpu } from '../lib/cpu.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const ROOT = '/tmp/versus-ab';
const ROUNDS = Number(process.env.AB_ROUNDS ?? 2);
/** Before each run, wait up to this long (s) for the machine to be quiet: under a quarter busy over 3 s. */
const QUIET_WAIT_S = Number(process.env.AB_QUIET_WAIT ?? 120);
const [baseRef, headRef = 'HEAD'] = process.argv.slice(2);
if (!baseRef) throw new Error('usage: ab.ts BASE [HEAD]');

const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();

/** The tree of `ref` with this checkout's bench/ and node_modules: only apps/ and packages/ differ. */
function unpack(ref: string): { sha: string; dir: string } {
  const sha = git('rev-parse', '--short', ref);
  const dir = path.join(ROOT, sha);
  if (!fs.existsSync(path.join(dir, 'package.json'))) {
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('bash', ['-c', `git archive ${sha} | tar -x -C ${dir}`], { cwd: repo });
    // Every package linked, but the workspace's own (@versus/*) point into this tree, not the checkout's.
    const modules = path.join(dir, 'node_modules');
    fs.mkdirSync(path.join(modules, '@versus'), { recursive: true });
    for (const entry of fs.readdirSync(path.join(repo, 'node_modules'))) {
      if (entry !== '@versus') fs.symlinkSync(path.join(repo, 'node_modules', entry), path.join(modules, entry));
    }
    for (const [name, target] of [
      ['domain', 'packages/domain'],
      ['server', 'apps/server'],
      ['web', 'apps/web'],
    ]) {
      fs.symlinkSync(path.join('..', '..', target!), path.join(modules, '@versus', name!));
    }
  }
  fs.rmSync(path.join(dir, 'bench'), { recursive: true, force: true });
  fs.cpSync(path.join(repo, 'bench'), path.join(dir, 'bench'), { recursive: true });
  return { sha, dir };
}

interface Figures {
  cpuUsPerMove: {
    closedLoop: { server: number; postgres: number; loadGenerator: number };
    colyseus: { server: number; loadGenerator: number } | null;
  };
  closedLoop: { movesPerSec: number; p99ms: number; otherCpuPct: number };
  closedLoopVsColyseus: { serverAndPostgresOverServer: number } | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the machine is quiet (other work would share the cores with the run), or gives up. */
async function quiet(): Promise<number> {
  const until = Date.now() + QUIET_WAIT_S * 1000;
  for (;;) {
    const a = machineCpu();
    await sleep(3000);
    const b = machineCpu();
    const busy = Math.round(100 * (1 - (b.idle - a.idle) / (b.total - a.total)));
    if (busy < 25 || Date.now() > until) return busy;
    await sleep(7000);
  }
}

const sides = [
  { label: 'A', ...unpack(baseRef) },
  { label: 'B', ...unpack(headRef) },
];
const rows: string[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  for (const side of sides) {
    const busy = await quiet();
    console.error(`[ab] round ${round}: ${side.label} (${side.sha}); machine ${busy} % busy before`);
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/moves/run.ts'], {
      cwd: side.dir,
      env: { SKIP_OPEN: '1', PEERS: 'colyseus', ...process.env },
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.status !== 0) throw new Error(`${side.label} (${side.sha}) failed (${run.status})`);
    const out = run.stdout.toString();
    fs.writeFileSync(path.join(side.dir, `ab-${side.label}-${round}.json`), out);
    const r = JSON.parse(out.slice(out.indexOf('{'))) as Figures;
    const cpu = r.cpuUsPerMove;
    rows.push(
      `| ${round} | ${side.label} ${side.sha} | ${cpu.closedLoop.server} | ${cpu.closedLoop.postgres} | ${cpu.closedLoop.loadGenerator} | ` +
        `${r.closedLoop.movesPerSec} | ${r.closedLoop.p99ms} | ${cpu.colyseus?.server ?? '–'} | ${r.closedLoopVsColyseus?.serverAndPostgresOverServer ?? '–'} | ${r.closedLoop.otherCpuPct} |`,
    );
    console.error(rows.at(-1));
  }
}
console.log(
  [
    '| round | commit | server µs/move | PostgreSQL µs/move | load generator µs/move | moves/s | p99 ms | Colyseus server µs/move | (server + PostgreSQL) / Colyseus server | other CPU % |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n'),
);
