#!/usr/bin/env node
// Async job benchmark (issues 18 and 25). Run after `npm run build`: node bench/query-jobs.mjs
// 1. Throughput of small async jobs (SELECT 1), submit to COMPLETED, with the local folder store, the
//    Redis store and the PostgreSQL store, in one run: one server process each (2 workers), JOBS jobs
//    (200 by default) submitted at once, then polled until every one has finished; ROUNDS rounds
//    (3 by default) with the stores alternating, medians.
//    The same queries through POST /sql, two at a time, give the engine's own rate for comparison.
// 2. Disk used by an oversized async job: a query of 200 MB of rows, against async.max_result_size
//    (64 MB by default).
// Needs Redis and PostgreSQL on their local default ports (TEST_REDIS_URL, TEST_POSTGRES_URL); a store
// whose server is missing is reported and skipped. Prints figures; asserts nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { startServer } from './lib/servers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const gatewayScript = path.join(root, 'bench/lib/gateway-server.mjs');
const jobs = Number(process.env.JOBS ?? 200);
const rounds = Number(process.env.ROUNDS ?? 3);
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const postgresUrl = `${process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432'}/postgres`;
const prefix = `bench_jobs_${process.pid}`;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A scratch workspace with the example sources and `asyncYaml` as the async section. */
function workspaceWith(asyncYaml) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-jobs-'));
  fs.cpSync(path.join(root, 'query'), path.join(dir, 'query'), { recursive: true });
  const sources = path.join(dir, 'query', 'sources.yaml');
  fs.writeFileSync(sources, `async:\n${asyncYaml}${fs.readFileSync(sources, 'utf8')}`);
  for (const folder of ['specs', 'handlers']) fs.mkdirSync(path.join(dir, folder));
  return dir;
}

const serverEnv = (workspace, store) => ({
  WORKSPACE: workspace,
  SPECS_DIR: '',
  HANDLERS_DIR: '',
  QUERY_SOURCES: '',
  HEALTH_CONFIG: '',
  DATA_DIR: path.join(workspace, 'data'),
  HOT_RELOAD: 'false',
  LOG_LEVEL: 'warn',
  AUTH_ENABLED: 'false',
  QUERY_JOB_STORE: store,
  QUERY_JOB_STORE_PREFIX: prefix,
});

async function call(origin, method, url, body) {
  const response = await fetch(`${origin}/api/v1/query${url}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body && JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${json.detail}`);
  return json;
}

/** Submits `jobs` small jobs at once and polls until all have finished: jobs per second. */
async function throughput(origin) {
  const started = performance.now();
  const ids = await Promise.all(
    Array.from({ length: jobs }, (_, i) =>
      call(origin, 'POST', '/async', { query: `SELECT ${i} AS n` }).then((job) => job.query_id),
    ),
  );
  let pending = ids;
  while (pending.length > 0) {
    const statuses = await Promise.all(pending.map((id) => call(origin, 'GET', `/async/${id}/status`)));
    const failed = statuses.find((s) => s.status !== 'RUNNING' && s.status !== 'COMPLETED');
    if (failed) throw new Error(`job ${failed.query_id} ${failed.status}: ${failed.error}`);
    pending = statuses.filter((s) => s.status === 'RUNNING').map((s) => s.query_id);
    if (pending.length > 0) await sleep(50);
  }
  return jobs / ((performance.now() - started) / 1000);
}

/** The same queries through POST /sql, two at a time (as the two workers run them): the engine's own rate. */
async function syncRate(origin) {
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < jobs) await call(origin, 'POST', '/sql', { query: `SELECT ${next++} AS n` });
  };
  await Promise.all([lane(), lane()]);
  return jobs / ((performance.now() - started) / 1000);
}

async function clean() {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await redis.connect();
    const keys = await redis.keys(`{${prefix}}:*`);
    if (keys.length > 0) await redis.del(...keys);
  } catch {
    // No Redis: nothing was written there.
  } finally {
    redis.disconnect();
  }
  const client = new pg.Client({ connectionString: postgresUrl });
  try {
    await client.connect();
    await client.query(`DROP TABLE IF EXISTS ${prefix}_jobs, ${prefix}_chunks`);
  } catch {
    // No PostgreSQL: nothing was written there.
  } finally {
    await client.end().catch(() => undefined);
  }
}

const workspace = workspaceWith(`  workers: 2\n  max_queued: ${jobs}\n`);
try {
  console.log(
    `async jobs, ${jobs} x SELECT n submitted at once, 2 workers, submit to COMPLETED; median of ${rounds} ` +
      `rounds, stores alternating`,
  );
  const stores = [
    ['folder (local)', ''],
    ['redis', redisUrl],
    ['postgres', postgresUrl],
  ];
  const servers = new Map();
  for (const [name, store] of stores) {
    try {
      servers.set(
        name,
        await startServer(gatewayScript, {
          ...serverEnv(workspace, store),
          DATA_DIR: path.join(workspace, `data-${servers.size}`),
        }),
      );
    } catch (error) {
      console.log(`  ${name.padEnd(15)} skipped: ${error.message}`);
    }
  }
  try {
    const rates = new Map([...servers.keys()].map((name) => [name, []]));
    const floor = [];
    // A warm-up round, then the measured ones; the stores alternate, so a busy moment of the machine
    // weighs on all of them alike.
    for (let round = 0; round <= rounds; round++) {
      for (const [name, server] of servers) {
        const rate = await throughput(server.origin);
        if (round > 0) rates.get(name).push(rate);
      }
      if (round > 0 && servers.has('folder (local)')) floor.push(await syncRate(servers.get('folder (local)').origin));
    }
    for (const [name, values] of rates)
      console.log(
        `  ${name.padEnd(15)} ${median(values).toFixed(0)} jobs/s (${values.map((v) => v.toFixed(0)).join(', ')})`,
      );
    if (floor.length > 0)
      console.log(`  floor: the same queries through POST /sql, 2 at a time: ${median(floor).toFixed(0)} queries/s`);
    const local = rates.get('folder (local)');
    for (const name of ['redis', 'postgres'])
      if (local && rates.has(name))
        console.log(`  ${name} / local: ${(median(rates.get(name)) / median(local)).toFixed(2)}x`);
  } finally {
    for (const server of servers.values()) await server.stop();
  }

  const oversized = workspaceWith('  workers: 1\n');
  const server = await startServer(gatewayScript, serverEnv(oversized, ''));
  try {
    const started = performance.now();
    const { query_id } = await call(server.origin, 'POST', '/async', {
      query: "SELECT i, repeat('x', 10000) AS s FROM range(20000) t(i)",
    });
    let status;
    do {
      await sleep(100);
      status = await call(server.origin, 'GET', `/async/${query_id}/status`);
    } while (status.status === 'RUNNING');
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const folder = path.join(oversized, 'data', 'query-jobs');
    const bytes = fs.readdirSync(folder).reduce((sum, name) => sum + fs.statSync(path.join(folder, name)).size, 0);
    const page =
      status.status === 'COMPLETED'
        ? await call(server.origin, 'GET', `/async/${query_id}/results?limit=1`)
        : undefined;
    console.log(
      `oversized async job (20,000 rows of 10 kB, about 200 MB): ${status.status} in ${seconds} s; ` +
        `${(bytes / 1024 ** 2).toFixed(1)} MB on disk`,
    );
    if (page)
      console.log(`  stored ${page.total_row_count} rows, truncated: ${page.truncated} (${page.truncated_reason})`);
  } finally {
    await server.stop();
    fs.rmSync(oversized, { recursive: true, force: true });
  }
} finally {
  await clean();
  fs.rmSync(workspace, { recursive: true, force: true });
}
