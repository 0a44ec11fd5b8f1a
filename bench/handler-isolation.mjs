// Handler isolation (issue 17), with the built server (dist/) in a child process:
// 1. Latency (p50, p99) of one module's route while another module's route spins in a synchronous
//    loop, against the same route with no fault, in one run. The spinning route is called again as
//    soon as each call is cut off (504) and its module restarted, so a module spins all along.
// 2. Resident memory after 1, 100 and 500 edits of a module that holds about 8 MB, and after 300
//    refreshes that change nothing: of the gateway process, and of the gateway with its handler
//    processes (read from /proc; Linux only).
// Run: npm run build && node bench/handler-isolation.mjs      (EDITS=500, REFRESHES=300, SECONDS=10)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startServer } from './lib/servers.mjs';
import { gatewayEnv, scratchWorkspace } from './lib/workspace.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const gatewayScript = path.join(root, 'bench/lib/gateway-server.mjs');
const edits = Number(process.env.EDITS ?? 500);
const refreshes = Number(process.env.REFRESHES ?? 300);
const seconds = Number(process.env.SECONDS ?? 10);
const sdk = `import { Router } from 'adaptive-workbench/handler';\nexport const router = new Router();\n`;

async function latency(url) {
  const result = await autocannon({ url, connections: 10, duration: seconds });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function latencyWhileSpinning() {
  const workspace = scratchWorkspace();
  fs.writeFileSync(
    workspace.file('handlers', 'other_handler.ts'),
    `${sdk}router.get('/ping', () => ({ pong: true }));\n`,
  );
  fs.writeFileSync(
    workspace.file('handlers', 'spin_handler.ts'),
    `${sdk}router.get('/spin', () => { while (true) {} });\n`,
  );
  const server = await startServer(gatewayScript, {
    ...gatewayEnv(workspace.dir),
    HANDLER_TIMEOUT_MS: '1000',
    LOG_LEVEL: 'error',
  });
  const url = `${server.origin}/api/adaptive/other/ping`;
  try {
    await latency(url); // warm-up
    const calm = await latency(url);
    let spinning = true;
    let spins = 0;
    // One spin at a time: a new one once the last was cut off (504), a pause while the module restarts (503).
    const spinner = (async () => {
      while (spinning) {
        const status = await fetch(`${server.origin}/api/adaptive/spin/spin`).then(
          (r) => r.status,
          () => 0,
        );
        if (status === 504) spins++;
        else await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const faulty = await latency(url);
    spinning = false;
    await spinner;
    const row = (label, m) =>
      `  ${label.padEnd(34)} p50 ${String(m.p50).padStart(3)} ms   p99 ${String(m.p99).padStart(3)} ms   ` +
      `${Math.round(m.rps)} req/s   non-2xx ${m.non2xx}   errors ${m.errors}`;
    console.log(
      `another module's route (10 connections, ${seconds} s each) while a module spins (HANDLER_TIMEOUT_MS=1000)`,
    );
    console.log(row('no fault', calm));
    console.log(row(`a module spinning (${spins} spins cut off)`, faulty));
    console.log(`  p99 ratio: ${(faulty.p99 / Math.max(1, calm.p99)).toFixed(2)}x (target under 2x)`);
  } finally {
    await server.stop();
    workspace.remove();
  }
}

/** Resident memory of a process and of all its descendants, in MB, from /proc. */
function residentMb(pid) {
  const pageSize = 4096;
  const children = new Map();
  for (const entry of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const parent = Number(fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const rss = (id) => Number(fs.readFileSync(`/proc/${id}/statm`, 'utf8').split(' ')[1]) * pageSize;
  let total = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const id = stack.pop();
    try {
      total += rss(id);
    } catch {
      continue;
    }
    stack.push(...(children.get(id) ?? []));
  }
  return { gateway: rss(pid) / 1048576, total: total / 1048576 };
}

async function memoryOverEdits() {
  const workspace = scratchWorkspace();
  const file = workspace.file('handlers', 'data_handler.ts');
  const source = (edit) =>
    `${sdk}const data = Array.from({ length: 1_000_000 }, (_, i) => i * ${edit});\nrouter.get('/v', () => ({ v: ` +
    `${edit}, n: data.length }));\n`;
  fs.writeFileSync(file, source(1));
  const server = await startServer(gatewayScript, gatewayEnv(workspace.dir));
  const refresh = () =>
    fetch(`${server.origin}/api/adaptive/actuator/refresh`, { method: 'POST' }).then((r) => r.json());
  const rows = [];
  const note = (label) => {
    const { gateway, total } = residentMb(server.pid);
    rows.push(
      `  ${label.padEnd(30)} gateway ${gateway.toFixed(0).padStart(5)} MB   with handler processes ` +
        `${total.toFixed(0).padStart(5)} MB`,
    );
  };
  try {
    note('after the first load');
    for (let edit = 2; edit <= edits + 1; edit++) {
      fs.writeFileSync(file, source(edit));
      const result = await refresh();
      if (result.errors.length > 0) throw new Error(JSON.stringify(result.errors));
      if (edit === 101) note('after 100 edits');
    }
    // Retired processes finish and stop in the background.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    note(`after ${edits} edits`);
    for (let i = 0; i < refreshes; i++) await refresh();
    note(`after ${refreshes} no-op refreshes`);
    console.log(`resident memory, a handler module holding about 8 MB (1,000,000 numbers), edited and refreshed`);
    for (const row of rows) console.log(row);
  } finally {
    await server.stop();
    workspace.remove();
  }
}

await latencyWhileSpinning();
if (fs.existsSync('/proc/self/statm')) await memoryOverEdits();
else console.log('resident memory: skipped, /proc is not available here');
