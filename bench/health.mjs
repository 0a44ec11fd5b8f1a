// Health benchmark (issue 7): /api/health latency on the example workspace, and with 30 configured
// HTTP components that each take 100 ms, against the slowest single check, in the same run.
// Prints ratios; asserts nothing.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './lib/servers.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const gatewayScript = path.join(repoRoot, 'bench/lib/gateway-server.mjs');
const checkDelayMs = 100;
const components = 30;
const samples = 20;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function latencies(url) {
  const times = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    times.push(performance.now() - started);
  }
  return times;
}

/** Runs both measurements. */
export async function run() {
  const slow = http.createServer((_request, response) => setTimeout(() => response.end('{"ok":true}'), checkDelayMs));
  await new Promise((resolve) => slow.listen(0, '127.0.0.1', resolve));
  const slowUrl = `http://127.0.0.1:${slow.address().port}/`;
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-health-'));
  const lines = ['components:', '  cluster:', '    components:'];
  for (let i = 0; i < components; i++) lines.push(`      c${i}: {http: {url: "${slowUrl}"}}`);
  fs.writeFileSync(path.join(workspace, 'health.yaml'), `${lines.join('\n')}\n`);
  const quiet = { HOT_RELOAD: 'false', LOG_LEVEL: 'warn', AUTH_ENABLED: 'false' };
  const example = await startServer(gatewayScript, { ...quiet, WORKSPACE: repoRoot });
  const configured = await startServer(gatewayScript, { ...quiet, WORKSPACE: workspace });
  try {
    await latencies(`${example.origin}/api/health`);
    const exampleTimes = await latencies(`${example.origin}/api/health`);
    const single = await latencies(slowUrl);
    const clusterTimes = await latencies(`${configured.origin}/api/health`);
    const slowest = Math.max(...single);
    console.log(`/api/health, median of ${samples} calls each`);
    console.log(`  example workspace (gateway, database, objectstore, broker): ${median(exampleTimes).toFixed(1)} ms`);
    console.log(
      `  ${components} HTTP components of ${checkDelayMs} ms each: ${median(clusterTimes).toFixed(1)} ms; ` +
        `slowest single check ${slowest.toFixed(1)} ms`,
    );
    console.log(
      `  ratio to the slowest single check: ${(median(clusterTimes) / slowest).toFixed(2)}x (target under 1.5x)`,
    );
  } finally {
    await configured.stop();
    await example.stop();
    slow.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}
