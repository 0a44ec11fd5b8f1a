#!/usr/bin/env node
// Short queries beside long ones (issue 37). Run after `npm run build:server`:
//   node bench/short-lane.mjs          (LARGE=6 SAMPLES=20 by default)
// The built server on a copy of the example workspace, with its default limits (max_concurrent 4, short_lane 1).
// `SELECT 1` over HTTP, one at a time, SAMPLES times: alone, then while LARGE large queries run (each started
// again as soon as it answers), in the same run. Prints both medians and their ratio (target: under 2x alone).
// The large queries read a FROM clause, so they queue for the engine's slots; `SELECT 1` reads none and takes the
// short lane. For the beside phase it also prints, from /proc/<pid>/task/*/schedstat (Linux), how long the server's
// threads waited runnable for a core and ran, split by their nice value (DuckDB's workers of large queries run
// lowered, see low-priority-threads.ts): the wait of the normal ones is where the short query's steps queue.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './lib/servers.mjs';
import { gatewayEnv } from './lib/workspace.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const large = Number(process.env.LARGE ?? 6);
const samples = Number(process.env.SAMPLES ?? 20);
// A few hundred milliseconds of one core each here: long beside `SELECT 1`, short enough to keep the run brief.
const largeQuery = 'SELECT sum(a.range * b.range) FROM range(15000) a, range(15000) b';

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-short-lane-'));
fs.cpSync(path.join(repoRoot, 'query'), path.join(workspace, 'query'), { recursive: true });
const server = await startServer(path.join(repoRoot, 'bench/lib/gateway-server.mjs'), {
  ...gatewayEnv(workspace),
  QUERY_SOURCES: path.join(workspace, 'query/sources.yaml'),
  LOG_LEVEL: 'warn',
});

const agent = new http.Agent({ keepAlive: true });

/**
 * Milliseconds until the server answers `query` (it must answer 200). Sent with node:http, headers and body in one
 * write: fetch writes them apart, and the server's delayed ACK then adds about 40 ms to every query.
 */
function timed(query) {
  const body = JSON.stringify({ query });
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${server.origin}/api/v1/query/sql`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.once('end', () =>
          response.statusCode === 200
            ? resolve(performance.now() - start)
            : reject(new Error(`${query}: ${response.statusCode}`)),
        );
      },
    );
    request.once('error', reject);
    request.end(body);
  });
}

/** Per thread of the server: [nanoseconds on a core, nanoseconds waiting runnable, nice]; empty off Linux. */
function schedstat(pid) {
  const threads = new Map();
  let tids;
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    try {
      const [run, wait] = fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
      // The fields after the command's closing parenthesis: nice is the 17th of them.
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const nice = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      threads.set(tid, [run, wait, nice]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return threads;
}

/** What the server's threads ran and waited between two `schedstat` readings, in ms, by normal and lowered nice. */
function cpuBetween(before, after) {
  const sums = { normal: { run: 0, wait: 0, threads: 0 }, lowered: { run: 0, wait: 0, threads: 0 } };
  for (const [tid, [run, wait, nice]] of after) {
    const [run0, wait0] = before.get(tid) ?? [0, 0];
    if (run === run0 && wait === wait0) continue;
    const sum = nice > 0 ? sums.lowered : sums.normal;
    sum.run += (run - run0) / 1e6;
    sum.wait += (wait - wait0) / 1e6;
    sum.threads++;
  }
  return sums;
}

/** The median of `samples` back-to-back `SELECT 1` answers, in milliseconds. */
async function selectOneMedian() {
  const times = [];
  for (let i = 0; i < samples; i++) times.push(await timed('SELECT 1'));
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

try {
  await timed('SELECT 1');
  await timed(largeQuery);
  const alone = await selectOneMedian();
  let running = true;
  let largeAnswered = 0;
  let largeFailed = 0;
  const keepBusy = async () => {
    while (running) {
      // On a loaded machine a large query may pass its time limit (504): it kept the CPU busy all the same.
      await timed(largeQuery).then(
        () => largeAnswered++,
        () => largeFailed++,
      );
    }
  };
  const busy = Array.from({ length: large }, keepBusy);
  // Let every large query reach the engine (or its queue) first.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const stat0 = schedstat(server.pid);
  const beside = await selectOneMedian();
  const threads = cpuBetween(stat0, schedstat(server.pid));
  running = false;
  await Promise.all(busy);
  console.log(`SELECT 1 alone: ${alone.toFixed(1)} ms (median of ${samples})`);
  console.log(
    `SELECT 1 beside ${large} large queries: ${beside.toFixed(1)} ms ` +
      `(median of ${samples}; ${largeAnswered} large answered, ${largeFailed} failed meanwhile)`,
  );
  for (const [kind, sum] of Object.entries(threads))
    console.log(
      `  ${kind} threads (${sum.threads} active): ran ${sum.run.toFixed(0)} ms, waited for a core ` +
        `${sum.wait.toFixed(0)} ms (${(sum.wait / samples).toFixed(1)} ms per SELECT 1)`,
    );
  console.log(
    `load average: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(`ratio: ${(beside / alone).toFixed(2)}x alone (target: under 2x)`);
} finally {
  agent.destroy();
  await server.stop();
  fs.rmSync(workspace, { recursive: true, force: true });
}
