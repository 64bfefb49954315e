// The Node.js flags `npm start` gives the server (package.json's start script): the benches run their servers with them.
import fs from 'node:fs';

export function startNodeFlags(): string[] {
  const packageJson = fs.readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8');
  const start = (JSON.parse(packageJson) as { scripts: { start: string } }).scripts.start;
  const flags = /\bnode((?: --\S+)*) /.exec(start)?.[1];
  if (flags === undefined) throw new Error(`package.json's start script runs no node: ${start}`);
  return flags.split(' ').filter(Boolean);
}
