#!/usr/bin/env node
// A burst of wrong Basic logins (issue 25): the built server (dist/) in a child process with a users file
// of bcrypt cost 10, 100 concurrent requests with wrong passwords for one user from one address, and a
// liveness probe polled beside them. Reports the answers, the wall time of the burst, the server's CPU
// time for it, and the probe's latency during the burst (median and worst).
// Run: npm run build:server && node bench/login-burst.mjs [attempts, default 100]
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import bcrypt from 'bcryptjs';
import { startServer } from './lib/servers.mjs';
import { gatewayEnv, scratchWorkspace } from './lib/workspace.mjs';

const attempts = Number(process.argv[2] ?? 100);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const workspace = scratchWorkspace();
const usersFile = path.join(workspace.dir, 'users.htpasswd');
fs.writeFileSync(usersFile, `ops:${bcrypt.hashSync('s3cret', 10)}\n`);
const env = { ...gatewayEnv(workspace.dir), AUTH_ENABLED: 'true', AUTH_USERS_FILE: usersFile };
const server = await startServer(new URL('./lib/gateway-server.mjs', import.meta.url).pathname, env);
const wrong = (i) => `Basic ${Buffer.from(`ops:wrong-${i}`).toString('base64')}`;

try {
  const cpuBefore = await server.cpuUsage();
  let running = true;
  const probe = (async () => {
    const times = [];
    while (running) {
      const started = performance.now();
      await (await fetch(`${server.origin}/api/adaptive/actuator/health/liveness`)).text();
      times.push(performance.now() - started);
    }
    return times;
  })();
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from(
      { length: attempts },
      async (_, i) => (await fetch(`${server.origin}/api/adaptive/`, { headers: { authorization: wrong(i) } })).status,
    ),
  );
  const wall = performance.now() - started;
  running = false;
  const probes = await probe;
  const cpuAfter = await server.cpuUsage();
  const cpuMs = (cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system) / 1000;

  const counts = Object.entries(statuses.reduce((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {})).map(
    ([s, n]) => `${n} x ${s}`,
  );
  console.log(
    `${attempts} wrong logins: ${counts.join(', ')} in ${wall.toFixed(0)} ms, server CPU ${cpuMs.toFixed(0)} ms`,
  );
  console.log(
    `liveness beside them: median ${median(probes).toFixed(1)} ms, worst ${Math.max(...probes).toFixed(0)} ms ` +
      `(${probes.length} probes)`,
  );
} finally {
  await server.stop();
  workspace.remove();
}
