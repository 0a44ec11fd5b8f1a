import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HttpError } from '../../core/errors.js';
import { QueryCancelled, QueryTimeout, toHttpError } from '../../core/domain-errors.js';
import type { Connector } from '../connectors/types.js';
import { SourceCatalog } from '../source-catalog.js';
import { defaultLimits, type SourceDefinition } from '../sources.js';
import { copyExampleWorkspace, engineFor, setupFromText, slowQuery } from '../test-support/query-fixtures.js';
import { DuckDBEngine } from './duckdb-engine.js';
import { LowPriorityThreads } from './low-priority-threads.js';
import { SqlParser } from './sql-parser.js';

let workspace: string;
let engine: DuckDBEngine;
let close: () => Promise<void>;

beforeAll(async () => {
  workspace = copyExampleWorkspace();
  const setup = setupFromText(
    path.join(workspace, 'query'),
    fs
      .readFileSync(path.join(workspace, 'query', 'sources.yaml'), 'utf8')
      .replace('timeout_ms: 30000', 'timeout_ms: 1500'),
  );
  ({ engine, close } = await engineFor(setup));
});
afterAll(async () => {
  await close();
  fs.rmSync(workspace, { recursive: true, force: true });
});

const run = (sql: string, maxRows = 1000, timeoutMs = 5000) => engine.run(sql, { maxRows, timeoutMs });

/** The error answer a query fails with (a domain error as the client sees it). */
async function failure(sql: string, timeoutMs = 5000): Promise<HttpError> {
  try {
    await run(sql, 1000, timeoutMs);
  } catch (error) {
    const answer = toHttpError(error);
    if (answer) return answer;
    throw error;
  }
  throw new Error(`expected ${sql} to fail`);
}

describe('DuckDB engine on the example workspace', () => {
  it('answers "average order value by region"', async () => {
    const result = await run(
      'SELECT c.region, avg(o.amount) AS aov, count(*) AS n FROM shop.orders o JOIN shop.customers c ON ' +
        'o.customer_id = c.id GROUP BY c.region ORDER BY c.region',
    );
    expect(result.columns).toEqual([
      { name: 'region', type: 'VARCHAR' },
      { name: 'aov', type: 'DOUBLE' },
      { name: 'n', type: 'BIGINT' },
    ]);
    expect(result.rows.map((r) => r.region)).toEqual(['APAC', 'EU', 'LATAM', 'NA']);
    expect(result.rows.reduce((sum, r) => sum + Number(r.n), 0)).toBe(1500);
    expect(result.truncated).toBe(false);
  });

  it('joins a relational, an object-storage and a streaming source in one statement', async () => {
    const result = await run(
      'SELECT p.category, count(*) AS checkouts FROM events.clicks k JOIN lake.products p ON k.product_id = ' +
        ("p.product_id JOIN shop.customers c ON c.id = k.customer_id WHERE k.action = 'checkout' AND c.region = " +
          "'EU' GROUP BY 1 ORDER BY 1"),
    );
    expect(result.rows.length).toBeGreaterThan(0);
    const sources = result.scans.map((s) => s.source).sort();
    expect(sources).toEqual(['events', 'lake', 'shop']);
    // Pushdown: the stream only handed over checkout events, the shop only EU customers.
    const clicks = result.scans.find((s) => s.table === 'clicks')!;
    expect(clicks.pushed).toEqual([{ column: 'action', op: '=', value: 'checkout' }]);
    const all = await run('SELECT count(*) AS n FROM events.clicks');
    expect(clicks.rows).toBeLessThan(Number(all.rows[0].n));
    const customers = result.scans.find((s) => s.table === 'customers')!;
    expect(customers.columns.sort()).toEqual(['id', 'region']);
  });

  it('keeps decimals, 64-bit integers and timestamps exact', async () => {
    const result = await run(
      'SELECT 9007199254740993::BIGINT AS big, 42::BIGINT AS small, ' +
        ('-170141183460469231731687303715884105727::HUGEINT AS huge, 12345678901234567.89::DECIMAL(20,2) AS ' +
          ("wide, 1234.56::DECIMAL(10,2) AS narrow, TIMESTAMP '2024-02-29 23:59:59.123456' AS ts, TIMESTAMPTZ " +
            "'2024-01-02 03:04:05+02:00' AS tz, DATE '1999-12-31' AS d, NULL AS nothing")),
    );
    expect(result.rows[0]).toEqual({
      big: '9007199254740993',
      small: 42,
      huge: '-170141183460469231731687303715884105727',
      wide: '12345678901234567.89',
      narrow: 1234.56,
      ts: '2024-02-29T23:59:59.123456',
      tz: '2024-01-02T01:04:05Z',
      d: '1999-12-31',
      nothing: null,
    });
    const orders = await run('SELECT amount, ordered_at FROM shop.orders WHERE id = 1');
    expect(orders.columns.map((c) => c.type)).toEqual(['DECIMAL(10,2)', 'TIMESTAMP']);
    expect(typeof orders.rows[0].amount).toBe('number');
    expect(String(orders.rows[0].ordered_at)).toMatch(/^2024-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  });

  it('gives an INTERVAL as its months, days and microseconds (a string), as docs/query.md says', async () => {
    const result = await run(
      "SELECT INTERVAL '1 year 2 months 3 days 04:05:06.789' AS mixed, -INTERVAL 90 MINUTE AS neg, " +
        "TIMESTAMP '2024-03-01 10:00' - TIMESTAMP '2024-02-28 08:30' AS elapsed",
    );
    expect(result.columns.map((c) => c.type)).toEqual(['INTERVAL', 'INTERVAL', 'INTERVAL']);
    expect(result.rows[0]).toEqual({
      mixed: { months: 14, days: 3, micros: '14706789000' },
      neg: { months: 0, days: 0, micros: '-5400000000' },
      elapsed: { months: 0, days: 2, micros: '5400000000' },
    });
  });

  it('truncates at the row limit and says so', async () => {
    const result = await run('SELECT * FROM shop.orders', 10);
    expect(result.row_count).toBe(10);
    expect(result.truncated).toBe(true);
  });

  it('keeps duplicate column names apart', async () => {
    const result = await run(
      'SELECT o.id, c.id FROM shop.orders o JOIN shop.customers c ON o.customer_id = c.id LIMIT 1',
    );
    const names = result.columns.map((c) => c.name);
    expect(new Set(names).size).toBe(2);
    expect(Object.keys(result.rows[0])).toEqual(names);
    expect(Object.values(result.rows[0]).every((v) => typeof v === 'number')).toBe(true);
  });

  it.each([
    ['read_csv of a local file', "SELECT * FROM read_csv('/etc/passwd')"],
    ['read_text', "SELECT * FROM read_text('/etc/hostname')"],
    ['glob', "SELECT * FROM glob('/etc/*')"],
    ['read_parquet of the workspace data', "SELECT * FROM read_parquet('query/lake/products.parquet')"],
    ['a nested query() running ATTACH', "SELECT * FROM query('ATTACH ''/tmp/x.db'' AS x')"],
    ['COPY', "COPY (SELECT 1) TO '/tmp/aw-escape.csv'"],
    ['ATTACH', "ATTACH '/tmp/aw-escape.db' AS x"],
    ['INSTALL', 'INSTALL httpfs'],
    ['LOAD', 'LOAD httpfs'],
    ['SET', 'SET enable_external_access = true'],
    ['PRAGMA', 'PRAGMA database_list'],
    ['CREATE', 'CREATE TABLE t AS SELECT 1'],
    ['a second statement', "SELECT 1; COPY (SELECT 1) TO '/tmp/aw-escape.csv'"],
    ['DELETE', 'DELETE FROM shop.orders'],
  ])('refuses %s with 400', async (_what, sql) => {
    const error = await failure(sql);
    expect(error.status).toBe(400);
    expect(fs.existsSync('/tmp/aw-escape.csv')).toBe(false);
  });

  it('gives the position of a syntax error', async () => {
    const error = await failure('SELECT id\nFROM shop.orders\nWHERE amount >');
    expect(error.status).toBe(400);
    expect(error.extra).toMatchObject({ line: 3, column: 15 });
    expect(error.detail).toContain('line 3');
  });

  it('answers 404 for an unknown source or table, naming it', async () => {
    expect((await failure('SELECT * FROM nowhere.t')).detail).toContain('nowhere');
    const table = await failure('SELECT * FROM shop.invoices');
    expect(table.status).toBe(404);
    expect(table.detail).toContain('invoices');
  });

  it('answers a table named without its source with the workspace tables, never an engine-internal name', async () => {
    const error = await failure('SELECT * FROM orders');
    expect(error.status).toBe(404);
    expect(error.code).toBe('QUERY_UNKNOWN_TABLE');
    expect(error.detail).toContain('shop.orders');
    const nowhere = await failure('SELECT * FROM invoices');
    expect(nowhere.detail).toMatch(/sources here are .*shop/);
    for (const e of [error, nowhere]) expect(e.detail).not.toMatch(/sqlite_|duckdb_|pg_|information_schema/);
  });

  it('answers an unknown function with a function error naming close known functions', async () => {
    const getenv = await failure("SELECT getenv('HOME')");
    expect(getenv).toMatchObject({ status: 400, code: 'QUERY_UNKNOWN_FUNCTION', extra: { function: 'getenv' } });
    const foo = await failure('SELECT foo(1)');
    expect(foo.code).toBe('QUERY_UNKNOWN_FUNCTION');
    expect(foo.detail).toContain('foo()');
    const sumx = await failure('SELECT sumx(amount) FROM shop.orders');
    expect(sumx.extra).toMatchObject({ function: 'sumx', nearest: ['sum'] });
    expect(sumx.detail).toContain('did you mean sum()');
    for (const e of [getenv, foo, sumx]) expect(e.detail).not.toMatch(/sqlite_|duckdb_|pg_|information_schema/);
  });

  it('stops a query at its timeout with 504', async () => {
    const error = await failure(slowQuery, 300);
    expect(error.status).toBe(504);
    expect(error.detail).toContain('300 ms');
  });

  it('stops a cancelled query whenever the cancel lands, even while its statement is being prepared', async () => {
    // The query has no source, so a cancel lands somewhere between taking its instance and running:
    // each delay hits another phase. A lost interrupt would let the 10^10-row query run for minutes.
    for (let delay = 0; delay < 24; delay++) {
      const controller = new AbortController();
      const query = engine.run(slowQuery, { maxRows: 10, timeoutMs: 60_000, signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, delay));
      controller.abort(new QueryCancelled());
      const stopped = await Promise.race([
        query.then(
          () => 'finished',
          () => 'stopped',
        ),
        new Promise((resolve) => setTimeout(() => resolve('still running'), 3000)),
      ]);
      expect(stopped, `cancelled after ${delay} ms`).toBe('stopped');
    }
  });

  it('runs concurrent queries without sharing state', async () => {
    const regions = ['APAC', 'EU', 'LATAM', 'NA'];
    const results = await Promise.all(
      regions.map((region) =>
        run(`SELECT count(*) AS n, min(region) AS r FROM shop.customers WHERE region = '${region}'`),
      ),
    );
    expect(results.map((r) => r.rows[0].r)).toEqual(regions);
    const total = await run('SELECT count(*) AS n FROM shop.customers');
    expect(results.reduce((sum, r) => sum + Number(r.rows[0].n), 0)).toBe(total.rows[0].n);
  });
});

describe('a source that keeps sending', () => {
  /** A streaming source whose scan never ends; records whether its stream was closed. */
  function endlessSource() {
    const state = { closed: false };
    const table = { name: 'ticks', columns: [{ name: 'n', type: 'BIGINT' }] };
    const connector: Connector = {
      listTables: async () => [table],
      describeTable: async (name) => (name.toLowerCase() === 'ticks' ? table : undefined),
      check: async () => ({}),
      close: async () => undefined,
      scan: async () => ({
        pushed: [],
        output: {
          kind: 'rows',
          batches: (async function* () {
            try {
              for (let n = 0; ; n++) {
                await new Promise((resolve) => setTimeout(resolve, 5));
                yield [[n]];
              }
            } finally {
              state.closed = true;
            }
          })(),
        },
      }),
    };
    const definition: SourceDefinition = {
      name: 'ticker',
      type: 'streaming',
      description: '',
      connector: 'test',
      trino: { catalog: 'x', schema: 'y' },
      connect: () => connector,
    };
    return { definition, state };
  }

  it('is cut off at the timeout (504) and its stream is closed', async () => {
    const { definition, state } = endlessSource();
    const parser = await SqlParser.create();
    const engine = new DuckDBEngine(new SourceCatalog([definition]), parser, { ...defaultLimits });
    try {
      const error = await engine
        .run('SELECT count(*) FROM ticker.ticks', { maxRows: 10, timeoutMs: 200 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QueryTimeout);
      expect(toHttpError(error)?.status).toBe(504);
      // The query answers at its deadline; the stream is closed as the load unwinds, right after.
      await vi.waitFor(() => expect(state.closed).toBe(true));
    } finally {
      parser.close();
    }
  });

  it('stops when its job is cancelled', async () => {
    const { definition, state } = endlessSource();
    const parser = await SqlParser.create();
    const engine = new DuckDBEngine(new SourceCatalog([definition]), parser, { ...defaultLimits });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new QueryCancelled()), 100);
    try {
      const error = await engine
        .run('SELECT count(*) FROM ticker.ticks', { maxRows: 10, timeoutMs: 10_000, signal: controller.signal })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QueryCancelled);
      // The query answers at its deadline; the stream is closed as the load unwinds, right after.
      await vi.waitFor(() => expect(state.closed).toBe(true));
    } finally {
      parser.close();
    }
  });
});

describe.runIf(process.platform === 'linux')('the threads large and short queries compute on', () => {
  it("lowers only the workers of a large query that reads no source: not the pool's, a short query's", async () => {
    const present = new Set(fs.readdirSync('/proc/self/task').map(Number));
    const lowered: number[] = [];
    // Recorded, not applied: a thread of the test process could not be raised again.
    const threads = new LowPriorityThreads(
      () => expect.unreachable(),
      '/proc/self/task',
      (tid) => lowered.push(tid),
    );
    const parser = await SqlParser.create();
    const setup = setupFromText(
      path.join(workspace, 'query'),
      fs.readFileSync(path.join(workspace, 'query', 'sources.yaml'), 'utf8'),
    );
    const catalog = new SourceCatalog(setup.sources);
    const engine = new DuckDBEngine(catalog, parser, { ...defaultLimits, threads: 2 }, threads);
    try {
      expect((await engine.run('SELECT 1 AS one', { maxRows: 10, timeoutMs: 10_000 })).rows).toEqual([{ one: 1 }]);
      // A query that reads a source keeps normal priority: the source's rows flow through its final statement.
      const orders = await engine.run('SELECT count(*) AS n FROM shop.orders', { maxRows: 10, timeoutMs: 10_000 });
      expect(orders.rows).toHaveLength(1);
      expect(lowered).toEqual([]);
      const large = await engine.run('SELECT count(*) AS n FROM range(10)', { maxRows: 10, timeoutMs: 10_000 });
      expect(large.rows).toEqual([{ n: 10 }]);
      expect(lowered.length).toBeGreaterThan(0);
      expect(lowered.filter((tid) => present.has(tid) || tid === process.pid)).toEqual([]);
    } finally {
      await engine.close();
      await catalog.close();
      parser.close();
    }
  });
});
