import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const server = process.env.VERSUS_API ?? 'http://localhost:3000';

export default defineConfig(({ command }) => {
  // A build is always the production bundle, even when started from a test run: vitest sets
  // NODE_ENV=test, which would otherwise ship React's and the router's development builds.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    root,
    plugins: [react(), tailwindcss()],
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: true,
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
