import react from '@vitejs/plugin-react';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const rendererDir = fileURLToPath(new URL('.', import.meta.url));

/** What is worth compressing: text (and the icon font), from 1 KiB up. */
const compressible = /\.(js|mjs|css|json|svg|ttf|wasm)$/;

/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside every compressible file of the build, which the
 * server sends instead of the file to a browser that accepts them (server/src/workbench/renderer-static.ts).
 * Done once here, at high quality, so no request pays for compression: Monaco and its workers are 15 MB.
 */
function precompress(): Plugin {
  const brotli = promisify(zlib.brotliCompress);
  const gzip = promisify(zlib.gzip);
  return {
    name: 'adaptive-workbench:precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const files = Object.keys(bundle).filter((name) => compressible.test(name));
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(options.dir!, name);
          const bytes = await fs.readFile(file);
          if (bytes.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }),
            gzip(bytes, { level: 9 }),
          ]);
          await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

/**
 * The workbench UI: built into dist/renderer and served by `adaptive-gateway serve --workbench` at
 * /workbench/. `vite dev` (npm run dev:renderer) proxies the API to a server started with --workbench
 * on port 8080.
 */
export default defineConfig({
  root: rendererDir,
  base: '/workbench/',
  plugins: [react(), precompress()],
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
