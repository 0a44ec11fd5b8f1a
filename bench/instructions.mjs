#!/usr/bin/env node
// Instructions per request (issues 2 and 3), counted by valgrind's callgrind: unlike requests/s and
// CPU time, the count hardly moves with what else the machine is doing, so ratios measured on a busy
// machine still mean something. Each server runs under callgrind with counting off; after a warm-up
// counting is switched on for REQUESTS requests of the same load, then read. Run after `npm run build`.
// The processes a server starts (a handler module's own process) are traced and counted with it.
//   node bench/instructions.mjs        (REQUESTS=20000, WARMUP=20000, CONNECTIONS=10)
//   ONLY=proxy node bench/instructions.mjs   (one comparison: generated, handler or proxy)
//   ONLY=observability node bench/instructions.mjs   (metrics, access log and tracing against none; only when named)
//   ONLY=contract node bench/instructions.mjs   (a handler route's contract checks against none; only when named)
//   ONLY=mock-dynamic node bench/instructions.mjs   (dynamic mock examples against bare Fastify; only when named)
//   ONLY=mock-query node bench/instructions.mjs   (`GET /books?__dynamic=true` against bare Fastify; only when named)
//   ONLY=mock-rule node bench/instructions.mjs   (`GET /books/1` chosen by a mock table's rule; only when named)
// The proxy comparison runs the upstream natively: only the proxies are counted.
// Skipped, with a message, when valgrind is not installed. Counts user-space instructions of every
// thread of the server (JIT code, V8 builtins, GC, libuv), not the kernel's.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { formatCount } from './lib/load.mjs';
import { startServer } from './lib/servers.mjs';
import { gatewayEnv, scratchWorkspace } from './lib/workspace.mjs';
import { dynamicPath, mockTable, rulePath } from './mock-dynamic.mjs';
import { pets, petstore } from './mock-modes.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const gatewayScript = path.join(repoRoot, 'bench/lib/gateway-server.mjs');
const bareScript = path.join(repoRoot, 'bench/lib/bare-fastify-server.mjs');
const mountPath = '/api/adaptive/library-api';
const routePath = `${mountPath}/books`;
const requests = Number(process.env.REQUESTS ?? 20_000);
const connections = Number(process.env.CONNECTIONS ?? 10);
const warmup = Number(process.env.WARMUP ?? 20_000);
const only = process.env.ONLY?.split(',');
const runs = (comparison) => !only || only.includes(comparison);

function hasValgrind() {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const runControl = promisify(execFile);

/** `pid` and every process below it (children of children too). */
async function processTree(pid) {
  const { stdout } = await runControl('ps', ['-e', '-o', 'pid=,ppid=']);
  const children = new Map();
  for (const line of stdout.trim().split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/**
 * One continuous load of `warmup + requests + tail` requests; counting is switched on after the
 * warm-up and the counts dumped after about `requests` more, while the load goes on: a pause between
 * warm-up and measurement lets V8 go idle, and its idle-time GCs age out the optimised code of the
 * request path, which then recompiles inside the measured window. Each control command takes effect
 * at some moment while it runs, so the window is counted from the middle of one to the middle of the
 * other (off by a few requests in tens of thousands).
 */
function countedLoad(url, serverPid, { warmup, requests, tail }) {
  let answered = 0;
  const control = async (...args) => {
    const issued = answered;
    // The server and the processes it started (handler modules), by process id: without one, callgrind_control
    // would switch and dump every callgrind run of the machine, another bench's too.
    // A child not traced (esbuild's service) refuses the command; the server itself must take it.
    const [server, ...started] = await processTree(serverPid);
    const command = (pid) => runControl('callgrind_control', [...args, String(pid)]);
    await Promise.all([command(server), ...started.map((pid) => command(pid).catch(() => undefined))]);
    return (issued + answered) / 2;
  };
  return new Promise((resolve, reject) => {
    let window;
    const instance = autocannon({ url, connections, amount: warmup + requests + tail }, (error, result) => {
      if (error) return reject(error);
      if (!window) return reject(new Error('the load ended before the measured window'));
      window.then(({ start, end }) => resolve({ requests: end - start, non2xx: result.non2xx })).catch(reject);
    });
    instance.on('response', () => {
      answered++;
      if (answered !== warmup) return;
      window = (async () => {
        await control('--instr=on');
        const start = await control('--zero');
        while (answered < start + requests) await new Promise((resolve) => setTimeout(resolve, 50));
        const end = await control('--dump');
        await control('--instr=off');
        return { start, end };
      })();
    });
  });
}

/**
 * The `summary:` (or `totals:`) lines of the callgrind dumps of a server (`pid`) and of the processes it
 * started: instructions counted, in all and in the server itself.
 */
function dumpedInstructions(dumpDir, pid) {
  const dumps = fs.readdirSync(dumpDir).filter((name) => /^cg\.\d+\./.test(name));
  let total = 0;
  let server = 0;
  for (const name of dumps) {
    const match = /^(?:summary|totals): (\d+)/m.exec(fs.readFileSync(path.join(dumpDir, name), 'utf8'));
    if (!match) continue;
    total += Number(match[1]);
    if (name.startsWith(`cg.${pid}.`)) server += Number(match[1]);
  }
  if (server === 0) throw new Error(`no callgrind dump for process ${pid}`);
  return { total, server };
}

/**
 * Instructions per request of one server on `urlPath`, counted over `requests` requests after a
 * warm-up, with the body it answers (for the bare Fastify peer to answer the same).
 */
async function instructionsPerRequest(label, script, env, urlPath = routePath) {
  const dumpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-callgrind-'));
  // Handler modules' processes are Node too; esbuild's service (Go) is not traced.
  const wrapper = [
    'valgrind',
    '-q',
    '--tool=callgrind',
    '--trace-children=yes',
    '--trace-children-skip=*esbuild*',
    '--instr-atstart=no',
    '--dump-instr=no',
    `--callgrind-out-file=${dumpDir}/cg.%p`,
  ];
  const server = await startServer(script, env, { wrapper });
  try {
    const url = server.origin + urlPath;
    const result = await countedLoad(url, server.pid, { warmup, requests, tail: requests });
    if (result.non2xx > 0) throw new Error(`${label}: ${result.non2xx} non-2xx answers`);
    const counted = dumpedInstructions(dumpDir, server.pid);
    const perRequest = counted.total / result.requests;
    const split =
      counted.server === counted.total
        ? ''
        : `   (server ${formatCount(counted.server / result.requests)}, processes it started ` +
          `${formatCount((counted.total - counted.server) / result.requests)})`;
    console.log(`  ${label.padEnd(48)} ${formatCount(perRequest).padStart(9)} instructions/request${split}`);
    const answer = await fetch(url);
    return { perRequest, body: await answer.text(), contentType: answer.headers.get('content-type') };
  } finally {
    await server.stop();
    fs.rmSync(dumpDir, { recursive: true, force: true });
  }
}

const ratio = (peer, target) => (peer.perRequest / target.perRequest).toFixed(2);
const bare = (label, answer, serialize, urlPath = routePath) =>
  instructionsPerRequest(
    label,
    bareScript,
    {
      BENCH_PATH: urlPath,
      BENCH_BODY: answer.body,
      BENCH_CONTENT_TYPE: answer.contentType,
      BENCH_SERIALIZE: serialize ? '1' : '0',
    },
    urlPath,
  );

/** The generated route of the example spec against bare Fastify answering the same body. */
async function compareGenerated(exampleSpec) {
  const specOnly = scratchWorkspace({ specs: [exampleSpec] });
  try {
    const generated = await instructionsPerRequest('gateway, generated route', gatewayScript, gatewayEnv(specOnly.dir));
    const bareGenerated = await bare('bare Fastify, same body as the generated route', generated, false);
    console.log(
      `  generated route vs bare Fastify: ${ratio(bareGenerated, generated)}x (bare / gateway instructions; ` +
        `target 1.0x)`,
    );
  } finally {
    specOnly.remove();
  }
}

/**
 * The generated route answering dynamic examples (MOCK_EXAMPLES=dynamic: a value generated and checked against the
 * schema per request) against bare Fastify answering one such value (issue 33, target 0.5x).
 */
async function compareMockDynamic(exampleSpec) {
  const specOnly = scratchWorkspace({ specs: [exampleSpec] });
  try {
    const env = { ...gatewayEnv(specOnly.dir), MOCK_EXAMPLES: 'dynamic' };
    const dynamic = await instructionsPerRequest('gateway, dynamic examples', gatewayScript, env);
    const bareDynamic = await bare('bare Fastify, one such body', dynamic, false);
    console.log(`  dynamic route vs bare Fastify: ${ratio(bareDynamic, dynamic)}x (target 0.5x)`);
  } finally {
    specOnly.remove();
  }
}

/**
 * The requests of the mock throughput bench (bench/mock-dynamic.mjs), each against bare Fastify answering one of its
 * bodies: `GET /books?__dynamic=true` (a value generated per request, chosen by the query; target 0.5x) and
 * `GET /books/1` chosen by a path rule of the spec's mock table (target 0.8x).
 */
async function compareMockChoice(exampleSpec, { label, urlPath, target, table }) {
  const specOnly = scratchWorkspace({ specs: [exampleSpec] });
  try {
    if (table) fs.writeFileSync(specOnly.file('specs', 'library-api.mock.yaml'), mockTable);
    const gateway = await instructionsPerRequest(`gateway, ${label}`, gatewayScript, gatewayEnv(specOnly.dir), urlPath);
    const bareRoute = await bare('bare Fastify, one such body', gateway, false, urlPath.split('?')[0]);
    console.log(`  ${label} vs bare Fastify: ${ratio(bareRoute, gateway)}x (target ${target}x)`);
  } finally {
    specOnly.remove();
  }
}

/** A workspace of the example spec and its handler, which overrides the spec's routes. */
const handlerWorkspace = (exampleSpec) =>
  scratchWorkspace({ specs: [exampleSpec], handlers: [path.join(repoRoot, 'handlers/library_api_handler.ts')] });

/**
 * The gateway serving `workspace` with its handlers, whose processes start and run a hundred times slower under
 * valgrind: on a busy machine a call could pass the default 10 s bound and its process be restarted.
 */
const handlerGateway = (label, workspace, env = {}) =>
  instructionsPerRequest(label, gatewayScript, {
    ...gatewayEnv(workspace.dir),
    HANDLER_LOAD_TIMEOUT_MS: '600000',
    HANDLER_TIMEOUT_MS: '600000',
    ...env,
  });

/** The example handler's route (it overrides the spec's) against bare Fastify, serialising or not. */
async function compareHandler(exampleSpec) {
  const withHandler = handlerWorkspace(exampleSpec);
  try {
    const handler = await handlerGateway('gateway, handler route (library handler)', withHandler);
    const bareHandler = await bare('bare Fastify, same body as the handler route', handler, false);
    const bareHandlerSerializing = await bare('  the same, JSON.stringify per request', handler, true);
    console.log(
      `  handler route vs bare Fastify: ${ratio(bareHandler, handler)}x; vs bare Fastify serialising per ` +
        `request as a handler does: ${ratio(bareHandlerSerializing, handler)}x (target 0.8x)`,
    );
  } finally {
    withHandler.remove();
  }
}

/**
 * A GET through the validating proxy against bare Fastify proxies through undici (bench/lib/bare-proxy-server.mjs:
 * the same header forwarding and relaying, without contract checks; one calling undici.request(), one the
 * gateway's own exchange through undici's dispatch interface), all to one upstream run natively.
 */
async function compareProxy() {
  const upstream = await startServer(bareScript, {
    BENCH_PATH: '/v1/pets',
    BENCH_BODY: JSON.stringify(pets),
    BENCH_CONTENT_TYPE: 'application/json; charset=utf-8',
  });
  const workspace = scratchWorkspace();
  try {
    fs.writeFileSync(
      workspace.file('specs', 'proxied.json'),
      petstore({ 'x-adaptive-proxy': `${upstream.origin}/v1` }),
    );
    const specFile = workspace.file('specs', 'proxied.json');
    // Served as `adaptive-gateway serve proxied.json` (mock mode, the spec at the root): without the query
    // service, whose start under callgrind can outlast Fastify's plugin timeout on a busy machine.
    const proxied = await instructionsPerRequest(
      'gateway, proxied GET (checked both ways)',
      gatewayScript,
      { ...gatewayEnv(workspace.dir), BENCH_SPEC_PATHS: specFile },
      '/pets',
    );
    const bareProxy = (client) =>
      instructionsPerRequest(
        `bare Fastify proxy, undici ${client}`,
        path.join(repoRoot, 'bench/lib/bare-proxy-server.mjs'),
        { BENCH_PATH: '/pets', BENCH_UPSTREAM: `${upstream.origin}/v1`, BENCH_CLIENT: client },
        '/pets',
      );
    const [byRequest, byDispatch] = [await bareProxy('request'), await bareProxy('dispatch')];
    console.log(
      `  proxied GET vs bare proxy: ${ratio(byRequest, proxied)}x against undici.request(), ` +
        `${ratio(byDispatch, proxied)}x against undici dispatch (target 0.8x)`,
    );
  } finally {
    workspace.remove();
    await upstream.stop();
  }
}

/** An OTLP/HTTP receiver that accepts and drops every export, for the traced run (run natively, not counted). */
async function startSink() {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

/**
 * The generated route without metrics and access log, with metrics (the default), with the access log at info
 * too, and traced at 100% sampling to a receiver (issue 35: metrics within 5% of none).
 */
async function compareObservability(exampleSpec) {
  const specOnly = scratchWorkspace({ specs: [exampleSpec] });
  const sink = await startSink();
  try {
    const base = { ...gatewayEnv(specOnly.dir), LOG_LEVEL: 'info' };
    const run = (label, env) => instructionsPerRequest(label, gatewayScript, { ...base, ...env });
    const off = await run('METRICS_ENABLED=false ACCESS_LOG=false', { METRICS_ENABLED: 'false', ACCESS_LOG: 'false' });
    const metrics = await run('metrics on, ACCESS_LOG=false', { ACCESS_LOG: 'false' });
    const logged = await run('metrics on, access log on (info)', {});
    const traced = await run('metrics, access log, traced 100%', {
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
      OTEL_TRACES_SAMPLER: 'always_on',
    });
    const more = (run) => `${((run.perRequest / off.perRequest - 1) * 100).toFixed(1)}% more`;
    console.log(
      `  against none: metrics ${more(metrics)} (target under 5%), with the access log ${more(logged)}, ` +
        `traced ${more(traced)}`,
    );
  } finally {
    sink.close();
    specOnly.remove();
  }
}

/**
 * The handler route with its answers checked against the spec (CONTRACT_ENFORCE=report, the default) and not: the
 * example handler, whose list is the same on every request (a verdict the check may reuse), and a handler whose
 * answer changes on every request (bench/lib/changing-answers/: each answer checked anew).
 */
async function compareContract(exampleSpec) {
  const handlers = {
    'the same answer each time': path.join(repoRoot, 'handlers/library_api_handler.ts'),
    'a new answer each time': path.join(repoRoot, 'bench/lib/changing-answers/library_api_handler.ts'),
  };
  for (const [answers, handler] of Object.entries(handlers)) {
    const workspace = scratchWorkspace({ specs: [exampleSpec], handlers: [handler] });
    try {
      const off = await handlerGateway(`${answers}, CONTRACT_ENFORCE=off`, workspace, { CONTRACT_ENFORCE: 'off' });
      const checked = await handlerGateway(`${answers}, CONTRACT_ENFORCE=report`, workspace);
      const more = ((checked.perRequest / off.perRequest - 1) * 100).toFixed(1);
      console.log(`  contract checks, ${answers}: ${more}% more instructions per request (target under 10%)`);
    } finally {
      workspace.remove();
    }
  }
}

if (!hasValgrind()) {
  console.log('instructions per request: skipped, valgrind is not installed (apt-get install valgrind)');
} else {
  const exampleSpec = path.join(repoRoot, 'specs/library-api.openapi.yaml');
  console.log(
    `instructions per request under callgrind: ${requests} requests at ${connections} connections, counted ` +
      `after ${warmup} requests of the same load`,
  );
  if (runs('generated')) await compareGenerated(exampleSpec);
  if (runs('handler')) await compareHandler(exampleSpec);
  if (runs('proxy')) await compareProxy();
  if (only?.includes('mock-dynamic')) await compareMockDynamic(exampleSpec);
  if (only?.includes('mock-query'))
    await compareMockChoice(exampleSpec, { label: '?__dynamic=true', urlPath: mountPath + dynamicPath, target: 0.5 });
  if (only?.includes('mock-rule'))
    await compareMockChoice(exampleSpec, {
      label: 'rule-matched',
      urlPath: mountPath + rulePath,
      target: 0.8,
      table: true,
    });
  if (only?.includes('observability')) await compareObservability(exampleSpec);
  if (only?.includes('contract')) await compareContract(exampleSpec);
}
