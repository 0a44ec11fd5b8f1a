// Mock benchmarks (issues 20, 33): the generated route answering dynamic examples (MOCK_EXAMPLES=dynamic:
// a value generated and checked against the schema per request) against bare Fastify answering one
// such value, and, when PRISM_CLI names the `prism` binary (installed outside the repository, never a
// dependency), against `prism mock -d` on the same spec and path, in the same run. Prints ratios; asserts nothing.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { formatCount, mean, measureAlternately } from './lib/load.mjs';
import { startServer } from './lib/servers.mjs';
import { gatewayEnv } from './lib/workspace.mjs';
import { specWorkspace, throughput } from './gateway.mjs';

const routePath = '/api/adaptive/library-api/books';
const libDir = path.join(path.dirname(new URL(import.meta.url).pathname), 'lib');

const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** `prism mock -d` of the workspace's spec; resolves once it answers the measured path. */
async function startPrism(cli, specFile) {
  const port = await freePort();
  const child = spawn(cli, ['mock', '-d', '-h', '127.0.0.1', '-p', String(port), specFile], { stdio: 'ignore' });
  // Prism serves the spec's paths at its root: the gateway's mount prefix is not part of them.
  const url = `http://127.0.0.1:${port}${routePath.slice('/api/adaptive/library-api'.length)}`;
  for (let waited = 0; waited < 60_000; waited += 250) {
    if (child.exitCode !== null) throw new Error(`prism exited with code ${child.exitCode}`);
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return { url, stop: () => child.kill('SIGTERM') };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGTERM');
  throw new Error('prism did not answer within 60 s');
}

/** Gateway (dynamic), bare Fastify and Prism (`-d`) alternately; prints the ratios by requests/s. */
async function withPrism(cli, { connections, durationSec, warmupSec, rounds }, workspace) {
  const gateway = await startServer(path.join(libDir, 'gateway-server.mjs'), {
    ...gatewayEnv(workspace.dir),
    MOCK_EXAMPLES: 'dynamic',
  });
  const probe = await fetch(gateway.origin + routePath);
  const bare = await startServer(path.join(libDir, 'bare-fastify-server.mjs'), {
    BENCH_PATH: routePath,
    BENCH_BODY: await probe.text(),
    BENCH_CONTENT_TYPE: probe.headers.get('content-type'),
  });
  const prism = await startPrism(cli, workspace.file('specs', 'library-api.openapi.yaml'));
  try {
    const targets = [
      { label: 'gateway (dynamic)', url: gateway.origin + routePath, runs: [] },
      { label: 'bare Fastify', url: bare.origin + routePath, runs: [] },
      { label: 'prism mock -d', url: prism.url, runs: [] },
    ];
    await measureAlternately(targets, { connections, durationSec, warmupSec, rounds }, (label, m) =>
      console.log(
        `  ${label.padEnd(24)} ${formatCount(m.requestsPerSec).padStart(9)} req/s  p99 ${m.p99Ms} ms  ` +
          `non-2xx ${m.non2xx}`,
      ),
    );
    const [ours, fastify, theirs] = targets.map((t) => mean(t.runs.map((r) => r.requestsPerSec)));
    console.log(
      `  gateway (dynamic) / bare Fastify: ${(ours / fastify).toFixed(2)}x (target 0.5x); ` +
        `gateway (dynamic) / prism mock -d: ${(ours / theirs).toFixed(2)}x; prism / bare Fastify: ` +
        `${(theirs / fastify).toFixed(2)}x`,
    );
  } finally {
    prism.stop();
    await bare.stop();
    await gateway.stop();
  }
}

/** Runs the dynamic-example benchmark with the given load settings; returns its numbers. */
export async function run({ connections = 50, durationSec = 10, warmupSec = 3, rounds = 2 } = {}) {
  const workspace = specWorkspace();
  try {
    const cli = process.env.PRISM_CLI;
    if (cli) return await withPrism(cli, { connections, durationSec, warmupSec, rounds }, workspace);
    console.log(
      'prism comparison: skipped (set PRISM_CLI to the prism binary, e.g. /work/peers/node_modules/.bin/prism)',
    );
    return await throughput({
      connections,
      durationSec,
      warmupSec,
      rounds,
      workspace,
      env: { MOCK_EXAMPLES: 'dynamic' },
      label: 'gateway (dynamic examples)',
      target: 0.5,
    });
  } finally {
    workspace.remove();
  }
}
