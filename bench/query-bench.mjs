#!/usr/bin/env node
// Federated query benchmark (issue 6). Run after `npm run build`:
//   node bench/query-bench.mjs            (ORDERS=1000000 PRODUCTS=100000 RUNS=3 by default)
// Needs PostgreSQL (TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432). It creates a
// uniquely named database and drops it at the end.
//
// 1. Cross-source join: a PostgreSQL table of ORDERS rows joined with a Parquet file of PRODUCTS rows
//    and aggregated, through the federated engine, against the same query in DuckDB on the same data
//    already local (native tables), in the same run: both times (median of RUNS), their ratio, and the
//    rows/s of the PostgreSQL load.
//    Beside it, the source's own floor: PostgreSQL aggregating the table itself (its fastest read of
//    every row, parallel workers and all, sending one row), and PostgreSQL sending the join's columns
//    with COPY to a client that discards them (what any federated engine must at least wait for).
// 2. Pushdown: the PostgreSQL table with a filter matching 1% of rows, against the same filter written
//    so it cannot be pushed (full scan): time and rows transferred. Both through a second source on the
//    same database with aggregation pushdown off, so only the filter differs.
// 3. Aggregation pushdown: an aggregate grouped by a column with few values, and the 1% filter query,
//    with PostgreSQL computing partial aggregates against the same source with aggregation pushdown off
//    and against native DuckDB: time and rows transferred.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (module) => import(path.join(root, 'server/dist/src/query', module));
const { loadQuerySetup } = await dist('sources.js');
const { SourceCatalog } = await dist('source-catalog.js');
const { SqlParser } = await dist('engine/sql-parser.js');
const { DuckDBEngine } = await dist('engine/duckdb-engine.js');
const { CopyOutStream } = await dist('connectors/postgres-copy-out.js');

const orders = Number(process.env.ORDERS ?? 1_000_000);
const products = Number(process.env.PRODUCTS ?? 100_000);
const runs = Number(process.env.RUNS ?? 3);
const pgUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
const database = `aw_query_bench_${process.pid}`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-query-bench-'));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => `${value.toFixed(0)} ms`;

async function admin(sql) {
  const client = new pg.Client({ connectionString: `${pgUrl}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Times `fn` `runs` times after one warm-up; returns the median and the last result. */
async function timed(fn) {
  let last = await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    last = await fn();
    times.push(performance.now() - start);
  }
  return { ms: median(times), times, last };
}

await admin(`CREATE DATABASE ${database}`);
try {
  console.log(`setting up: ${orders} orders in PostgreSQL, ${products} products in Parquet`);
  const client = new pg.Client({ connectionString: `${pgUrl}/${database}` });
  // Errors surface through the awaited queries; this keeps a dropped connection from crashing the run.
  client.on('error', () => undefined);
  await client.connect();
  await client.query(
    `CREATE TABLE orders (id bigint PRIMARY KEY, product_id integer NOT NULL, quantity integer NOT NULL, amount ` +
      `numeric(12,2) NOT NULL)`,
  );
  await client.query(
    `INSERT INTO orders SELECT g, 1 + (g * 7919) % ${products}, 1 + g % 5, ((g * 31) % 100000) / 100.0 FROM ` +
      `generate_series(1::bigint, ${orders}) g`,
  );
  await client.query('ANALYZE orders');
  await client.end();

  const lake = path.join(dir, 'lake');
  fs.mkdirSync(lake);
  const local = await DuckDBInstance.create(':memory:');
  const native = await local.connect();
  await native.run(
    `COPY (SELECT range::INTEGER AS product_id, 'category_' || (range % 20) AS category, (range % 1000) / 10.0 ` +
      `AS price FROM range(1, ${products + 1})) TO '${path.join(lake, 'products.parquet')}' (FORMAT parquet)`,
  );

  const sourcesFile = path.join(dir, 'sources.yaml');
  fs.writeFileSync(
    sourcesFile,
    `limits: { max_rows: 100000, timeout_ms: 600000, memory_limit: 2GB, threads: 2 }
sources:
  - { name: pg, type: relational, connector: postgres, url: "${pgUrl}/${database}" }
  - { name: pgscan, type: relational, connector: postgres, url: "${pgUrl}/${database}", aggregation_pushdown: false }
  - { name: lake, type: object-storage, connector: folder, path: lake }
`,
  );
  const setup = loadQuerySetup(sourcesFile);
  const catalog = new SourceCatalog(setup.sources);
  const parser = await SqlParser.create();
  const engine = new DuckDBEngine(catalog, parser, setup.limits);
  const run = (sql) => engine.run(sql, { maxRows: 100_000, timeoutMs: 600_000 });

  const joinSql = (o, p) =>
    `SELECT p.category, count(*) AS orders, sum(o.amount) AS revenue, avg(o.quantity) AS avg_quantity FROM ${o} ` +
    `o JOIN ${p} p ON o.product_id = p.product_id GROUP BY p.category ORDER BY p.category`;

  const federated = await timed(() => run(joinSql('pg.orders', 'lake.products')));
  const pgScan = federated.last.scans.find((s) => s.source === 'pg');

  // The same data already local to DuckDB: native tables, same settings, same query.
  await native.run(`SET threads = ${setup.limits.threads}`);
  await native.run(`ATTACH ':memory:' AS pg`);
  await native.run(`ATTACH ':memory:' AS lake`);
  const copy = await engine.run('SELECT * FROM pg.orders', { maxRows: orders, timeoutMs: 600_000 });
  await native.run('CREATE TABLE pg.orders (id BIGINT, product_id INTEGER, quantity INTEGER, amount DECIMAL(12,2))');
  const appender = await native.createAppender('orders', 'main', 'pg');
  for (const row of copy.rows) {
    appender.appendBigInt(BigInt(row.id));
    appender.appendInteger(row.product_id);
    appender.appendInteger(row.quantity);
    appender.appendDouble(row.amount);
    appender.endRow();
  }
  appender.closeSync();
  await native.run(
    `CREATE TABLE lake.products AS SELECT * FROM read_parquet('${path.join(lake, 'products.parquet')}')`,
  );
  const nativeRun = await timed(async () =>
    (await native.runAndReadAll(joinSql('pg.orders', 'lake.products'))).getRowObjectsJson(),
  );
  const same =
    JSON.stringify(nativeRun.last.map((r) => [r.category, Number(r.orders)])) ===
    JSON.stringify(federated.last.rows.map((r) => [r.category, Number(r.orders)]));

  const floorClient = new pg.Client({ connectionString: `${pgUrl}/${database}` });
  floorClient.on('error', () => undefined);
  await floorClient.connect();
  const pgAggregate = await timed(() => floorClient.query('SELECT count(*), sum(amount), sum(quantity) FROM orders'));
  const pgCopy = await timed(async () => {
    let bytes = 0;
    for await (const chunk of floorClient.query(
      new CopyOutStream('COPY (SELECT product_id, quantity, amount FROM orders) TO STDOUT WITH (FORMAT csv)'),
    ))
      bytes += chunk.length;
    return bytes;
  });
  await floorClient.end();

  const filterSql = (source) =>
    `SELECT count(*) AS n, sum(amount) AS s FROM ${source}.orders WHERE product_id <= ${products / 100}`;
  const selective = await timed(() => run(filterSql('pgscan')));
  const fullScan = await timed(() =>
    run(`SELECT count(*) AS n, sum(amount) AS s FROM pgscan.orders WHERE product_id + 0 <= ${products / 100}`),
  );

  const groupedSql = (source) =>
    `SELECT quantity, count(*) AS orders, sum(amount) AS revenue, avg(amount) AS avg_amount FROM ` +
    `${source}.orders GROUP BY quantity ORDER BY quantity`;
  const grouped = {
    pushed: await timed(() => run(groupedSql('pg'))),
    plain: await timed(() => run(groupedSql('pgscan'))),
  };
  const groupedNative = await timed(async () => (await native.runAndReadAll(groupedSql('pg'))).getRowObjectsJson());
  const filtered = { pushed: await timed(() => run(filterSql('pg'))), plain: selective };
  const sameRows = (a, b) => JSON.stringify(a.last.rows) === JSON.stringify(b.last.rows);

  console.log('\n1. cross-source join (PostgreSQL x Parquet, aggregated)');
  console.log(`   runs: federated ${federated.times.map(ms).join(', ')}; native ${nativeRun.times.map(ms).join(', ')}`);
  console.log(
    `   federated (load + query): ${ms(federated.ms)}   native DuckDB on local tables: ${ms(nativeRun.ms)}   ` +
      `ratio: ${(federated.ms / nativeRun.ms).toFixed(1)}x (target <= 3x)   same answer: ${same}`,
  );
  console.log(
    `   PostgreSQL load: ${pgScan.rows} rows x ${pgScan.columns.length} columns (${pgScan.columns.join(', ')}) ` +
      `in ${ms(pgScan.ms)} = ${Math.round(pgScan.rows / (pgScan.ms / 1000)).toLocaleString('en')} rows/s`,
  );
  console.log(
    `   the source's floor: PostgreSQL aggregates the table itself in ${ms(pgAggregate.ms)} ` +
      (`(${(pgAggregate.ms / nativeRun.ms).toFixed(1)}x native) and sends the join's columns (COPY, ` +
        (`${(pgCopy.last / 1e6).toFixed(1)} MB, discarded) in ${ms(pgCopy.ms)} ` +
          (`(${(pgCopy.ms / nativeRun.ms).toFixed(1)}x native); federated = ` +
            `${(federated.ms / pgCopy.ms).toFixed(1)}x that COPY`))),
  );
  console.log(
    `   aggregation pushed to PostgreSQL: ` +
      (pgScan.aggregation
        ? `yes, grouped by ${pgScan.aggregation.groupBy.map((c) => c.name).join(', ')}`
        : 'no (fewer rows per join key than pays off)'),
  );
  console.log('\n2. pushdown (filter matching 1% of rows)');
  console.log(
    `   pushed:    ${ms(selective.ms)}, rows transferred ${selective.last.scans[0].rows} ` +
      `(${JSON.stringify(selective.last.scans[0].pushed)})`,
  );
  console.log(`   full scan: ${ms(fullScan.ms)}, rows transferred ${fullScan.last.scans[0].rows}`);
  console.log(
    `   speed-up ${(fullScan.ms / selective.ms).toFixed(1)}x, ` +
      (`${(fullScan.last.scans[0].rows / Math.max(1, selective.last.scans[0].rows)).toFixed(0)}x fewer rows; ` +
        `same answer: ${selective.last.rows[0].n === fullScan.last.rows[0].n}`),
  );
  console.log('\n3. aggregation pushdown (PostgreSQL computes partial aggregates; DuckDB finishes them)');
  for (const [label, pair] of [
    ['grouped by quantity (5 groups)', grouped],
    ['1% filter, count and sum', filtered],
  ]) {
    const [pushedScan, plainScan] = [pair.pushed.last.scans[0], pair.plain.last.scans[0]];
    console.log(
      `   ${label}: pushed ${ms(pair.pushed.ms)} (${pushedScan.rows} rows ` +
        (`transferred${pushedScan.aggregation ? '' : ', NOT pushed'}), plain ${ms(pair.plain.ms)} ` +
          (`(${plainScan.rows} rows); speed-up ${(pair.plain.ms / pair.pushed.ms).toFixed(1)}x; same answer: ` +
            `${sameRows(pair.pushed, pair.plain)}`)),
    );
  }
  console.log(
    `   grouped by quantity vs native DuckDB on local tables: ${ms(grouped.pushed.ms)} vs ` +
      `${ms(groupedNative.ms)} = ${(grouped.pushed.ms / groupedNative.ms).toFixed(1)}x`,
  );
  console.log(
    `\n(median of ${runs} runs after one warm-up; ${os.cpus().length} CPUs, DuckDB threads ${setup.limits.threads})`,
  );

  native.closeSync();
  local.closeSync();
  await catalog.close();
  parser.close();
} finally {
  await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  fs.rmSync(dir, { recursive: true, force: true });
}
