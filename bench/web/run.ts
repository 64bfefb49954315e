// The web budget (issue #9): JavaScript shipped for the landing route and for the whole app, in
// the bytes the server actually sends (Versus: the build's brotli copies; the bare page: brotli
// made on the fly at the same quality), and the first contentful paint in headless Chromium with
// a 4x-throttled CPU, next to a bare Vite + React page built and measured in the same run.
// Run after `npm run build`:  npx tsx bench/web/run.ts   (BENCH_RUNS=5 by default)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../apps/web/e2e/chromium.ts';

const root = path.resolve(import.meta.dirname, '../..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CPU_SLOWDOWN = Number(process.env.BENCH_CPU_SLOWDOWN ?? 4);
const LANDING_BUDGET_KB = 150;

const brotli = (bytes: Buffer): Buffer => zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } });
const kb = (bytes: number): string => (bytes / 1024).toFixed(1);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Every .js file under `dir` as a browser taking br receives it: its .br copy when the build
 * made one (Versus sends that), else brotli made here (as the bare page's server does).
 */
function wholeAppJs(dir: string): { files: number; sent: number } {
  let files = 0;
  let sent = 0;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    files++;
    const file = path.join(entry.parentPath, entry.name);
    sent += fs.existsSync(`${file}.br`) ? fs.statSync(`${file}.br`).size : brotli(fs.readFileSync(file)).length;
  }
  return { files, sent };
}

/** A bare Vite + React page: the floor any React app starts from, built with the same Vite. */
async function buildBaseline(): Promise<string> {
  const dir = path.join(root, 'node_modules/.cache/bench-web-baseline');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"><title>Baseline</title></head><body><div id="root"></div><script type="module" src="/src/main.jsx"></script></body></html>',
  );
  fs.writeFileSync(
    path.join(dir, 'src/main.jsx'),
    "import { StrictMode } from 'react';\nimport { createRoot } from 'react-dom/client';\n" +
      'function App() { return <main><h1>Hello</h1><p>A bare Vite + React page.</p></main>; }\n' +
      "createRoot(document.getElementById('root')).render(<StrictMode><App /></StrictMode>);\n",
  );
  const { build } = await import('vite');
  const react = (await import('@vitejs/plugin-react')).default;
  await build({ root: dir, logLevel: 'warn', plugins: [react()], build: { outDir: path.join(dir, 'dist') } });
  return path.join(dir, 'dist');
}

/** The bare page's server: brotli (quality 11, made once per file) to a browser that takes it. */
function serveStatic(dir: string, port: number): Promise<http.Server> {
  const compressed = new Map<string, Buffer>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let file = path.join(dir, decodeURIComponent(url.pathname));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) file = path.join(dir, 'index.html');
    const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.html') ? 'text/html' : 'application/octet-stream';
    if (type !== 'application/octet-stream' && /\bbr\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      if (!compressed.has(file)) compressed.set(file, brotli(fs.readFileSync(file)));
      res.writeHead(200, { 'content-type': type, 'content-encoding': 'br', vary: 'accept-encoding' });
      res.end(compressed.get(file));
      return;
    }
    res.writeHead(200, { 'content-type': type });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

async function startVersus(port: number): Promise<() => Promise<void>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'versus-bench-web-'));
  const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      RUN_JOBS: 'false',
    },
    stdio: 'ignore',
  });
  for (const started = Date.now(); ;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 60_000) throw new Error('Versus did not start within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

interface Visit {
  fcpMs: number;
  scripts: number;
  /** Script bytes on the wire (the encoded body the server sent), headers left out. */
  scriptBytes: number;
}

/**
 * One cold visit by a signed-out visitor: a fresh context (no cache, no service worker yet),
 * CPU throttled. Counts the scripts fetched until the route's own content is on screen, before
 * the shell's 2 s preloading of likely next screens begins.
 */
async function visit(browser: Browser, url: string, ready: string): Promise<Visit> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  const bodies: Promise<number>[] = [];
  let counting = true;
  page.on('requestfinished', (request) => {
    if (!counting || request.resourceType() !== 'script') return;
    bodies.push(
      request.sizes().then(
        ({ responseBodySize: size }) => {
          if (process.env.BENCH_VERBOSE) console.log(`  ${kb(size).padStart(6)} KB  ${new URL(request.url()).pathname}`);
          return size;
        },
        () => 0,
      ),
    );
  });
  try {
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector(ready, { timeout: 30_000 });
    counting = false;
    // A string, not a function: tsx would wrap a named arrow in a helper the page does not have.
    const fcpMs = await page.evaluate<number>(`new Promise((resolve) => {
      const entry = performance.getEntriesByName('first-contentful-paint')[0];
      if (entry) return resolve(entry.startTime);
      new PerformanceObserver((list) => resolve(list.getEntries()[0].startTime)).observe({ type: 'paint', buffered: true });
    })`);
    const sizes = await Promise.all(bodies);
    return { fcpMs, scripts: sizes.length, scriptBytes: sizes.reduce((a, b) => a + b, 0) };
  } finally {
    await context.close();
  }
}

async function measure(browser: Browser, url: string, ready: string): Promise<{ fcp: number[]; scripts: number; scriptBytes: number }> {
  await visit(browser, url, ready); // warm the server's file cache; not counted
  const visits: Visit[] = [];
  for (let run = 0; run < RUNS; run++) visits.push(await visit(browser, url, ready));
  return { fcp: visits.map((v) => v.fcpMs), scripts: visits[0]!.scripts, scriptBytes: median(visits.map((v) => v.scriptBytes)) };
}

const webDist = path.join(root, 'apps/web/dist');
if (!fs.existsSync(path.join(root, 'apps/server/dist/main.js')) || !fs.existsSync(webDist)) throw new Error('Run `npm run build` first.');

const baselineDist = await buildBaseline();
const stopVersus = await startVersus(3990);
const baselineServer = await serveStatic(baselineDist, 3991);
const browser = await launchBrowser();
try {
  // The landing route shows its headline once its page chunk has run (the splash sits above it).
  const versus = await measure(browser, 'http://127.0.0.1:3990/', 'main h1');
  const baseline = await measure(browser, 'http://127.0.0.1:3991/', 'main h1');
  const app = wholeAppJs(webDist);
  const baselineApp = wholeAppJs(baselineDist);

  console.log(`CPU slowed ${CPU_SLOWDOWN}x, ${RUNS} cold visits each (median)`);
  console.log(
    `landing route JS (bytes sent, br): Versus ${kb(versus.scriptBytes)} KB in ${versus.scripts} files, bare Vite + React ${kb(baseline.scriptBytes)} KB`,
  );
  console.log(
    `  ratio ${(versus.scriptBytes / baseline.scriptBytes).toFixed(2)}x the bare page; budget ${LANDING_BUDGET_KB} KB: ${versus.scriptBytes / 1024 < LANDING_BUDGET_KB ? 'met' : 'NOT met'}`,
  );
  console.log(`whole app JS (br as sent, every chunk): Versus ${kb(app.sent)} KB in ${app.files} files, bare ${kb(baselineApp.sent)} KB`);
  console.log(
    `first contentful paint: Versus ${median(versus.fcp).toFixed(0)} ms (${versus.fcp.map((x) => x.toFixed(0)).join(', ')}), ` +
      `bare ${median(baseline.fcp).toFixed(0)} ms (${baseline.fcp.map((x) => x.toFixed(0)).join(', ')}), ratio ${(median(versus.fcp) / median(baseline.fcp)).toFixed(2)}x`,
  );
  console.log(
    JSON.stringify({
      bench: 'web',
      cpuSlowdown: CPU_SLOWDOWN,
      landingSent: versus.scriptBytes,
      baselineSent: baseline.scriptBytes,
      appSent: app.sent,
      fcpMs: versus.fcp,
      baselineFcpMs: baseline.fcp,
    }),
  );
} finally {
  await browser.close();
  baselineServer.close();
  await stopVersus();
}
