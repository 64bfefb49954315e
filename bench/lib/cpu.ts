// CPU accounting from /proc for the benches: what each process spent, so a figure per operation
// can be set beside the throughput (on a shared two-core machine, throughput alone moves with
// whatever else runs).
import fs from 'node:fs';
import os from 'node:os';

export function procStat(pid: number): { cpuSec: number; sysSec: number; rssMB: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rss = /VmRSS:\s+(\d+) kB/.exec(status);
  return {
    cpuSec: (Number(fields[11]) + Number(fields[12])) / 100,
    sysSec: Number(fields[12]) / 100,
    rssMB: rss ? Math.round(Number(rss[1]) / 102.4) / 10 : 0,
  };
}

/** Idle and total CPU time of the whole machine (jiffies), from /proc/stat. */
export function machineCpu(): { idle: number; total: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return { idle: line[3]! + line[4]!, total: line.reduce((a, b) => a + b, 0) };
}

/**
 * CPU seconds of the PostgreSQL backends serving the bench database (their process title names
 * it). Other databases on the same server (other work on this machine) are not counted; the
 * shared WAL writer and checkpointer are not either.
 */
export function postgresCpuSec(dbName: string): number {
  let total = 0;
  for (const sec of postgresBackendsCpuSec(dbName).values()) total += sec;
  return total;
}

/**
 * What the bench database's backends spent since `before` (their postgresBackendsCpuSec then):
 * one that ended meanwhile (a pool closing idle connections) is left out rather than subtracted.
 */
export function postgresCpuSecSince(dbName: string, before: Map<number, number>): number {
  let total = 0;
  for (const [pid, sec] of postgresBackendsCpuSec(dbName)) total += sec - (before.get(pid) ?? 0);
  return total;
}

/** CPU seconds of each backend serving the bench database, by pid. */
export function postgresBackendsCpuSec(dbName: string): Map<number, number> {
  const backends = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.startsWith('postgres:') || !cmdline.includes(` ${dbName} `)) continue;
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      backends.set(Number(entry), (Number(fields[11]) + Number(fields[12])) / 100);
    } catch (error) {
      // The process ended while we read it.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
  return backends;
}

/** The machine's load average over the last minute. */
export const loadavg = (): number => Number(fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

/** What each part spent over a measurement window, in CPU seconds. */
export interface CpuWindow {
  /** How long the window lasted (wall clock). */
  seconds: number;
  serverSec: number;
  /** Of which in the kernel. */
  serverSysSec: number;
  /** The server's resident memory at the window's end. */
  serverRssMB: number;
  /** The bench database's PostgreSQL backends (postgresCpuSecSince). */
  postgresSec: number;
  /** This process: the load generator. */
  loadGeneratorSec: number;
  /** Of which in the kernel. */
  loadGeneratorSysSec: number;
  /** How busy the whole machine was, every core: 0 to 1. */
  machineBusy: number;
  /** Anything but the server, its PostgreSQL backends and this process: other work on the machine. */
  otherSec: number;
}

/**
 * Starts a measurement window over the server process `serverPid`, the backends serving `dbName`,
 * this process and the whole machine; `end()` says what each spent since.
 */
export function startCpuWindow(serverPid: number, dbName: string): { end(): CpuWindow } {
  const server0 = procStat(serverPid);
  const postgres0 = postgresBackendsCpuSec(dbName);
  const own0 = process.cpuUsage();
  const machine0 = machineCpu();
  const t0 = performance.now();
  return {
    end() {
      const seconds = (performance.now() - t0) / 1000;
      const server1 = procStat(serverPid);
      const postgresSec = postgresCpuSecSince(dbName, postgres0);
      const own = process.cpuUsage(own0);
      const machine1 = machineCpu();
      const serverSec = server1.cpuSec - server0.cpuSec;
      const loadGeneratorSec = (own.user + own.system) / 1e6;
      const machineBusy = 1 - (machine1.idle - machine0.idle) / (machine1.total - machine0.total);
      return {
        seconds,
        serverSec,
        serverSysSec: server1.sysSec - server0.sysSec,
        serverRssMB: server1.rssMB,
        postgresSec,
        loadGeneratorSec,
        loadGeneratorSysSec: own.system / 1e6,
        machineBusy,
        otherSec: machineBusy * os.availableParallelism() * seconds - serverSec - postgresSec - loadGeneratorSec,
      };
    },
  };
}
