import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { startNodeFlags } from './start-flags.ts';

it("npm start's node flags are read from package.json, and this Node.js takes them", () => {
  const flags = startNodeFlags();
  // docs/decisions.md, "The server sizes the collector's generations".
  expect(flags).toEqual(['--max-semi-space-size=32', '--heap-growing-percent=300']);
  // An option Node.js does not know ends it at once ("bad option", exit 9): `npm start` would not start.
  const run = spawnSync(process.execPath, [...flags, '-e', 'process.exit(0)'], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
});
