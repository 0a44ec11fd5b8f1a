#!/usr/bin/env node
// Hung sources benchmark (issue 18). Run after `npm run build:server`:
//   node bench/query-faults.mjs            (HUNG=20 SECONDS=3 ROUNDS=3 by default)
// Needs no service: every source points at a local TCP server that accepts connections and never
// writes a byte (a Redis in a long BGSAVE, a stuck proxy), with `limits.timeout_ms: 1500`.
//
// 1. Time to answer of a query on each connector's hung source, and of a query to a hung Trino
//    coordinator (target: at most 2.5 s each).
// 2. `SELECT 1` queries per second (4 clients, back to back) while HUNG queries hang on the hung
//    sources (each one relaunched as soon as it answers), against none hanging, in one run: ROUNDS
//    rounds of none/hung/hung/none (target: at least 0.9x).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { queryModule } from './lib/query-dist.mjs';

const hungSources = fs.readFileSync(
  new URL('../server/src/query/test-support/hung-sources.yaml', import.meta.url),
  'utf8',
);

const [{ loadQuerySetup }, { SourceCatalog }, { SqlParser }, { DuckDBEngine }, { TrinoEngine }] = await Promise.all(
  ['sources.js', 'source-catalog.js', 'engine/sql-parser.js', 'engine/duckdb-engine.js', 'engine/trino-engine.js'].map(
    queryModule,
  ),
);

const hungCount = Number(process.env.HUNG ?? 20);
const seconds = Number(process.env.SECONDS ?? 3);
const rounds = Number(process.env.ROUNDS ?? 3);
const timeoutMs = 1500;
const clients = 4;

// Accepts, reads and drops what the client sends, never answers.
const hole = net.createServer((socket) => {
  socket.on('error', () => undefined);
  socket.resume();
});
await new Promise((resolve) => hole.listen(0, '127.0.0.1', resolve));
const port = hole.address().port;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-query-faults-'));
const sourcesFile = path.join(dir, 'sources.yaml');
fs.writeFileSync(
  sourcesFile,
  `limits: { timeout_ms: ${timeoutMs} }
trino: { server: "http://127.0.0.1:${port}", user: bench }
sources:
${hungSources.replaceAll('${HUNG_PORT}', String(port))}`,
);
const hungQueries = {
  postgres: 'SELECT * FROM hung_pg.orders',
  mariadb: 'SELECT * FROM hung_my.customers',
  redis: 'SELECT * FROM hung_redis.clicks',
  nats: 'SELECT * FROM hung_nats.orders',
  s3: 'SELECT * FROM hung_s3.products',
};

const setup = loadQuerySetup(sourcesFile);
const catalog = new SourceCatalog(setup.sources);
const parser = await SqlParser.create();
const engine = new DuckDBEngine(catalog, parser, setup.limits);
const trino = new TrinoEngine(catalog, parser, setup.trino, setup.limits);
const options = { maxRows: 10, timeoutMs };

/** Milliseconds until `engine` answers `sql`, and the status it answered with. */
async function answer(queryEngine, sql) {
  const start = performance.now();
  const status = await queryEngine.run(sql, options).then(
    () => 200,
    (error) => error.status ?? error.name,
  );
  return { ms: performance.now() - start, status };
}

try {
  console.log(`1. time to answer of a query on a hung source (timeout_ms: ${timeoutMs}; target at most 2500 ms)`);
  for (const [connector, sql] of Object.entries(hungQueries)) {
    const { ms, status } = await answer(engine, sql);
    console.log(`   ${connector.padEnd(9)} ${status} after ${ms.toFixed(0)} ms`);
  }
  const viaTrino = await answer(trino, 'SELECT * FROM hung_pg.orders');
  console.log(`   ${'trino'.padEnd(9)} ${viaTrino.status} after ${viaTrino.ms.toFixed(0)} ms`);

  /** `SELECT 1` answered per second by `clients` clients back to back for `seconds`, and this process's CPU time per
   * answer. */
  async function selectOneRate() {
    const end = performance.now() + seconds * 1000;
    const cpu = process.cpuUsage();
    let answered = 0;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (performance.now() < end) {
          await engine.run('SELECT 1', options);
          answered++;
        }
      }),
    );
    const used = process.cpuUsage(cpu);
    return { rate: answered / seconds, cpuMs: (used.user + used.system) / 1000 / answered };
  }

  let hanging = false;
  let hungAnswered = 0;
  const sqls = Object.values(hungQueries);
  /** Keeps one query hanging on a hung source for as long as `hanging` is set. */
  async function keepHanging(i) {
    while (hanging) {
      await engine.run(sqls[i % sqls.length], options).catch(() => undefined);
      hungAnswered++;
    }
  }
  /** The rate (and CPU per answer) with `hungCount` queries hanging meanwhile. */
  async function rateWhileHanging() {
    hanging = true;
    const hangers = Array.from({ length: hungCount }, (_, i) => keepHanging(i));
    // Let every hung query reach its source first.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const measured = await selectOneRate();
    hanging = false;
    await Promise.all(hangers);
    return measured;
  }

  console.log(
    `2. SELECT 1 per second, ${clients} clients, ${seconds} s each, in the order none/hung/hung/none per round ` +
      `(target: with/without at least 0.9x)`,
  );
  await selectOneRate(); // warm-up
  const without = [];
  const withHung = [];
  const show = (m) => `${m.rate.toFixed(0)}/s (${m.cpuMs.toFixed(1)} ms CPU each)`;
  for (let round = 0; round < rounds; round++) {
    // ABBA order, so a drift of the machine's load favours neither side.
    const a = await selectOneRate();
    const b = await rateWhileHanging();
    const c = await rateWhileHanging();
    const d = await selectOneRate();
    without.push(a, d);
    withHung.push(b, c);
    console.log(
      `   round ${round + 1}: none hanging ${show(a)}, ${show(d)}; ${hungCount} hanging ${show(b)}, ${show(c)}`,
    );
  }
  const mean = (values, key) => values.reduce((sum, m) => sum + m[key], 0) / values.length;
  console.log(
    `   mean: none hanging ${mean(without, 'rate').toFixed(0)}/s, ${hungCount} hanging ` +
      `${mean(withHung, 'rate').toFixed(0)}/s, ratio ${(mean(withHung, 'rate') / mean(without, 'rate')).toFixed(2)}; ` +
      (`CPU per SELECT 1 ${mean(without, 'cpuMs').toFixed(1)} vs ${mean(withHung, 'cpuMs').toFixed(1)} ms; hung ` +
        `queries answered meanwhile: ${hungAnswered}`),
  );
} finally {
  await engine.close();
  await catalog.close();
  parser.close();
  hole.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
