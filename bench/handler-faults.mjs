// Handler faults that reach past the handler's process (issue 32), with the built server (dist/) in a child
// process. Another module's route is measured (p50, p99, 10 connections) with no fault, then while:
// 1. a module writes to stdout without a newline as fast as it can,
// 2. a module writes log lines as fast as it can,
// 3. a module runs eight busy-loop child processes.
// For each: the gateway's peak resident memory, the bytes of log it wrote, and whether it survived. After the
// last, the module is reloaded (its process tree must go) and the server stopped: surviving children are counted.
// Run: npm run build:server && node bench/handler-faults.mjs      (SECONDS=8 per measurement)
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { gatewayEnv, scratchWorkspace } from './lib/workspace.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const gatewayScript = path.join(root, 'bench/lib/gateway-server.mjs');
const seconds = Number(process.env.SECONDS ?? 8);
const sdk = `import { Router } from 'adaptive-workbench/handler';\nexport const router = new Router();\n`;
const busyChild =
  "require('node:child_process').spawn(process.execPath, ['-e', 'while (true) {}'], { stdio: 'ignore' })";

const handlers = {
  'other_handler.ts': `${sdk}router.get('/ping', () => ({ pong: true }));\n`,
  'flood_handler.ts':
    `${sdk}const chunk = 'x'.repeat(65536);\n` +
    `router.get('/raw', () => { setInterval(() => { for (let i = 0; i < 64; i++) process.stdout.write(chunk); }, 0); ` +
    `return { flooding: 'raw' }; });\n`,
  'lines_handler.ts':
    `${sdk}router.get('/flood', () => { setInterval(() => { ` +
    `for (let i = 0; i < 2000; i++) console.log('line', i); }, 0); return { flooding: 'lines' }; });\n`,
  'busy_handler.ts':
    `${sdk}const pids: number[] = [];\n` +
    `router.get('/start', () => { for (let i = 0; i < 8; i++) pids.push(${busyChild}.pid!); return { pids }; });\n`,
};

/** Starts the gateway with its stdout and stderr counted (not shown). */
function startGateway(env) {
  return new Promise((resolve, reject) => {
    const child = fork(gatewayScript, [], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const server = { child, logBytes: 0, exited: undefined, stderrTail: '' };
    child.stdout.on('data', (data) => (server.logBytes += data.length));
    child.stderr.on('data', (data) => {
      server.logBytes += data.length;
      server.stderrTail = (server.stderrTail + data.toString()).slice(-400);
    });
    child.once('exit', (code, signal) => {
      server.exited = signal ?? `exit code ${code}`;
      reject(new Error(`the gateway exited (${server.exited}) before it listened`));
    });
    child.once('message', ({ port }) => resolve({ ...server, server, origin: `http://127.0.0.1:${port}` }));
  });
}

function residentMb(pid) {
  try {
    return (Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096) / 1048576;
  } catch {
    return 0;
  }
}

/** Latency of `url` while the gateway's peak resident memory is sampled. */
async function measure(url, pid) {
  let peak = residentMb(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, residentMb(pid))), 100);
  const result = await autocannon({ url, connections: 10, duration: seconds });
  clearInterval(sampler);
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    errors: result.errors,
    non2xx: result.non2xx,
    peak,
  };
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const workspace = scratchWorkspace();
for (const [name, source] of Object.entries(handlers)) fs.writeFileSync(workspace.file('handlers', name), source);
const gateway = await startGateway({ ...gatewayEnv(workspace.dir), LOG_LEVEL: 'info', HANDLER_TIMEOUT_MS: '2000' });
const { server, origin } = gateway;
const pid = server.child.pid;
const ping = `${origin}/api/adaptive/other/ping`;
const row = (label, m, logBytes) =>
  `  ${label.padEnd(28)} p50 ${String(m.p50).padStart(3)} ms  p99 ${String(m.p99).padStart(4)} ms  ` +
  `${String(Math.round(m.rps)).padStart(5)} req/s  errors ${m.errors + m.non2xx}  gateway RSS peak ` +
  `${m.peak.toFixed(0)} MB  log ${(logBytes / 1048576).toFixed(1)} MB` +
  (server.exited ? `  GATEWAY DIED (${server.exited}): ${server.stderrTail.trim().split('\n').pop()}` : '');

console.log(`another module's route (10 connections, ${seconds} s each) while a module misbehaves`);
let busyPids = [];
try {
  await measure(ping, pid); // warm-up
  const calm = await measure(ping, pid);
  console.log(row('no fault', calm, 0));
  const phases = [
    ['stdout without newlines', '/flood/raw'],
    ['log lines flood', '/lines/flood'],
    ['eight busy children', '/busy/start'],
  ];
  for (const [label, route] of phases) {
    if (server.exited) break;
    const logBefore = server.logBytes;
    const answer = await fetch(`${origin}/api/adaptive${route}`).then(
      (r) => r.json(),
      () => ({}),
    );
    if (answer.pids) busyPids = answer.pids;
    const during = await measure(ping, pid);
    console.log(row(label, during, server.logBytes - logBefore));
    console.log(`    p99 ratio to calm: ${(during.p99 / Math.max(1, calm.p99)).toFixed(2)}x (target under 2x)`);
    // The flooding module is replaced before the next phase.
    const [mount] = route.slice(1).split('/');
    if (mount !== 'busy') {
      fs.writeFileSync(workspace.file('handlers', `${mount}_handler.ts`), `${sdk}router.get('/calm', () => 1);\n`);
      await fetch(`${origin}/api/adaptive/actuator/refresh`, { method: 'POST' }).catch(() => undefined);
    }
  }
  if (!server.exited && busyPids.length > 0) {
    fs.writeFileSync(workspace.file('handlers', 'busy_handler.ts'), `${sdk}router.get('/calm', () => 1);\n`);
    await fetch(`${origin}/api/adaptive/actuator/refresh`, { method: 'POST' });
    await new Promise((resolve) => setTimeout(resolve, 4000)); // the old module's retirement
    console.log(`  busy children alive after the module was replaced: ${busyPids.filter(alive).length} of 8`);
  }
} finally {
  if (!server.exited) {
    server.child.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    if (!server.exited) server.child.kill('SIGKILL');
  }
  const survivors = busyPids.filter(alive);
  console.log(`  busy children alive after the gateway stopped: ${survivors.length} of ${busyPids.length}`);
  for (const child of survivors) process.kill(child, 'SIGKILL');
  workspace.remove();
}
