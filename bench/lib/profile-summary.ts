// Where a V8 CPU profile (BENCH_PROF=dir: node --cpu-prof) spent its self time: top functions,
// and totals by file and by package, as % of the busy samples kept; then our own functions' total
// time (with their callees), to see what a path costs as a whole.
//
//   npx tsx bench/lib/profile-summary.ts dir/CPU.*.cpuprofile [--last SECONDS] [--top N]
// --last keeps the profile's last SECONDS only (the measured phase, not start-up and set-up).
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i < 0 ? fallback : Number(args.splice(i, 2)[1]);
};
const last = option('--last', Infinity);
const top = option('--top', 30);
const file = args[0];
if (!file) throw new Error('usage: profile-summary.ts FILE.cpuprofile [--last SECONDS] [--top N]');

const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));

/** Where a script lives, shortened: a package's name, or the repository path. */
function place(url: string): { file: string; pkg: string } {
  if (!url) return { file: '(native/vm)', pkg: '(native/vm)' };
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + 'node_modules/'.length).split('/');
    const pkg = rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
    return { file: `${pkg}/${rest.slice(pkg.split('/').length).join('/')}`, pkg };
  }
  if (path.startsWith('node:')) return { file: path, pkg: 'node (core)' };
  const repo = path.replace(/^.*?\/(apps|packages|bench)\//, '$1/');
  return { file: repo, pkg: repo.split('/').slice(0, 2).join('/') };
}

// Sample times from the deltas; keep the last `last` seconds.
const times: number[] = [];
let t = profile.startTime;
for (const delta of profile.timeDeltas) times.push((t += delta));
const from = Number.isFinite(last) ? profile.endTime - last * 1e6 : -Infinity;

const parents = new Map<number, number>();
for (const n of profile.nodes) for (const child of n.children ?? []) parents.set(child, n.id);

const nameOf = (frame: ProfileNode['callFrame']) => {
  const where = place(frame.url);
  return `${frame.functionName || '(anonymous)'}  ${where.file}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
};

const byFunction = new Map<string, number>();
/** Inclusive time of our own functions (apps/, packages/): each counted once per sample it is on the stack of. */
const ownTotal = new Map<string, number>();
const byFile = new Map<string, number>();
const byPackage = new Map<string, number>();
let kept = 0;
for (let i = 0; i < profile.samples.length; i++) {
  if (times[i]! < from) continue;
  const node = nodes.get(profile.samples[i]!)!;
  const frame = node.callFrame;
  if (frame.functionName === '(idle)') continue;
  kept++;
  const where = place(frame.url);
  const name = nameOf(frame);
  byFunction.set(name, (byFunction.get(name) ?? 0) + 1);
  const onStack = new Set<string>();
  for (let id: number | undefined = node.id; id !== undefined; id = parents.get(id)) {
    const f = nodes.get(id)!.callFrame;
    if (/\/(apps|packages)\//.test(f.url) && !f.url.includes('node_modules')) onStack.add(nameOf(f));
  }
  for (const key of onStack) ownTotal.set(key, (ownTotal.get(key) ?? 0) + 1);
  byFile.set(where.file, (byFile.get(where.file) ?? 0) + 1);
  byPackage.set(where.pkg, (byPackage.get(where.pkg) ?? 0) + 1);
}

const pct = (n: number) => `${((100 * n) / kept).toFixed(1).padStart(5)} %`;
const print = (title: string, map: Map<string, number>, n: number) => {
  console.log(`\n${title}`);
  for (const [key, count] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`${pct(count)}  ${key}`);
};
const idle = profile.samples.filter((id, i) => times[i]! >= from && nodes.get(id)!.callFrame.functionName === '(idle)').length;
console.log(
  `${file}: ${kept} busy samples (${idle} idle) over ${Math.min(last, (profile.endTime - profile.startTime) / 1e6).toFixed(1)} s`,
);
print('Self time by function', byFunction, top);
print('Self time by file', byFile, top);
print('Self time by package', byPackage, 20);
print('Total time (self and callees) of our own functions', ownTotal, top);
