import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';

const root = fileURLToPath(new URL('.', import.meta.url));
const server = process.env.VERSUS_API ?? 'http://localhost:3000';

export default defineConfig(({ command }) => {
  // A build is always the production bundle, even when started from a test run: vitest sets
  // NODE_ENV=test, which would otherwise ship React's and the router's development builds.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    root,
    plugins: [react(), tailwindcss(), pwa(), precompress()],
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: true,
      rolldownOptions: {
        // The shared schemas are built at module level (z.object(...)): calls a bundler must
        // assume have effects. They have none, so a screen that uses no schema ships no zod.
        treeshake: { manualPureFunctions: ['z'] },
      },
    },
    server: {
      port: 5173,
      proxy: {
        '/api': { target: server, changeOrigin: true },
        '/auth': { target: server, changeOrigin: true },
        '/realtime': { target: server, ws: true, changeOrigin: true },
      },
    },
    preview: { port: 4173 },
  };
});

/**
 * The installable app (SPEC §4 PWA): the web app manifest and a generated service worker.
 * The worker precaches the app shell (index.html and the hashed assets) and answers client
 * routes with index.html when offline; the API, auth and realtime paths always go to the
 * network and nothing from them is cached. registerType 'autoUpdate': a new build's worker
 * takes over at once (skipWaiting + clientsClaim); the app then offers a Reload toast rather
 * than reloading by itself. Registered from the app (features/pwa) in production builds only.
 */
function pwa() {
  return VitePWA({
    registerType: 'autoUpdate',
    injectRegister: false,
    manifest: {
      id: '/',
      name: 'Versus',
      short_name: 'Versus',
      description: 'Stake credits on head-to-head challenges. Compete. Win. Earn.',
      theme_color: '#09080f',
      background_color: '#09080f',
      display: 'standalone',
      orientation: 'portrait',
      start_url: '/',
      scope: '/',
      categories: ['games', 'entertainment'],
      icons: [
        { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/maskable-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
      share_target: { action: '/share', method: 'GET', params: { title: 'title', text: 'text', url: 'url' } },
      // Not in the plugin's manifest type yet; browsers read it from the JSON.
      ...({ protocol_handlers: [{ protocol: 'web+versus', url: '/handle-protocol?url=%s' }] } as object),
    },
    workbox: {
      globPatterns: ['**/*.{js,css,html,svg,png,ico,woff2}'],
      navigateFallback: '/index.html',
      navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/auth(\/|$)/, /^\/realtime/],
      cleanupOutdatedCaches: true,
      skipWaiting: true,
      clientsClaim: true,
      // Push notifications (public/sw-push.js): shown by the worker, a tap opens the app there.
      importScripts: ['/sw-push.js'],
      // No runtimeCaching: API answers are never cached.
    },
    devOptions: { enabled: false },
  });
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/;

/**
 * Brotli (quality 11) and gzip (level 9) copies of every text file of the build over 1 KB, the
 * service worker included, written beside it (app.js.br, app.js.gz): the server sends them as
 * they are (@fastify/static preCompressed), so no request pays for compressing. Runs after the
 * PWA plugin has written the worker; the precache lists neither copy (its patterns end in .js…).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'versus:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      sequential: true,
      order: 'post',
      async handler() {
        const files = fs
          .readdirSync(outDir, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
          .map((entry) => path.join(entry.parentPath, entry.name));
        await Promise.all(
          files.map(async (file) => {
            const bytes = fs.readFileSync(file);
            if (bytes.length < 1024) return;
            const [br, gz] = await Promise.all([
              brotli(bytes, {
                params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
              }),
              gzip(bytes, { level: 9 }),
            ]);
            fs.writeFileSync(`${file}.br`, br);
            fs.writeFileSync(`${file}.gz`, gz);
          }),
        );
      },
    },
  };
}
