// What grew between two V8 heap snapshots (BENCH_HEAP_SNAPSHOT): objects by constructor, their
// count and self size, largest growth first, and per `--per N` units (sockets, matches).
//
//   npx tsx bench/lib/heap-summary.ts BEFORE.heapsnapshot AFTER.heapsnapshot [--per 2000] [--top 40]
import fs from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

/** Count and self size of the objects of each kind: "type name" (a constructor, a closure's function, a string…). */
function byKind(file: string): Map<string, { count: number; bytes: number }> {
  const { snapshot, nodes, strings } = JSON.parse(fs.readFileSync(file, 'utf8')) as Snapshot;
  const fields = snapshot.meta.node_fields;
  const types = snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const kinds = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < nodes.length; i += fields.length) {
    const type = types[nodes[i + typeAt]!]!;
    // Strings and numbers by type only: their names are their contents.
    const name =
      type === 'string' || type === 'concatenated string' || type === 'sliced string' || type === 'number'
        ? ''
        : strings[nodes[i + nameAt]!]!;
    const key = `${type} ${name.slice(0, 60)}`;
    const kind = kinds.get(key) ?? { count: 0, bytes: 0 };
    kind.count++;
    kind.bytes += nodes[i + sizeAt]!;
    kinds.set(key, kind);
  }
  return kinds;
}

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at < 0 ? fallback : Number(args.splice(at, 2)[1]);
};
const per = option('--per', 1);
const top = option('--top', 40);
const [beforeFile, afterFile] = args;
if (!beforeFile || !afterFile) throw new Error('usage: heap-summary.ts BEFORE.heapsnapshot AFTER.heapsnapshot [--per N] [--top N]');
const before = byKind(beforeFile);
const after = byKind(afterFile);
const rows = [...after].map(([key, a]) => {
  const b = before.get(key) ?? { count: 0, bytes: 0 };
  return { key, count: a.count - b.count, bytes: a.bytes - b.bytes };
});
rows.sort((x, y) => y.bytes - x.bytes);
const total = rows.reduce((sum, r) => sum + r.bytes, 0);
console.log(`grew ${(total / 1024 / per).toFixed(2)} KB per unit (${per} units); largest kinds, per unit:`);
for (const r of rows.slice(0, top)) {
  console.log(`${(r.bytes / per).toFixed(0).padStart(7)} B  ${(r.count / per).toFixed(2).padStart(7)} ×  ${r.key}`);
}
