// Handler benchmarks (issues 3 and 11): the library handler's GET /books against bare Fastify
// answering the same JSON, and the same route as a Python handler against the TypeScript one, all
// measured in the same run with the same settings. Prints ratios; asserts nothing.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatCount, mean, measure } from './lib/load.mjs';
import { startServer } from './lib/servers.mjs';
import { scratchWorkspace } from './lib/workspace.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const gatewayScript = path.join(repoRoot, 'bench/lib/gateway-server.mjs');
const bareScript = path.join(repoRoot, 'bench/lib/bare-fastify-server.mjs');
const routePath = '/api/adaptive/library-api/books';

const env = (workspace) => ({
  WORKSPACE: workspace,
  HOT_RELOAD: 'false',
  LOG_LEVEL: 'warn',
  AUTH_ENABLED: 'false',
  QUERY_SOURCES: path.join(workspace, 'none.yaml'),
  HEALTH_CONFIG: path.join(workspace, 'none.yaml'),
});

const row = (label, m) =>
  `  ${label.padEnd(30)} ${formatCount(m.requestsPerSec).padStart(9)} req/s   p99 ` +
  `${String(m.p99Ms).padStart(4)} ms   non-2xx ${m.non2xx}   errors ${m.errors}`;

async function compare(targets, { connections, durationSec, warmupSec, rounds }) {
  for (const target of targets) await measure(target.url, { connections, durationSec: warmupSec });
  for (let round = 1; round <= rounds; round++) {
    for (const target of targets) {
      const result = await measure(target.url, { connections, durationSec });
      target.runs.push(result);
      console.log(row(`${target.label} #${round}`, result));
    }
  }
  return targets.map((t) => ({
    label: t.label,
    requestsPerSec: mean(t.runs.map((r) => r.requestsPerSec)),
    p99Ms: mean(t.runs.map((r) => r.p99Ms)),
  }));
}

/** Runs both comparisons. */
export async function run({ connections, durationSec, warmupSec }) {
  const rounds = 2;
  const tsWorkspace = scratchWorkspace({ handlers: [path.join(repoRoot, 'handlers/library_api_handler.ts')] });
  const pyWorkspace = scratchWorkspace({
    handlers: [path.join(repoRoot, 'server/src/gateway/python/fixtures/library_api_handler.py')],
  });
  const servers = [];
  try {
    const typescript = await startServer(gatewayScript, env(tsWorkspace.dir));
    servers.push(typescript);
    const probe = await fetch(typescript.origin + routePath);
    const body = await probe.text();
    if (probe.status !== 200) throw new Error(`GET ${routePath} answered ${probe.status}: ${body}`);
    const bareEnv = { BENCH_PATH: routePath, BENCH_BODY: body, BENCH_CONTENT_TYPE: probe.headers.get('content-type') };
    const bare = await startServer(bareScript, bareEnv);
    servers.push(bare);
    // A handler's answer is serialised per request, in the handler's own process.
    const bareSerializing = await startServer(bareScript, { ...bareEnv, BENCH_SERIALIZE: '1' });
    servers.push(bareSerializing);

    console.log(
      `TypeScript handler route vs bare Fastify: ${connections} connections, ${durationSec} s per run, ` +
        `${rounds} alternating rounds`,
    );
    const [handler, baseline, serializing] = await compare(
      [
        { label: 'handler GET /books', url: typescript.origin + routePath, runs: [] },
        { label: 'bare Fastify', url: bare.origin + routePath, runs: [] },
        { label: 'bare Fastify, JSON.stringify', url: bareSerializing.origin + routePath, runs: [] },
      ],
      { connections, durationSec, warmupSec, rounds },
    );
    const ratio = (peer) => (handler.requestsPerSec / peer.requestsPerSec).toFixed(2);
    console.log(
      `  ratio handler / bare Fastify: ${ratio(baseline)}x; / bare Fastify serialising per request: ` +
        `${ratio(serializing)}x (target 0.6x, the handler isolated in its own process)`,
    );

    const python = await startServer(gatewayScript, env(pyWorkspace.dir));
    servers.push(python);
    const seeded = JSON.parse(body).books;
    for (const book of seeded) {
      await fetch(python.origin + routePath, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: book.title, author: book.author }),
      });
    }
    console.log(`\nPython handler route vs the same route as a TypeScript handler (${seeded.length} books each)`);
    const [py, ts] = await compare(
      [
        { label: 'Python handler GET /books', url: python.origin + routePath, runs: [] },
        { label: 'TypeScript handler GET /books', url: typescript.origin + routePath, runs: [] },
      ],
      { connections, durationSec, warmupSec, rounds },
    );
    console.log(`  ratio Python / TypeScript handler: ${(py.requestsPerSec / ts.requestsPerSec).toFixed(2)}x`);
  } finally {
    for (const server of servers.reverse()) await server.stop();
    tsWorkspace.remove();
    pyWorkspace.remove();
  }
}
