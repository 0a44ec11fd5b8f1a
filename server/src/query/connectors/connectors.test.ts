import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DuckDBInstance } from '@duckdb/node-api';
import { Redis } from 'ioredis';
import mysql from 'mysql2/promise';
import { connect, type NatsConnection } from 'nats';
import pg from 'pg';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpError } from '../../core/errors.js';
import { toHttpError } from '../../core/domain-errors.js';
import type { DuckDBEngine } from '../engine/duckdb-engine.js';
import type { SourceCatalog } from '../source-catalog.js';
import { querySourceHealth } from '../source-health.js';
import { loadQuerySetup } from '../sources.js';
import { engineFor, serviceUrls, setupFromText, testDeadline, uniqueName } from '../test-support/query-fixtures.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-connectors-'));
const pgDatabase = uniqueName('aw_pg');
const myDatabase = uniqueName('aw_my');
const streamKey = uniqueName('aw:clicks');
const natsStream = uniqueName('AW_ORDERS').toUpperCase();
const natsSubject = `${natsStream.toLowerCase()}.created`;
const orderCount = 2000;

let s3: S3rver;
let s3Endpoint: string;
let nats: NatsConnection;
let engine: DuckDBEngine;
let catalog: SourceCatalog;
let closeEngine: () => Promise<void>;
let sourcesFile: string;

const pgAdmin = () => new pg.Client({ connectionString: `${serviceUrls.postgres}/postgres` });

beforeAll(async () => {
  // PostgreSQL: orders, with the types that are easy to get wrong.
  const admin = pgAdmin();
  await admin.connect();
  await admin.query(`CREATE DATABASE ${pgDatabase}`);
  await admin.end();
  const db = new pg.Client({ connectionString: `${serviceUrls.postgres}/${pgDatabase}` });
  await db.connect();
  await db.query(
    `CREATE TABLE orders (id bigint PRIMARY KEY, customer_id int, product_id text, amount numeric(12,2), big ` +
      `bigint, placed_at timestamptz, paid boolean, meta jsonb, note text)`,
  );
  await db.query(
    `INSERT INTO orders SELECT g, 1 + g % 50, 'P' || (1 + g % 20), (g % 1000) + 0.25, CASE WHEN g = 1 THEN ` +
      `9007199254740993 ELSE g END,
       TIMESTAMPTZ '2024-01-01 00:00:00+00' + g * INTERVAL '1 minute', g % 2 = 0, jsonb_build_object('g', g), ` +
      `CASE WHEN g = 2 THEN 'say "hi", ok' END
     FROM generate_series(1, ${orderCount}) g`,
  );
  // Wide enough (over 2048 pages) for the connector to copy it in parallel block ranges.
  await db.query(`CREATE TABLE wide AS SELECT g AS id, repeat('x', 500) AS filler FROM generate_series(1, 40000) g`);
  await db.query('ANALYZE wide');
  await db.end();

  // MariaDB: customers.
  const my = await mysql.createConnection(`${serviceUrls.mysql}/`);
  await my.query(`CREATE DATABASE ${myDatabase}`);
  await my.query(
    `CREATE TABLE ${myDatabase}.customers (id INT PRIMARY KEY, region VARCHAR(10), credit DECIMAL(20,4), joined ` +
      `DATETIME, big BIGINT UNSIGNED)`,
  );
  const rows = Array.from({ length: 50 }, (_, i) => [
    i + 1,
    ['EU', 'NA', 'APAC'][i % 3],
    '12345678901234.5678',
    '2023-05-06 07:08:09',
    '18446744073709551615',
  ]);
  await my.query(`INSERT INTO ${myDatabase}.customers VALUES ?`, [rows]);
  await my.end();

  // Redis: a stream of click events.
  const redis = new Redis(serviceUrls.redis);
  for (let i = 1; i <= 300; i++)
    await redis.xadd(
      streamKey,
      '*',
      'customer_id',
      String(1 + (i % 50)),
      'product_id',
      `P${1 + (i % 20)}`,
      'action',
      i % 10 === 0 ? 'checkout' : 'view',
    );
  redis.disconnect();

  // NATS JetStream: order events.
  nats = await connect({ servers: serviceUrls.nats });
  const jsm = await nats.jetstreamManager();
  await jsm.streams.add({ name: natsStream, subjects: [`${natsStream.toLowerCase()}.>`] });
  const js = nats.jetstream();
  for (let i = 1; i <= 100; i++)
    await js.publish(natsSubject, JSON.stringify({ order_id: i, total: i * 1.5, customer_id: 1 + (i % 50) }));

  // S3 (s3rver in-process): products as Parquet and suppliers as CSV.
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: path.join(dir, 's3'),
    configureBuckets: [],
  });
  const { port } = await s3.run();
  s3Endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint: s3Endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  await client.send(new CreateBucketCommand({ Bucket: 'lake' }));
  const parquet = path.join(dir, 'products.parquet');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(
    `COPY (SELECT 'P' || range AS product_id, CASE WHEN range % 2 = 0 THEN 'books' ELSE 'games' END AS ` +
      `category, range * 1.5 AS price FROM range(1, 21)) TO '${parquet}' (FORMAT parquet)`,
  );
  connection.closeSync();
  instance.closeSync();
  await client.send(
    new PutObjectCommand({ Bucket: 'lake', Key: 'shop/products.parquet', Body: fs.readFileSync(parquet) }),
  );
  await client.send(
    new PutObjectCommand({ Bucket: 'lake', Key: 'shop/suppliers/part-1.csv', Body: 'supplier,country\nacme,DE\n' }),
  );
  await client.send(
    new PutObjectCommand({ Bucket: 'lake', Key: 'shop/suppliers/part-2.csv', Body: 'supplier,country\nglobex,US\n' }),
  );
  client.destroy();

  const yaml =
    `
limits: { max_rows: 100000, timeout_ms: 20000 }
sources:
  - { name: pgshop, type: relational, connector: postgres, url: "\${PG_URL}" }
  - { name: crm, type: relational, connector: mariadb, url: "\${MY_URL}" }
  - name: clicks
    type: streaming
    connector: redis
    url: "\${REDIS_URL}"
    tables:
      - { name: events, key: "${streamKey}", fields: { customer_id: INTEGER, product_id: VARCHAR, action: VARCHAR } }
  - name: bus
    type: streaming
    connector: nats
    servers: "\${NATS_URL}"
    tables:
      - { name: orders, stream: ${natsStream}, subject: "${natsSubject}", fields: { order_id: INTEGER, total: ` +
    `DOUBLE, customer_id: INTEGER } }
  - { name: lake, type: object-storage, connector: s3, endpoint: "${s3Endpoint}", bucket: lake, prefix: shop, ` +
    `access_key_id: "\${S3_KEY}", secret_access_key: "\${S3_SECRET}" }
  - { name: deadpg, type: relational, connector: postgres, url: "postgres://postgres@127.0.0.1:1/none" }
  - { name: deadredis, type: streaming, connector: redis, url: "redis://127.0.0.1:1", tables: [{ name: events, ` +
    `key: k, fields: { a: INTEGER } }] }
  - { name: deadnats, type: streaming, connector: nats, servers: "nats://127.0.0.1:1", tables: [{ name: orders, ` +
    `stream: S, fields: { a: INTEGER } }] }
  - { name: deads3, type: object-storage, connector: s3, endpoint: "http://127.0.0.1:1", bucket: lake }
`;
  const env = {
    PG_URL: `${serviceUrls.postgres}/${pgDatabase}`,
    MY_URL: `${serviceUrls.mysql}/${myDatabase}`,
    REDIS_URL: serviceUrls.redis,
    NATS_URL: serviceUrls.nats,
    S3_KEY: 'S3RVER',
    S3_SECRET: 'S3RVER',
  };
  const setup = setupFromText(dir, yaml, env);
  sourcesFile = setup.file!;
  Object.assign(process.env, env);
  ({ engine, catalog, close: closeEngine } = await engineFor(setup));
}, 60_000);

afterAll(async () => {
  await closeEngine?.();
  const admin = pgAdmin();
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${pgDatabase} WITH (FORCE)`);
  await admin.end();
  const my = await mysql.createConnection(`${serviceUrls.mysql}/`);
  await my.query(`DROP DATABASE IF EXISTS ${myDatabase}`);
  await my.end();
  const redis = new Redis(serviceUrls.redis);
  await redis.del(streamKey);
  redis.disconnect();
  if (nats) {
    await (await nats.jetstreamManager()).streams.delete(natsStream).catch(() => undefined);
    await nats.close();
  }
  await s3?.close();
  fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

const run = (sql: string) => engine.run(sql, { maxRows: 100_000, timeoutMs: 20_000 });

async function failure(sql: string): Promise<HttpError> {
  try {
    await run(sql);
  } catch (error) {
    const answer = toHttpError(error);
    if (answer) return answer;
    throw error;
  }
  throw new Error(`expected ${sql} to fail`);
}

describe('connectors against real services', () => {
  it('lists tables with DuckDB column types', async () => {
    const tables = (name: string) => catalog.get(name)!.connector.listTables(testDeadline());
    const pgTables = await tables('pgshop');
    expect(pgTables.map((t) => t.name)).toEqual(['orders', 'wide']);
    expect(pgTables[0].columns).toEqual([
      { name: 'id', type: 'BIGINT' },
      { name: 'customer_id', type: 'INTEGER' },
      { name: 'product_id', type: 'VARCHAR' },
      { name: 'amount', type: 'DECIMAL(12,2)' },
      { name: 'big', type: 'BIGINT' },
      { name: 'placed_at', type: 'TIMESTAMP WITH TIME ZONE' },
      { name: 'paid', type: 'BOOLEAN' },
      { name: 'meta', type: 'JSON' },
      { name: 'note', type: 'VARCHAR' },
    ]);
    expect((await tables('crm'))[0].columns.map((c) => c.type)).toEqual([
      'INTEGER',
      'VARCHAR',
      'DECIMAL(20,4)',
      'TIMESTAMP',
      'UBIGINT',
    ]);
    expect((await tables('clicks'))[0].columns.map((c) => c.name)).toEqual([
      'id',
      'timestamp',
      'customer_id',
      'product_id',
      'action',
    ]);
    expect((await tables('bus'))[0].columns.map((c) => c.name)).toEqual([
      'sequence',
      'subject',
      'timestamp',
      'order_id',
      'total',
      'customer_id',
    ]);
    expect((await tables('lake')).map((t) => t.name).sort()).toEqual(['products', 'suppliers']);
  });

  it('joins relational, streaming and object-storage sources (PostgreSQL, Redis, S3)', async () => {
    const result = await run(`
      SELECT p.category, count(DISTINCT o.id) AS orders, count(*) AS checkouts
      FROM pgshop.orders o
      JOIN clicks.events e ON e.customer_id = o.customer_id AND e.product_id = o.product_id
      JOIN lake.products p ON p.product_id = o.product_id
      WHERE e.action = 'checkout'
      GROUP BY p.category ORDER BY p.category`);
    expect(result.rows.map((r) => r.category)).toEqual(
      ['books', 'games'].filter((c) => result.rows.some((r) => r.category === c)),
    );
    expect(result.rows.length).toBeGreaterThan(0);
    expect(result.scans.map((s) => s.source).sort()).toEqual(['clicks', 'lake', 'pgshop']);
    expect(result.scans.find((s) => s.source === 'clicks')!.rows).toBe(30);
  });

  it('joins MariaDB with NATS JetStream and reads S3 folders as one table', async () => {
    const result = await run(
      `SELECT c.region, count(*) AS n, sum(b.total) AS total FROM bus.orders b JOIN crm.customers c ON c.id = ` +
        `b.customer_id GROUP BY 1 ORDER BY 1`,
    );
    expect(result.rows.reduce((sum, r) => sum + Number(r.n), 0)).toBe(100);
    const suppliers = await run('SELECT supplier FROM lake.suppliers ORDER BY 1');
    expect(suppliers.rows).toEqual([{ supplier: 'acme' }, { supplier: 'globex' }]);
  });

  it('pushes selective filters down: the connector fetches only matching rows', async () => {
    const selective = await run('SELECT id, amount FROM pgshop.orders WHERE amount >= 990');
    const pgScan = selective.scans[0];
    expect(pgScan.pushed).toEqual([{ column: 'amount', op: '>=', value: 990 }]);
    expect(pgScan.rows).toBe(selective.row_count);
    expect(pgScan.rows).toBe(20);
    expect(pgScan.columns).toEqual(['id', 'amount']);
    const full = await run('SELECT id, amount FROM pgshop.orders WHERE amount + 0 >= 990');
    expect(full.scans[0].rows).toBe(orderCount);
    expect(full.rows).toEqual(selective.rows);
    // Aggregated, the filter runs in PostgreSQL before its partial count and sum: one row per block range.
    const aggregated = await run('SELECT count(*) AS n, sum(amount) AS s FROM pgshop.orders WHERE amount >= 990');
    expect(aggregated.rows).toEqual([{ n: 20, s: '19895.00' }]);
    expect(aggregated.scans[0].aggregation?.filters).toEqual([{ column: 'amount', op: '>=', value: 990 }]);
    expect(aggregated.scans[0].rows).toBe(1);

    const eu = await run("SELECT count(*) AS n FROM crm.customers WHERE region = 'EU'");
    expect(eu.scans[0].rows).toBe(Number(eu.rows[0].n));
    expect(eu.scans[0].rows).toBeLessThan(50);

    const late = await run('SELECT count(*) AS n FROM bus.orders WHERE sequence > 90');
    expect(late.rows[0].n).toBe(10);
    expect(late.scans[0].rows).toBe(10);
  });

  it('copies a large table in parallel block ranges without losing or repeating rows', async () => {
    const result = await run('SELECT count(*) AS n, count(DISTINCT id) AS d, sum(id) AS s FROM pgshop.wide');
    expect(result.rows[0]).toEqual({ n: 40000, d: 40000, s: (40000 * 40001) / 2 });
    expect(result.scans[0].rows).toBe(40000);
  });

  it('reads the block ranges of a table being written to as one snapshot', async () => {
    const db = new pg.Client({ connectionString: `${serviceUrls.postgres}/${pgDatabase}` });
    await db.connect();
    await db.query(`CREATE TABLE churn AS SELECT g AS id, repeat('x', 500) AS filler FROM generate_series(1, 40000) g`);
    await db.query('ANALYZE churn');
    // Each update writes every row's new version on other pages (the pages are full), so a range copied after
    // a commit would find rows that a range copied before it already read: a count above 40,000.
    let writing = true;
    const writer = (async () => {
      while (writing) await db.query('UPDATE churn SET id = id');
    })();
    try {
      for (let i = 0; i < 10; i++) {
        const result = await run('SELECT count(*) AS n, sum(id) AS s FROM pgshop.churn');
        // The count and sum are pushed to PostgreSQL: one partial row per block range.
        expect(result.scans[0].rows, 'block ranges').toBeGreaterThan(1);
        expect(result.rows[0]).toEqual({ n: 40000, s: (40000 * 40001) / 2 });
      }
    } finally {
      writing = false;
      await writer;
      await db.query('DROP TABLE churn');
      await db.end();
    }
  });

  it('round-trips BIGINT beyond 2^53, decimals, timestamps, JSON and quoted text', async () => {
    const pgRow = await run(
      'SELECT big, amount, placed_at, paid, meta, note FROM pgshop.orders WHERE id IN (1, 2) ORDER BY id',
    );
    expect(pgRow.rows[0]).toMatchObject({
      big: '9007199254740993',
      amount: 1.25,
      placed_at: '2024-01-01T00:01:00Z',
      paid: false,
      meta: '{"g": 1}',
    });
    expect(pgRow.rows[1]).toMatchObject({ big: 2, note: 'say "hi", ok', paid: true });
    const myRow = await run('SELECT credit, joined, big FROM crm.customers WHERE id = 1');
    expect(myRow.rows[0]).toEqual({
      credit: '12345678901234.5678',
      joined: '2023-05-06T07:08:09',
      big: '18446744073709551615',
    });
  });

  it('names an unreachable source in a 502', async () => {
    for (const [source, table] of [
      ['deadpg', 'orders'],
      ['deadredis', 'events'],
      ['deadnats', 'orders'],
      ['deads3', 'products'],
    ]) {
      const error = await failure(`SELECT * FROM ${source}.${table}`);
      expect(error.status, source).toBe(502);
      expect(error.detail).toContain(`"${source}"`);
    }
  });

  it('offers a check per source for the health component, without settings', async () => {
    const health = querySourceHealth(loadQuerySetup(sourcesFile, process.env));
    const byName = new Map(health.map((h) => [h.name, h]));
    expect(await byName.get('pgshop')!.check(AbortSignal.timeout(10_000))).toMatchObject({
      connector: 'postgres',
      tables: 2,
    });
    expect(await byName.get('clicks')!.check(AbortSignal.timeout(10_000))).toMatchObject({ events: 300 });
    expect(await byName.get('bus')!.check(AbortSignal.timeout(10_000))).toMatchObject({ messages: 100 });
    expect(await byName.get('lake')!.check(AbortSignal.timeout(10_000))).toMatchObject({ tables: 2 });
    await expect(byName.get('deadpg')!.check(AbortSignal.timeout(10_000))).rejects.toThrow(/deadpg/);
    expect(JSON.stringify(health)).not.toContain('S3RVER');
  });
});
