import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineFor, serviceUrls, setupFromText, uniqueName } from '../test-support/query-fixtures.js';
import type { DuckDBEngine } from './duckdb-engine.js';

// The same PostgreSQL database as two sources: `pg` offers aggregations to PostgreSQL, `plain` never does.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-agg-pushdown-'));
const database = uniqueName('aw_agg');
const admin = () => new pg.Client({ connectionString: `${serviceUrls.postgres}/postgres` });
let engine: DuckDBEngine;
let close: () => Promise<void>;

beforeAll(async () => {
  const client = admin();
  await client.connect();
  await client.query(`CREATE DATABASE ${database}`);
  await client.end();
  const db = new pg.Client({ connectionString: `${serviceUrls.postgres}/${database}` });
  await db.connect();
  await db.query(
    `CREATE TABLE sales (id bigint, region_id int, status text, qty int, amount numeric(12,2), big bigint, ` +
      `sold_at timestamptz)`,
  );
  // Few groups (so PostgreSQL's planner takes the aggregation), NULLs in keys and values, sums past 2^63,
  // text keys that differ only in case.
  await db.query(
    `INSERT INTO sales SELECT g, CASE WHEN g % 50 = 0 THEN NULL ELSE g % 5 END, CASE WHEN g % 2 = ` +
      `0 THEN 'a' ELSE 'A' END, g % 7,
      CASE WHEN g % 9 = 0 THEN NULL ELSE (g % 1000) + 0.01 END, 4000000000000000000 + g, TIMESTAMPTZ ` +
      `'2024-01-01 00:00:00+00' + g * INTERVAL '1 second'
    FROM generate_series(1, 3000) g`,
  );
  await db.query('CREATE TABLE empty_sales (LIKE sales)');
  await db.query('ANALYZE');
  await db.end();
  fs.mkdirSync(path.join(dir, 'lake'));
  fs.writeFileSync(path.join(dir, 'lake', 'regions.csv'), 'id,name\n0,north\n1,south\n2,east\n3,west\n');
  const url = `${serviceUrls.postgres}/${database}`;
  const setup = setupFromText(
    dir,
    `sources:
  - { name: pg, type: relational, connector: postgres, url: "${url}" }
  - { name: plain, type: relational, connector: postgres, url: "${url}", aggregation_pushdown: false }
  - { name: lake, type: object-storage, connector: folder, path: lake }
`,
  );
  ({ engine, close } = await engineFor(setup));
}, 60_000);

afterAll(async () => {
  await close?.();
  const client = admin();
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await client.end();
  fs.rmSync(dir, { recursive: true, force: true });
});

const run = (sql: string) => engine.run(sql, { maxRows: 10_000, timeoutMs: 30_000 });

/** Runs `template` (with `{src}`) against both sources; returns the pushed outcome after checking it equals the plain
 * one. */
async function sameAsPlain(template: string) {
  const pushed = await run(template.replaceAll('{src}', 'pg'));
  const plain = await run(template.replaceAll('{src}', 'plain'));
  expect(plain.scans.find((s) => s.source === 'plain')!.aggregation).toBeUndefined();
  expect(pushed.columns).toEqual(plain.columns);
  expect(pushed.rows).toEqual(plain.rows);
  return pushed;
}

describe('aggregation pushdown to PostgreSQL', () => {
  it('joins the partial groups with a lake table and gives exactly the plain answer', async () => {
    const result = await sameAsPlain(
      `SELECT r.name, count(*), count(s.amount) AS priced, sum(s.amount), avg(s.amount) AS mean_amount, ` +
        `sum(s.big) AS big_total, avg(s.qty), min(s.sold_at), max(s.amount)
       FROM {src}.sales s JOIN lake.regions r ON s.region_id = r.id GROUP BY r.name ORDER BY r.name`,
    );
    const scan = result.scans.find((s) => s.source === 'pg')!;
    expect(scan.aggregation?.groupBy.map((c) => c.name)).toEqual(['region_id']);
    // One row per region (and NULL) per block range instead of 3,000 rows.
    expect(scan.rows).toBeLessThanOrEqual(6);
    expect(result.rows).toHaveLength(4);
    // Sums past 2^63 stay exact (HUGEINT, as a string); decimals keep their scale.
    expect(result.rows[0]).toMatchObject({
      name: 'east',
      'count_star()': 600,
      big_total: String(600n * 4000000000000000000n + sumOfIds((g) => g % 5 === 2)),
    });
  });

  it('keeps NULL groups, HAVING and ORDER BY on aggregates', async () => {
    const result = await sameAsPlain(
      'SELECT region_id, count(*) AS n, sum(amount) FROM {src}.sales GROUP BY region_id HAVING sum(amount) > 0 ' +
        'ORDER BY count(*) DESC, region_id NULLS FIRST',
    );
    expect(result.rows.map((r) => r.region_id)).toContain(null);
    expect(result.scans[0].aggregation).toBeDefined();
  });

  it('lets PostgreSQL apply exact numeric filters before grouping', async () => {
    const result = await sameAsPlain(
      'SELECT count(*) AS n, sum(amount) AS s, avg(qty) AS q FROM {src}.sales WHERE qty >= 3 AND region_id ' +
        'BETWEEN 1 AND 3 AND id IN (3, 4, 8, 9, 13)',
    );
    // Ids 3 and 13 pass (qty 3 and 6, region 3); DECIMAL(38,2) sums are strings, as without pushdown.
    expect(result.rows).toEqual([{ n: 2, s: '16.02', q: 4.5 }]);
    expect(result.scans[0].aggregation?.groupBy).toEqual([]);
    expect(result.scans[0].rows).toBeLessThanOrEqual(2);
  });

  it('groups text exactly as DuckDB does ("a" and "A" apart)', async () => {
    const result = await sameAsPlain('SELECT status, count(*) AS n FROM {src}.sales GROUP BY status ORDER BY status');
    expect(result.rows).toEqual([
      { status: 'A', n: 1500 },
      { status: 'a', n: 1500 },
    ]);
    expect(result.scans[0].aggregation).toBeDefined();
  });

  it('counts 0 and sums NULL over no rows', async () => {
    const result = await sameAsPlain(
      'SELECT count(*) AS n, count(amount) AS c, sum(amount) AS s, avg(qty) AS a, min(sold_at) AS first FROM ' +
        '{src}.empty_sales',
    );
    expect(result.rows).toEqual([{ n: 0, c: 0, s: null, a: null, first: null }]);
    expect(result.scans[0].aggregation).toBeDefined();
  });

  it.each([
    [
      'grouping sets',
      'SELECT region_id, status, count(*) AS n, sum(amount) AS s FROM {src}.sales GROUP BY ROLLUP (region_id, ' +
        'status) ORDER BY 1, 2, 3',
    ],
    [
      'GROUP BY ALL and expressions over aggregates',
      'SELECT status, sum(amount) / count(*) AS per_row, count(*) * 2 AS twice, CASE WHEN count(*) > 1000 THEN ' +
        "'big' END AS size FROM {src}.sales GROUP BY ALL ORDER BY 1",
    ],
    [
      'DISTINCT, aliases in ORDER BY, LIMIT and OFFSET',
      'SELECT DISTINCT qty % 2 AS odd, count(*) AS n FROM {src}.sales GROUP BY qty ORDER BY n DESC, odd LIMIT 3 ' +
        'OFFSET 1',
    ],
    [
      'DISTINCT aggregates next to pushed ones',
      'SELECT region_id, count(DISTINCT qty) AS kinds, sum(amount) AS s, max(sold_at) AS last FROM {src}.sales ' +
        "GROUP BY region_id HAVING min(sold_at) < TIMESTAMPTZ '2024-01-01 00:10:00+00' ORDER BY region_id",
    ],
    [
      'a comma join with the condition in WHERE and mixed filters',
      'SELECT r.name, avg(s.amount) AS a, count(s.amount) AS c FROM {src}.sales s, lake.regions r WHERE ' +
        "s.region_id = r.id AND s.qty IN (1, 2) AND s.status = 'a' GROUP BY r.name ORDER BY r.name",
    ],
    [
      'min and max of another table and of decimals',
      'SELECT s.qty, min(r.name) AS first_region, max(s.amount) AS top, min(s.amount) AS bottom FROM ' +
        '{src}.sales s JOIN lake.regions r ON r.id = s.region_id GROUP BY s.qty ORDER BY s.qty',
    ],
  ])('gives the plain answer with %s', async (_, sql) => {
    const result = await sameAsPlain(sql);
    expect(result.scans.find((s) => s.source === 'pg')!.aggregation).toBeDefined();
  });

  it('fetches the plain rows when PostgreSQL expects too few rows per group to gain', async () => {
    const result = await sameAsPlain('SELECT id, count(*) AS n FROM {src}.sales GROUP BY id ORDER BY id LIMIT 3');
    expect(result.scans[0].aggregation).toBeUndefined();
    expect(result.scans[0].rows).toBe(3000);
  });

  it("reports errors of the user's own SQL, not of the rewrite", async () => {
    await expect(run('SELECT count(*), sum(nope) FROM pg.sales')).rejects.toMatchObject({
      name: 'QueryRejected',
      message: expect.stringMatching(/"nope" not found/),
    });
    // Pushable as far as its shape goes: the user's SQL is bound before the rewrite runs.
    await expect(run('SELECT region_id, count(*) FROM pg.sales')).rejects.toMatchObject({
      name: 'QueryRejected',
      message: expect.stringMatching(/GROUP BY/),
    });
  });
});

function sumOfIds(keep: (g: number) => boolean): bigint {
  let sum = 0n;
  for (let g = 1; g <= 3000; g++) if (keep(g)) sum += BigInt(g);
  return sum;
}
