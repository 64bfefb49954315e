// A test's own HAProxy on the operator's very config (deploy/haproxy.cfg), its log parsed for each request's
// server and status and each health-check change.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.ts';

export const HAPROXY = process.env.HAPROXY_BIN ?? '/usr/sbin/haproxy';
/** The config the tests and docs/operations.md share. */
export const HAPROXY_CONFIG = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../deploy/haproxy.cfg');

/** Why HAProxy cannot run here, or null when it can. */
export function haproxyUnavailable(): string | null {
  return fs.existsSync(HAPROXY) ? null : `${HAPROXY} not installed (Debian's haproxy package; .ci/run installs it)`;
}

/** One request as HAProxy logged it (option httplog). */
export interface ProxiedRequest {
  at: number;
  server: string;
  status: number;
  request: string;
}

/** A server going DOWN or UP by its health checks, when the log line arrived (performance.now()). */
export interface StateChange {
  at: number;
  server: string;
  state: 'UP' | 'DOWN';
  reason: string;
}

export interface Proxy {
  port: number;
  /** http://127.0.0.1:port */
  http: string;
  /** ws://127.0.0.1:port/realtime */
  ws: string;
  /** The server names, in the order of `backends` (app1, app2, app3). */
  servers: string[];
  requests: ProxiedRequest[];
  changes: StateChange[];
  /** Resolves once `server` is reported `state` (now, if its last change says so). */
  until(server: string, state: 'UP' | 'DOWN', timeoutMs?: number): Promise<StateChange>;
  output(): string;
  stop(): Promise<void>;
}

export interface ProxyOptions {
  /** Each server's port on 127.0.0.1 (the config has three). */
  backends: [number, number, number];
  /** Health checks: every interMs, fall failures to go DOWN, rise successes to come back. */
  check?: { interMs: number; fall: number; rise: number };
}

const REQUEST = /^\S+ \[[^\]]+\] \S+ \S+\/(\S+) \S+ (-?\d+) .*"(.*)"$/;
const CHANGE = /Server \S+\/(\S+) is (UP|DOWN)(?:, reason: ([^,]*))?/;

export async function startHaproxy(options: ProxyOptions): Promise<Proxy> {
  const port = await freePort();
  const check = options.check ?? { interMs: 200, fall: 2, rise: 1 };
  const servers = ['app1', 'app2', 'app3'];
  const child = spawn(HAPROXY, ['-db', '-f', HAPROXY_CONFIG], {
    env: {
      ...process.env,
      VERSUS_BIND: `127.0.0.1:${port}`,
      VERSUS_APP1: `127.0.0.1:${options.backends[0]}`,
      VERSUS_APP2: `127.0.0.1:${options.backends[1]}`,
      VERSUS_APP3: `127.0.0.1:${options.backends[2]}`,
      VERSUS_CHECK_INTER: `${check.interMs}ms`,
      VERSUS_CHECK_FALL: String(check.fall),
      VERSUS_CHECK_RISE: String(check.rise),
      VERSUS_SERVED_BY: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const requests: ProxiedRequest[] = [];
  const changes: StateChange[] = [];
  const waiters = new Set<() => void>();
  let output = '';
  let partial = '';
  const read = (chunk: Buffer) => {
    const text = partial + chunk.toString();
    const lines = text.split('\n');
    partial = lines.pop() ?? '';
    const at = performance.now();
    for (const line of lines) {
      output = (output + line + '\n').slice(-200_000);
      const request = REQUEST.exec(line);
      if (request) requests.push({ at, server: request[1]!, status: Number(request[2]), request: request[3]! });
      const change = CHANGE.exec(line);
      // HAProxy may write a change twice (log and stderr): keep one.
      if (change && changes.findLast((c) => c.server === change[1])?.state !== change[2]) {
        changes.push({ at, server: change[1]!, state: change[2] as 'UP' | 'DOWN', reason: change[3] ?? '' });
      }
    }
    for (const wake of waiters) wake();
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const until = (server: string, state: 'UP' | 'DOWN', timeoutMs = 10_000) =>
    new Promise<StateChange>((resolve, reject) => {
      const look = () => {
        const last = changes.findLast((c) => c.server === server);
        if (last?.state !== state) return;
        waiters.delete(look);
        clearTimeout(timer);
        resolve(last);
      };
      const timer = setTimeout(() => {
        waiters.delete(look);
        reject(new Error(`HAProxy did not report ${server} ${state} within ${timeoutMs} ms:\n${output.slice(-3000)}`));
      }, timeoutMs);
      waiters.add(look);
      look();
    });

  const proxy: Proxy = {
    port,
    http: `http://127.0.0.1:${port}`,
    ws: `ws://127.0.0.1:${port}/realtime`,
    servers,
    requests,
    changes,
    until,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGUSR1'); // HAProxy's soft stop: lets what is in flight finish
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };

  // Up once the frontend answers and every backend has passed a check through it.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const answered = await fetch(`${proxy.http}/api/ready`).then(
      (res) => res.status,
      () => 0,
    );
    if (answered === 200 && servers.every((s) => requests.some((r) => r.server === s && r.status === 200))) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await proxy.stop();
      throw new Error(`HAProxy did not start (last answer ${answered}):\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return proxy;
}
