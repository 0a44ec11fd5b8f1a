#!/usr/bin/env node
// Oversized results (issue 25): the built server (dist/) in a child process, one and then six concurrent
// queries that each ask for about 450 MB (`SELECT repeat('x', 100000) FROM range(4500)`) while a `SELECT 1`
// loop runs beside them. Reports the server's peak resident memory, what the large queries answered and
// how long they took, the `SELECT 1` latency alone and beside them (median and worst), and the server's CPU time
// in each phase (less noisy than latency on a shared machine). With more large queries than
// `limits.max_concurrent` (4), `SELECT 1` also waits for a free slot.
// Then one list of sixty million items (`SELECT range(0, 60000000) AS l`, issue 32) and one of twenty million, alone
// and three at once: the same figures, how long the answer took, and the server's resident memory 3 s after.
// RESULT_SIZE_CASES=strings or lists runs one of the two (default both).
// Run: npm run build:server && node bench/result-size.mjs (or BENCH_ONLY=result-size node bench/run.mjs)
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startServer } from './lib/servers.mjs';
import { gatewayEnv, scratchWorkspace } from './lib/workspace.mjs';

/** The oversized queries, each run alone and then several at once. */
const cases = [
  { name: 'strings', query: "SELECT repeat('x', 100000) AS s FROM range(4500)", counts: [1, 6] },
  { name: 'lists', query: 'SELECT range(0, 60000000) AS l', counts: [1, 3] },
  // A list DuckDB can build within its memory limit (160 MB) that is still larger than the result limit.
  { name: 'lists', query: 'SELECT range(0, 20000000) AS l', counts: [1, 3] },
].filter(({ name }) => (process.env.RESULT_SIZE_CASES ?? 'strings,lists').split(',').includes(name));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;
/** CPU seconds (user + system) between two `process.cpuUsage()` readings. */
const cpuSeconds = (from, to) => ((to.user - from.user + to.system - from.system) / 1e6).toFixed(2);

/** A field of /proc/<pid>/status in kB (VmRSS now, VmHWM the peak so far). */
const statusKb = (pid, field) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

async function sql(origin, query) {
  const started = performance.now();
  const response = await fetch(`${origin}/api/v1/query/sql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  const body = await response.text();
  return { status: response.status, ms: performance.now() - started, bytes: body.length, body };
}

/** `SELECT 1` one after another until `done()`; the latencies. */
async function selectOneLoop(origin, done) {
  const times = [];
  while (!done()) times.push((await sql(origin, 'SELECT 1 AS one')).ms);
  return times;
}

/** One to a few oversized queries at once with a `SELECT 1` loop beside them; prints what they cost the server. */
async function phase(server, bigQuery, concurrent) {
  let running = true;
  const cpuBefore = await server.cpuUsage();
  const loop = selectOneLoop(server.origin, () => !running);
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, statusKb(server.pid, 'VmRSS'))), 50);
  const big = await Promise.all(Array.from({ length: concurrent }, () => sql(server.origin, bigQuery)));
  running = false;
  const busy = await loop;
  clearInterval(sampler);
  const cpu = cpuSeconds(cpuBefore, await server.cpuUsage());

  console.log(`${concurrent} x ${bigQuery}: peak server RSS ${mb(peak)}, server CPU ${cpu} s`);
  for (const answer of big) {
    let summary = answer.body.slice(0, 160);
    try {
      const parsed = JSON.parse(answer.body);
      summary =
        parsed.detail?.split('\n')[0] ??
        `row_count ${parsed.row_count}, truncated ` +
          `${parsed.truncated}${parsed.truncated_reason ? ` (${parsed.truncated_reason})` : ''}`;
    } catch {
      // Not JSON (a cut-off body): its start is the summary.
    }
    console.log(
      `  large query: HTTP ${answer.status} after ${answer.ms.toFixed(0)} ms, ` +
        `${(answer.bytes / 1e6).toFixed(1)} MB: ${summary}`,
    );
  }
  console.log(
    `  SELECT 1 beside: median ${median(busy).toFixed(1)} ms, worst ${Math.max(...busy).toFixed(0)} ms ` +
      `(${busy.length} queries)`,
  );
  await new Promise((done) => setTimeout(done, 3000));
  console.log(`  server RSS 3 s after the answers: ${mb(statusKb(server.pid, 'VmRSS'))}`);
}

const workspace = scratchWorkspace();
const server = await startServer(
  new URL('./lib/gateway-server.mjs', import.meta.url).pathname,
  gatewayEnv(workspace.dir),
);
try {
  for (let i = 0; i < 20; i++) await sql(server.origin, 'SELECT 1 AS one');
  const stopAfter = performance.now() + 3000;
  const quietCpu = await server.cpuUsage();
  const quiet = await selectOneLoop(server.origin, () => performance.now() > stopAfter);
  const quietCpuEnd = await server.cpuUsage();
  const rssBefore = statusKb(server.pid, 'VmRSS');

  console.log(
    `SELECT 1 alone: median ${median(quiet).toFixed(1)} ms (${quiet.length} queries, server CPU ` +
      `${cpuSeconds(quietCpu, quietCpuEnd)} s); server RSS ${mb(rssBefore)}`,
  );

  for (const { query, counts } of cases) for (const concurrent of counts) await phase(server, query, concurrent);
} finally {
  await server.stop();
  workspace.remove();
}
