// Bundles the server into dist/main.js. Our own TypeScript (including @versus/domain) is
// compiled in; installed packages stay external and load from node_modules.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).filter((name) => !name.startsWith('@versus/'));

// Self-contained bundles side by side (no shared chunks: paths derived from import.meta.url
// must resolve to dist/ itself): the server, the template step, the operator's admin command.
const entries = { main: 'main.ts', 'make-template': 'make-template.ts', admin: 'admin/admin.cli.ts' };
for (const [name, source] of Object.entries(entries))
  await build({
    entryPoints: [path.join(here, 'src', source)],
    outfile: path.join(here, `dist/${name}.js`),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    external,
    logLevel: 'warning',
  });

// The schema: baseline, stored functions and later migrations (see src/db/migrate.ts).
for (const dir of ['schema', 'functions', 'migrations']) {
  fs.rmSync(path.join(here, 'dist', dir), { recursive: true, force: true });
  fs.cpSync(path.join(here, 'src/db', dir), path.join(here, 'dist', dir), { recursive: true });
}
// The embedded-database templates, plain and demo (see src/db/embedded-templates.ts).
execFileSync(process.execPath, [path.join(here, 'dist/make-template.js')], {
  stdio: 'inherit',
  env: { ...process.env, LOG_LEVEL: 'warn' },
});
