// Prints the size of what the workbench page loads before any lazy chunk: the entry script, the modules
// it preloads and the stylesheets of dist/renderer/index.html, raw and gzipped.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const urls = [...html.matchAll(/(?:src|href)="\/workbench\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
let jsRaw = 0;
let jsGzip = 0;
let cssGzip = 0;
for (const url of urls) {
  const bytes = fs.readFileSync(path.join(dist, url));
  const gzipped = gzipSync(bytes, { level: 9 }).length;
  if (url.endsWith('.js')) {
    jsRaw += bytes.length;
    jsGzip += gzipped;
  } else cssGzip += gzipped;
  console.log(`  ${url}: ${(bytes.length / 1024).toFixed(1)} KiB, ${(gzipped / 1024).toFixed(1)} KiB gzipped`);
}
const lazy = fs
  .readdirSync(path.join(dist, 'assets'))
  .filter((f) => f.endsWith('.js') && !urls.includes(`assets/${f}`));
console.log(
  `Initial JS: ${(jsRaw / 1024).toFixed(1)} KiB, ${(jsGzip / 1024).toFixed(1)} KiB gzipped (target < 1536 KiB); ` +
    `initial CSS ${(cssGzip / 1024).toFixed(1)} KiB gzipped; ${lazy.length} lazy chunks and workers`,
);
