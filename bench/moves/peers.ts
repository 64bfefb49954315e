// The peers bench/moves sets beside our closed loop, each on its own server with the same
// workload (two players, alternating turns, an endless closed loop) and nothing in a database:
// boardgame.io and Colyseus, from shared/peers/<name> beside the checkout, copied under /tmp and installed there
// on first use (the shared copies are read-only). Each prints one JSON line (their README:
// moves/s, p50/p90/p99, server and client CPU %); from it come CPU per move by process.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../apps/server/src/test/free-port.ts';
import { loadavg } from '../lib/cpu.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
// Beside the checkout (/work/main → /work/shared) or beside its worktrees' folder (/work/wt/x); PEERS_DIR overrides.
const SHARED =
  process.env.PEERS_DIR ??
  ['../../../shared/peers', '../../../../shared/peers'].map((p) => path.resolve(here, p)).find((p) => fs.existsSync(p)) ??
  path.resolve(here, '../../../shared/peers');
const COPIES = '/tmp/versus-bench';

export type PeerName = 'boardgameio' | 'colyseus';

interface PeerSpec {
  label: string;
  /** A path under the copy that exists once it is installed. */
  installed: string[];
  /** `npm ci` where a lock file pins the versions. */
  install: string[];
}

const SPECS: Record<PeerName, PeerSpec> = {
  boardgameio: { label: 'boardgame.io', installed: ['node_modules/boardgame.io'], install: ['install'] },
  colyseus: { label: 'Colyseus', installed: ['node_modules/@colyseus/core', 'node_modules/colyseus.js'], install: ['ci'] },
};

/** CPU per move (µs) of a peer: its server's and its load generator's (one client process). */
export interface PeerCpu {
  server: number;
  loadGenerator: number;
  total: number;
}

export interface PeerRun {
  peer: string;
  movesPerSec: number;
  p50ms: number;
  p99ms: number;
  serverCpuPct: number;
  clientCpuPct: number;
  cpuUsPerMove: PeerCpu;
  [key: string]: unknown;
}

/** Which peers to run: PEERS (comma list, default both); none with SKIP_PEER=1. */
export function peersToRun(env: NodeJS.ProcessEnv): PeerName[] {
  if (env.SKIP_PEER === '1') return [];
  const names = (env.PEERS ?? 'boardgameio,colyseus')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) if (!(name in SPECS)) throw new Error(`PEERS: unknown peer ${name} (boardgameio, colyseus)`);
  return names as PeerName[];
}

export const peerLabel = (name: PeerName) => SPECS[name].label;

function ensureInstalled(name: PeerName, log: (...parts: unknown[]) => void): string {
  const spec = SPECS[name];
  const copy = path.join(COPIES, name);
  if (spec.installed.every((p) => fs.existsSync(path.join(copy, p)))) return copy;
  fs.rmSync(copy, { recursive: true, force: true });
  fs.mkdirSync(COPIES, { recursive: true });
  fs.cpSync(path.join(SHARED, name), copy, { recursive: true, filter: (src) => !src.includes('node_modules') });
  // The shared files are read-only; npm writes node_modules and may touch the lock file.
  execFileSync('chmod', ['-R', 'u+w', copy]);
  log(`installing ${spec.label} in`, copy);
  // npm talks on stderr: stdout carries the result line only.
  execFileSync('npm', [...spec.install, '--no-audit', '--no-fund'], { cwd: copy, stdio: ['ignore', 2, 2] });
  return copy;
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/**
 * Runs a peer's own harness (run.sh: its server, its load generator, closed loop) with MATCHES
 * matches for SECONDS seconds, on a free port, and reads its result line. `extraEnv`: the peer's
 * own settings (Colyseus's PATCH_RATE).
 */
export async function runPeer(
  name: PeerName,
  settings: { matches: number; seconds: number; warmup: number },
  extraEnv: Record<string, string>,
  log: (...parts: unknown[]) => void,
): Promise<PeerRun> {
  const spec = SPECS[name];
  const copy = ensureInstalled(name, log);
  const port = await freePort();
  const own = Object.entries(extraEnv)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  log(`${spec.label}: MATCHES=${settings.matches} SECONDS=${settings.seconds} ${own}`.trim());
  const loadAverageAtStart = loadavg();
  const run = spawnSync('bash', [path.join(copy, 'run.sh')], {
    cwd: copy,
    env: {
      ...process.env,
      ...extraEnv,
      MATCHES: String(settings.matches),
      SECONDS: String(settings.seconds),
      WARMUP: String(settings.warmup),
      PORT: String(port),
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  process.stderr.write(run.stderr);
  if (run.status !== 0) throw new Error(`${spec.label} run failed (${run.status})`);
  const result = jsonLines(run.stdout.toString()).at(-1);
  if (!result) throw new Error(`${spec.label} printed no result`);
  // boardgame.io prints its CPU shares only on its stderr diagnostics line; Colyseus on both.
  const diagnostics =
    jsonLines(run.stderr.toString())
      .filter((l) => l.diagnostics)
      .at(-1) ?? {};
  const serverCpuPct = Number(result.serverCpuPct ?? diagnostics.serverCpuPct);
  const clientCpuPct = Number(result.clientCpuPct ?? diagnostics.clientCpuPct);
  const movesPerSec = Number(result.movesPerSec);
  // CPU % of one core over the window, per move delivered in it: µs per move.
  const per = (pct: number) => Math.round((pct * 1e4) / movesPerSec);
  const cpu = { server: per(serverCpuPct), loadGenerator: per(clientCpuPct) };
  return {
    ...result,
    peer: typeof result.peer === 'string' ? result.peer : name,
    movesPerSec,
    p50ms: Number(result.p50ms),
    p99ms: Number(result.p99ms),
    serverCpuPct,
    clientCpuPct,
    cpuUsPerMove: { ...cpu, total: cpu.server + cpu.loadGenerator },
    ...(diagnostics.rejected === undefined ? {} : { rejected: diagnostics.rejected }),
    ...(diagnostics.stalledMatchesAtEnd === undefined ? {} : { stalledMatchesAtEnd: diagnostics.stalledMatchesAtEnd }),
    loadAverageAtStart,
  };
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Our closed loop over a peer's closed loop (both saturated): moves/s, p99, and CPU per move by
 * part. `serverAndPostgresOverServer` is ours (server + PostgreSQL, what a durable move costs)
 * over the peer's server (an in-memory relay): issue 26's goal is ≤ 2 against Colyseus, aim ≤ 1.
 */
export function closedLoopVs(
  ours: { movesPerSec: number; p99ms: number; cpuUsPerMove: { server: number; postgres: number; loadGenerator: number; total: number } },
  peer: PeerRun,
) {
  const cpu = ours.cpuUsPerMove;
  return {
    movesPerSec: round(ours.movesPerSec / peer.movesPerSec),
    p99: round(ours.p99ms / peer.p99ms, 3),
    serverCpu: round(cpu.server / peer.cpuUsPerMove.server),
    serverAndPostgresOverServer: round((cpu.server + cpu.postgres) / peer.cpuUsPerMove.server),
    loadGeneratorCpu: round(cpu.loadGenerator / peer.cpuUsPerMove.loadGenerator),
    totalCpu: round(cpu.total / peer.cpuUsPerMove.total),
  };
}
