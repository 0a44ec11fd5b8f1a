import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const rendererDir = fileURLToPath(new URL('.', import.meta.url));

/**
 * The workbench UI: built into dist/renderer and served by `adaptive-gateway serve --workbench` at
 * /workbench/. `vite dev` (npm run dev:renderer) proxies the API to a server started with --workbench
 * on port 8080.
 */
export default defineConfig({
  root: rendererDir,
  base: '/workbench/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // Monaco's TypeScript worker alone is several MB; it is loaded on demand, never at start.
    chunkSizeWarningLimit: 12_000,
    sourcemap: false,
  },
  worker: { format: 'es' },
  server: {
    fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] },
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
