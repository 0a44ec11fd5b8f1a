// Large workspaces (issue 23): 200 generated specs of 50 paths each (parameters, $refs to component
// schemas, request bodies; deterministic), served by the built gateway (dist/) in a child process.
// Prints, in one run: time and CPU to readiness (CPU per path, also net of an empty workspace's start),
// RSS at readiness and at its peak during a full reload (every spec changed), time until one changed
// spec is served, and a route's requests/s against the same route in a one-spec workspace.
// Last, when PRISM_CLI names the binary of `prism mock` (installed outside the repository), the same paths as one
// spec: time to the first answer of the gateway and of Prism (skipped, with a message, without PRISM_CLI).
// Run: npm run build:server && node bench/large-workspace.mjs   (BENCH_SPECS, BENCH_PATHS to resize;
// BENCH_SKIP_ROUTE=true leaves out the requests/s comparison, BENCH_ONLY_PRISM=true runs only the Prism comparison)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatCount, mean, measureAlternately } from './lib/load.mjs';
import { startServer } from './lib/servers.mjs';
import { gatewayEnv } from './lib/workspace.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const gatewayScript = path.join(root, 'bench/lib/gateway-server.mjs');
// The generator is TypeScript shared with the tests; tsx loads it.
(await import('tsx/esm/api')).register();
const { generatedSpec, specName, writeGeneratedSpecs } = await import(
  path.join(root, 'server/src/test-support/generated-specs.ts')
);

const specCount = Number(process.env.BENCH_SPECS ?? 200);
const pathCount = Number(process.env.BENCH_PATHS ?? 50);
const durationSec = Number(process.env.BENCH_DURATION ?? 10);
const warmupSec = Number(process.env.BENCH_WARMUP ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const deadlineMs = 120_000;

function workspace(specs, revision = 0) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-large-'));
  fs.mkdirSync(path.join(dir, 'handlers'));
  const files = writeGeneratedSpecs(path.join(dir, 'specs'), specs, pathCount, revision);
  return { dir, files, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Resident and peak resident memory of a process, in MB (Linux). */
function memoryOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

/** Resets the kernel's peak-RSS mark of `pid`, so VmHWM then reports the peak of what follows. */
function resetPeak(pid) {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

const cpuMs = (cpu) => (cpu.user + cpu.system) / 1000;

async function startTimed(dir) {
  const started = performance.now();
  const server = await startServer(gatewayScript, gatewayEnv(dir));
  return { server, readyMs: performance.now() - started, cpuMs: cpuMs(await server.cpuUsage()) };
}

/** Posts a refresh and waits until `check()` is true; returns the ms it took and the refresh's status. */
async function refreshUntil(server, check) {
  const started = performance.now();
  const refresh = await (await fetch(`${server.origin}/api/adaptive/actuator/refresh`, { method: 'POST' })).json();
  while (!(await check())) {
    if (performance.now() - started > deadlineMs) throw new Error(`not served within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { ms: performance.now() - started, status: refresh.status };
}

const itemUrl = (server, index) => `${server.origin}/api/adaptive/${specName(index)}/${specName(index)}-res0/7`;
const servedRevision = async (server, index) => {
  const response = await fetch(itemUrl(server, index));
  return response.ok ? (await response.json()).name : `status ${response.status}`;
};

async function loadAndReload() {
  const paths = specCount * pathCount;
  const empty = workspace(0);
  const large = workspace(specCount);
  const bytes = large.files.reduce((sum, file) => sum + fs.statSync(file).size, 0);
  console.log(
    `large workspace: ${specCount} specs x ${pathCount} paths = ${formatCount(paths)} paths, ` +
      `${(bytes / 1e6).toFixed(1)} MB of YAML`,
  );
  const baseline = await startTimed(empty.dir);
  await baseline.server.stop();
  const { server, readyMs, cpuMs: readyCpu } = await startTimed(large.dir);
  try {
    const atReady = memoryOf(server.pid);
    const netCpu = readyCpu - baseline.cpuMs;
    console.log(
      `  readiness: ${(readyMs / 1000).toFixed(2)} s, CPU ${(readyCpu / 1000).toFixed(2)} s = ` +
        `${(readyCpu / paths).toFixed(3)} ms/path (net of an empty workspace's start, ` +
        `${(baseline.cpuMs / 1000).toFixed(2)} s: ${(netCpu / paths).toFixed(3)} ms/path; target <= 0.5)`,
    );
    console.log(`  RSS at readiness ${atReady.rss.toFixed(0)} MB (peak so far ${atReady.peak.toFixed(0)} MB)`);

    const peakReset = resetPeak(server.pid);
    let sampledPeak = 0;
    const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, memoryOf(server.pid).rss)), 20);
    writeGeneratedSpecs(path.join(large.dir, 'specs'), specCount, pathCount, 1);
    const cpuBefore = cpuMs(await server.cpuUsage());
    const full = await refreshUntil(server, async () => (await servedRevision(server, 0)) === 'Example r1');
    clearInterval(sampler);
    const fullCpu = cpuMs(await server.cpuUsage()) - cpuBefore;
    const peak = peakReset ? Math.max(memoryOf(server.pid).peak, sampledPeak) : sampledPeak;
    console.log(
      `  full reload (every spec changed): ${(full.ms / 1000).toFixed(2)} s, CPU ${(fullCpu / 1000).toFixed(2)} s, ` +
        `${full.status}; peak RSS ${peak.toFixed(0)} MB (target < 600)`,
    );

    const one = Math.floor(specCount / 2);
    fs.writeFileSync(large.files[one], generatedSpec(one, pathCount, 2));
    const singleCpuBefore = cpuMs(await server.cpuUsage());
    const single = await refreshUntil(server, async () => (await servedRevision(server, one)) === 'Example r2');
    const singleCpu = cpuMs(await server.cpuUsage()) - singleCpuBefore;
    console.log(
      `  one changed spec served after ${single.ms.toFixed(0)} ms, CPU ${singleCpu.toFixed(0)} ms ` +
        `(refresh included; target < 1000)`,
    );

    const unchanged = await refreshUntil(server, async () => true);
    console.log(`  refresh with nothing changed: ${unchanged.ms.toFixed(0)} ms`);
    await documentAfterReloads(server, large, one);
    await healthCall(server);
  } finally {
    await server.stop();
    empty.remove();
  }
  return large;
}

/** Fetches `url` with a cheap route requested in a loop beside it: time, server CPU, the route's slowest answer. */
async function besideRoute(server, url) {
  let done = false;
  const beside = [];
  const pinging = (async () => {
    while (!done) {
      const started = performance.now();
      await (await fetch(itemUrl(server, 0))).arrayBuffer();
      beside.push(performance.now() - started);
    }
  })();
  const cpuBefore = cpuMs(await server.cpuUsage());
  const started = performance.now();
  const bytes = (await (await fetch(url)).arrayBuffer()).byteLength;
  const ms = performance.now() - started;
  const cpu = cpuMs(await server.cpuUsage()) - cpuBefore;
  done = true;
  await pinging;
  return (
    `${ms.toFixed(0)} ms, server CPU ${cpu.toFixed(0)} ms, ${(bytes / 1e6).toFixed(1)} MB; ` +
    `a route beside it answered in at most ${Math.max(...beside).toFixed(0)} ms`
  );
}

/**
 * The merged openapi.json as the workbench's docs panel asks for it after every save: first after the full
 * reload (every part made), then after a reload of one changed spec (the unchanged specs' parts kept).
 */
async function documentAfterReloads(server, large, one) {
  const documentUrl = `${server.origin}/api/adaptive/openapi.json`;
  console.log(`  openapi.json after the full reload: ${await besideRoute(server, documentUrl)}`);
  fs.writeFileSync(large.files[one], generatedSpec(one, pathCount, 3));
  await refreshUntil(server, async () => (await servedRevision(server, one)) === 'Example r3');
  console.log(`  openapi.json after a one-spec reload: ${await besideRoute(server, documentUrl)}`);
}

/** `GET /api/health` once the merged document is built, as the workbench's health panel polls it every 5 s. */
async function healthCall(server) {
  const cpuBefore = cpuMs(await server.cpuUsage());
  const started = performance.now();
  const status = (await fetch(`${server.origin}/api/health`)).status;
  const ms = performance.now() - started;
  const cpu = cpuMs(await server.cpuUsage()) - cpuBefore;
  console.log(`  GET /api/health: ${status} in ${ms.toFixed(0)} ms, server CPU ${cpu.toFixed(0)} ms`);
}

async function routeThroughput(large) {
  const index = Math.floor(specCount / 2);
  const alone = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-one-spec-'));
  fs.mkdirSync(path.join(alone, 'handlers'));
  fs.mkdirSync(path.join(alone, 'specs'));
  fs.copyFileSync(large.files[index], path.join(alone, 'specs', path.basename(large.files[index])));
  const big = await startServer(gatewayScript, gatewayEnv(large.dir));
  const small = await startServer(gatewayScript, gatewayEnv(alone));
  try {
    const route = `/api/adaptive/${specName(index)}/${specName(index)}-res10/7`;
    const targets = [
      { label: `${specCount}-spec workspace`, server: big, url: big.origin + route, runs: [] },
      { label: 'one-spec workspace', server: small, url: small.origin + route, runs: [] },
    ];
    console.log(`route GET ${route}: ${connections} connections, ${durationSec} s per run, 2 alternating rounds`);
    await measureAlternately(targets, { connections, durationSec, warmupSec, rounds: 2 }, (label, r) =>
      console.log(
        `  ${label.padEnd(24)} ${formatCount(r.requestsPerSec).padStart(8)} req/s, ` +
          `${r.cpuUsPerRequest.toFixed(1)} µs CPU/req, non-2xx ${r.non2xx}`,
      ),
    );
    const [a, b] = targets.map((t) => ({
      rps: mean(t.runs.map((r) => r.requestsPerSec)),
      cpu: mean(t.runs.map((r) => r.cpuUsPerRequest)),
    }));
    console.log(
      `  ratio large / one-spec: ${(a.rps / b.rps).toFixed(2)}x requests/s, ${(b.cpu / a.cpu).toFixed(2)}x by CPU ` +
        `per request (target 0.95x or better)`,
    );
  } finally {
    await Promise.all([big.stop(), small.stop()]);
    fs.rmSync(alone, { recursive: true, force: true });
  }
}

/** A free loopback port (listened on and released). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Milliseconds from `started` until `url` answers 2xx (polled every 50 ms), or an error past the deadline. */
async function firstAnswer(url, started, exited, deadline = deadlineMs) {
  while (performance.now() - started < deadline) {
    if (exited()) throw new Error('the server exited before answering');
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no answer within ${deadline} ms`);
}

/**
 * The same 10,000 paths as ONE spec, served by `prism mock` (PRISM_CLI: the path of its binary, installed outside the
 * repository; it is never a dependency) and by the gateway: time from start to the first 2xx answer of an item route.
 */
async function prismComparison() {
  const prism = process.env.PRISM_CLI;
  if (!prism) {
    console.log(
      'prism comparison: skipped (set PRISM_CLI to the prism binary, e.g. /tmp/prism/node_modules/.bin/prism)',
    );
    return;
  }
  const paths = specCount * pathCount;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-one-large-spec-'));
  fs.mkdirSync(path.join(dir, 'handlers'));
  fs.mkdirSync(path.join(dir, 'specs'));
  const file = path.join(dir, 'specs', `${specName(0)}.yaml`);
  fs.writeFileSync(file, generatedSpec(0, paths));
  const route = `/${specName(0)}-res0/7`;
  console.log(
    `one spec of ${formatCount(paths)} paths (${(fs.statSync(file).size / 1e6).toFixed(1)} MB), first answer:`,
  );
  try {
    const started = performance.now();
    const ours = await startServer(gatewayScript, gatewayEnv(dir));
    try {
      // The gateway reports its port once the workspace has loaded: a route it does not serve then never comes.
      const readyMs = performance.now() - started;
      const url = `${ours.origin}/api/adaptive/${specName(0)}${route}`;
      const ms = await firstAnswer(url, started, () => false, readyMs + 5000);
      console.log(
        `  gateway      ${(ms / 1000).toFixed(2)} s (CPU ${(cpuMs(await ours.cpuUsage()) / 1000).toFixed(2)} s)`,
      );
    } finally {
      await ours.stop();
    }
    const port = await freePort();
    const prismStarted = performance.now();
    const child = spawn(prism, ['mock', '-h', '127.0.0.1', '-p', String(port), file], { stdio: 'ignore' });
    try {
      const ms = await firstAnswer(`http://127.0.0.1:${port}${route}`, prismStarted, () => child.exitCode !== null);
      console.log(`  prism mock   ${(ms / 1000).toFixed(2)} s`);
    } finally {
      child.kill('SIGTERM');
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env.BENCH_ONLY_PRISM !== 'true') {
  const large = await loadAndReload();
  try {
    if (process.env.BENCH_SKIP_ROUTE !== 'true') await routeThroughput(large);
  } finally {
    large.remove();
  }
}
await prismComparison();
