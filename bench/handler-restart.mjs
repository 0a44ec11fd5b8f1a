// Requests failed while a handler module restarts (issue 37), with the built server (dist/) in a child process.
// 100 connections (autocannon) load a route of a module and a route of another module; meanwhile a route of the
// first module spins in synchronous code, three times in a row: each is answered 504 at the deadline, the module
// killed 500 ms later and restarted. The answers are counted by status and by when their request was sent:
// - while blocked: from the start of the stuck call to its 504. Calls on the blocked process cannot be answered
//   within their own deadline (time isolation), so 504s here are the stuck call's doing, not the restart's;
// - restart: from the stuck call's deadline until the module answers again, plus 1 s. The target is 0 failed.
// Run: npm run build:server && node bench/handler-restart.mjs      (HANDLER_TIMEOUT_MS=2000, RESTARTS=3)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import autocannon from 'autocannon';
import { startServer } from './lib/servers.mjs';
import { gatewayEnv, scratchWorkspace } from './lib/workspace.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const timeoutMs = Number(process.env.HANDLER_TIMEOUT_MS ?? 2000);
const restarts = Number(process.env.RESTARTS ?? 3);
const connections = 100;
const sdk = `import { Router } from 'adaptive-workbench/handler';\nexport const router = new Router();\n`;

const workspace = scratchWorkspace();
fs.writeFileSync(
  workspace.file('handlers', 'spin_handler.ts'),
  `${sdk}router.get('/spin', () => { while (true) {} });\nrouter.get('/ok', () => ({ ok: true }));\n`,
);
fs.writeFileSync(
  workspace.file('handlers', 'other_handler.ts'),
  `${sdk}router.get('/ping', () => ({ pong: true }));\n`,
);
const server = await startServer(path.join(root, 'bench/lib/gateway-server.mjs'), {
  ...gatewayEnv(workspace.dir),
  HANDLER_TIMEOUT_MS: String(timeoutMs),
  LOG_LEVEL: 'error',
});
const base = `${server.origin}/api/adaptive`;

/** Every answer as [sent at, status]: sorted into windows by when it was sent, once the run is over. */
const answers = [];
/** [window name, from, to] in `performance.now()` ms. */
const windows = [];
const count = (status, responseTime) => answers.push([performance.now() - responseTime, status]);

const load = (path) =>
  autocannon({
    url: `${base}${path}`,
    connections: path === '/spin/ok' ? connections * 0.75 : connections * 0.25,
    duration: 3600,
    setupClient: (client) =>
      client.on('response', (statusCode, bytes, responseTime) => count(statusCode, responseTime)),
  });

const servesAgain = async () => {
  for (;;) {
    const response = await fetch(`${base}/spin/ok`).catch(() => undefined);
    if (response?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

try {
  const loads = [load('/spin/ok'), load('/other/ping')];
  await new Promise((resolve) => setTimeout(resolve, 1000));
  for (let run = 1; run <= restarts; run++) {
    const blockedFrom = performance.now();
    const stuck = await fetch(`${base}/spin/spin`);
    // From the stuck call's deadline: its 504 may reach this busy process late, and a request sent before the
    // deadline was sent to the blocked process.
    const restartFrom = blockedFrom + timeoutMs;
    windows.push(['blocked', blockedFrom, restartFrom]);
    if (stuck.status !== 504) throw new Error(`the stuck call answered ${stuck.status}`);
    // The module is killed 500 ms after the 504; wait past that for the new process, then a second more.
    await new Promise((resolve) => setTimeout(resolve, 600));
    await servesAgain();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    windows.push(['restart', restartFrom, performance.now()]);
  }
  for (const instance of loads) instance.stop();
  const results = await Promise.all(loads);
  const failed = (byStatus) =>
    Object.entries(byStatus).reduce((sum, [status, n]) => sum + (status === '200' ? 0 : n), 0);
  console.log(
    `${restarts} restarts after a stuck call, ${connections} connections, HANDLER_TIMEOUT_MS=${timeoutMs} ` +
      `(connection errors ${results.reduce((sum, r) => sum + r.errors, 0)})`,
  );
  const counts = { other: {}, blocked: {}, restart: {} };
  for (const [sentAt, status] of answers) {
    const name = windows.find(([, from, to]) => sentAt >= from && sentAt < to)?.[0] ?? 'other';
    counts[name][status] = (counts[name][status] ?? 0) + 1;
  }
  for (const [name, byStatus] of Object.entries(counts))
    console.log(`  ${name.padEnd(8)} answers by status ${JSON.stringify(byStatus)}  failed ${failed(byStatus)}`);
  console.log(`failed requests during restarts: ${failed(counts.restart)}`);
} finally {
  await server.stop();
  workspace.remove();
}
