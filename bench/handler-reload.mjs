// Reload time of one changed handler file: from the save to the first request answered by the new
// code, with the built server (dist/) watching its workspace (HOT_RELOAD=true, so the watcher's
// debounce is included) in a child process. Two workspaces: the edited handler alone, and the edited
// handler beside the example workspace (library spec and handler), which a reload loads again too.
// Run: npm run build && node bench/handler-reload.mjs [saves]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './lib/servers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const saves = Number(process.argv[2] ?? 20);
const deadlineMs = 10_000;
const settleMs = 300;

const handlerSource = (version) => `import { Router, t } from 'adaptive-workbench/handler';
export const router = new Router();
router.get('/version', { response: t.Object({ version: t.Integer() }) }, () => ({ version: ${version} }));
`;

/** Saves the edited handler `saves` times and returns, per save, the ms until the new code answered. */
async function measureReloads(exampleFiles) {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-bench-reload-'));
  for (const dir of ['specs', 'handlers']) fs.mkdirSync(path.join(workspace, dir));
  for (const file of exampleFiles) fs.copyFileSync(path.join(root, file), path.join(workspace, file));
  const handlerFile = path.join(workspace, 'handlers/edited_handler.ts');
  fs.writeFileSync(handlerFile, handlerSource(0));

  const env = {
    WORKSPACE: workspace,
    HOT_RELOAD: 'true',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    HOST: '127.0.0.1',
  };
  const server = await startServer(path.join(root, 'bench/lib/gateway-server.mjs'), env);
  const url = `${server.origin}/api/adaptive/edited/version`;
  const servedVersion = async () => {
    const response = await fetch(url);
    return response.ok ? (await response.json()).version : undefined;
  };

  const timings = [];
  try {
    if ((await servedVersion()) !== 0) throw new Error('the edited handler did not load');
    for (let version = 1; version <= saves; version++) {
      const started = performance.now();
      fs.writeFileSync(handlerFile, handlerSource(version));
      while ((await servedVersion()) !== version) {
        if (performance.now() - started > deadlineMs)
          throw new Error(`version ${version} was not served within ${deadlineMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      timings.push(performance.now() - started);
      // Let the watcher settle so that each save is measured on its own.
      await new Promise((resolve) => setTimeout(resolve, settleMs));
    }
  } finally {
    await server.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
  return timings;
}

function summary(timings) {
  const sorted = [...timings].sort((a, b) => a - b);
  const n = sorted.length;
  const median = n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  const p90 = sorted[Math.min(n - 1, Math.floor(0.9 * n))];
  return {
    median,
    text:
      `median ${median.toFixed(1)} ms   min ${sorted[0].toFixed(1)} ms   p90 ${p90.toFixed(1)} ms   max ` +
      `${sorted[n - 1].toFixed(1)} ms`,
  };
}

console.log(
  `handler reload: save -> first request served by the new code (${saves} saves each, watcher debounce ` +
    `included, target < 200 ms)`,
);
const scenarios = [
  ['the edited handler alone', []],
  ['beside the library spec and handler', ['specs/library-api.openapi.yaml', 'handlers/library_api_handler.ts']],
];
for (const [name, files] of scenarios) {
  const result = summary(await measureReloads(files));
  console.log(`  ${name.padEnd(38)} ${result.text}   ${result.median < 200 ? 'met' : 'NOT met'}`);
}
