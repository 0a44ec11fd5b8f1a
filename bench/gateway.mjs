// Gateway benchmarks (issue 2): a generated GET route against bare Fastify answering the same JSON,
// measured in the same run with the same settings, and requests failed while the gateway reloads
// under load. Prints ratios; asserts nothing.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatCount, mean, measureAlternately, measureWhile } from './lib/load.mjs';
import { startServer } from './lib/servers.mjs';
import { gatewayEnv, scratchWorkspace } from './lib/workspace.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const gatewayScript = path.join(repoRoot, 'bench/lib/gateway-server.mjs');
const bareScript = path.join(repoRoot, 'bench/lib/bare-fastify-server.mjs');
const exampleSpec = path.join(repoRoot, 'specs/library-api.openapi.yaml');
const routePath = '/api/adaptive/library-api/books';

/**
 * The example workspace's spec alone: its generated routes, without its handlers (they would override
 * the generated route) or its query and health settings (other areas, not on this route's path).
 */
export const specWorkspace = () => scratchWorkspace({ specs: [exampleSpec] });

const row = (label, m) =>
  `  ${label.padEnd(26)} ${formatCount(m.requestsPerSec).padStart(9)} req/s   p99 ` +
  (`${String(m.p99Ms).padStart(4)} ms   server CPU ${m.cpuUsPerRequest.toFixed(1).padStart(5)} µs/req   non-2xx ` +
    `${m.non2xx}   errors ${m.errors}`);

/**
 * Generated route vs bare Fastify answering the gateway's first body: warm-up, then a, b, a, b with
 * the same settings. `env` adds gateway settings (a mock mode), `label` and `target` name the run.
 */
export async function throughput({
  connections,
  durationSec,
  warmupSec,
  rounds,
  workspace,
  env = {},
  label = 'gateway (generated route)',
  target = 0.85,
}) {
  const gateway = await startServer(gatewayScript, { ...gatewayEnv(workspace.dir), ...env });
  let bare;
  try {
    const probe = await fetch(gateway.origin + routePath);
    const body = await probe.text();
    if (probe.status !== 200) throw new Error(`GET ${routePath} answered ${probe.status}: ${body}`);
    bare = await startServer(bareScript, {
      BENCH_PATH: routePath,
      BENCH_BODY: body,
      BENCH_CONTENT_TYPE: probe.headers.get('content-type'),
    });
    const targets = [
      { label, server: gateway, url: gateway.origin + routePath, runs: [] },
      { label: 'bare Fastify', server: bare, url: bare.origin + routePath, runs: [] },
    ];
    console.log(
      `gateway throughput: ${connections} connections, ${durationSec} s per run, ${warmupSec} s warm-up each, ` +
        `${rounds} alternating rounds`,
    );
    await measureAlternately(targets, { connections, durationSec, warmupSec, rounds }, (label, result) =>
      console.log(row(label, result)),
    );
    const [a, b] = targets.map((t) => ({
      requestsPerSec: mean(t.runs.map((r) => r.requestsPerSec)),
      p99Ms: mean(t.runs.map((r) => r.p99Ms)),
      cpuUsPerRequest: mean(t.runs.map((r) => r.cpuUsPerRequest)),
    }));
    const ratio = a.requestsPerSec / b.requestsPerSec;
    const cpuRatio = b.cpuUsPerRequest / a.cpuUsPerRequest;
    console.log(
      `  mean: gateway ${formatCount(a.requestsPerSec)} req/s (p99 ${a.p99Ms} ms, ` +
        (`${a.cpuUsPerRequest.toFixed(1)} µs CPU/req), bare Fastify ${formatCount(b.requestsPerSec)} req/s (p99 ` +
          `${b.p99Ms} ms, ${b.cpuUsPerRequest.toFixed(1)} µs CPU/req)`),
    );
    console.log(
      `  ratio ${label} / bare Fastify: ${ratio.toFixed(2)}x requests/s (target ${target}x or better; Prism ` +
        `~0.26x, Mockoon ~0.03x on static examples)`,
    );
    console.log(
      `  ratio by server CPU per request (bare / gateway): ${cpuRatio.toFixed(2)}x (less sensitive to other ` +
        `load on the machine)`,
    );
    return { gateway: a, bare: b, ratio, cpuRatio };
  } finally {
    await bare?.stop();
    await gateway.stop();
  }
}

/**
 * `reloads` reloads while `connections` connections load the generated route: each one edits the
 * spec (the example's timestamp), posts /actuator/refresh and checks the new example is served.
 */
async function reloadUnderLoad({ connections, reloads, workspace }) {
  const specFile = workspace.file('specs', path.basename(exampleSpec));
  const original = fs.readFileSync(specFile, 'utf8');
  const marker = "timestamp: '2024-03-01T12:00:00Z'";
  if (!original.includes(marker))
    throw new Error(`${exampleSpec} no longer contains ${marker}; update bench/gateway.mjs`);
  const gateway = await startServer(gatewayScript, gatewayEnv(workspace.dir));
  try {
    console.log(
      `reload under load: ${reloads} reloads (spec edit + POST /actuator/refresh) at ${connections} connections ` +
        `on GET ${routePath}`,
    );
    const { load, outcome } = await measureWhile(gateway.origin + routePath, { connections }, async () => {
      let applied = 0;
      const problems = [];
      for (let i = 1; i <= reloads; i++) {
        const timestamp = `2024-03-01T12:${String(i).padStart(2, '0')}:00Z`;
        fs.writeFileSync(specFile, original.replace(marker, `timestamp: '${timestamp}'`));
        const refresh = await (
          await fetch(`${gateway.origin}/api/adaptive/actuator/refresh`, { method: 'POST' })
        ).json();
        if (refresh.status !== 'success')
          problems.push(`reload ${i}: ${refresh.status} ${JSON.stringify(refresh.errors)}`);
        const served = await (await fetch(gateway.origin + routePath)).json();
        if (served.timestamp === timestamp) applied++;
        else problems.push(`reload ${i}: served timestamp ${served.timestamp}, expected ${timestamp}`);
      }
      return { applied, problems };
    });
    const failed = load.non2xx + load.errors;
    console.log(
      `  ${formatCount(load.total)} requests, ${formatCount(load.requestsPerSec)} req/s, p99 ${load.p99Ms} ms`,
    );
    console.log(
      `  reloads applied: ` +
        `${outcome.applied}/${reloads}${outcome.problems.length ? ` (${outcome.problems.join('; ')})` : ''}`,
    );
    console.log(
      `  requests failed during reloads: ${failed} (non-2xx ${load.non2xx}, errors ${load.errors}, timeouts ` +
        `${load.timeouts}; target 0)`,
    );
    return { failed, total: load.total, applied: outcome.applied };
  } finally {
    await gateway.stop();
    fs.writeFileSync(specFile, original);
  }
}

/** Runs the gateway benchmarks with the given load settings; returns their numbers. */
export async function run({ connections = 50, durationSec = 10, warmupSec = 3, rounds = 2, reloads = 20 } = {}) {
  const workspace = specWorkspace();
  try {
    const speed = await throughput({ connections, durationSec, warmupSec, rounds, workspace });
    const reload = await reloadUnderLoad({ connections, reloads, workspace });
    return { ...speed, reload };
  } finally {
    workspace.remove();
  }
}
