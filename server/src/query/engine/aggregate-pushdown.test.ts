import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableInfo } from '../connectors/types.js';
import { planAggregatePushdown } from './aggregate-pushdown.js';
import { analyseQuery, referenceKey } from './sql-analysis.js';
import { SqlParser } from './sql-parser.js';

let parser: SqlParser;
beforeAll(async () => {
  parser = await SqlParser.create();
});
afterAll(() => parser.close());

const orders: TableInfo = {
  name: 'orders',
  columns: [
    { name: 'id', type: 'BIGINT' },
    { name: 'customer_id', type: 'INTEGER' },
    { name: 'amount', type: 'DECIMAL(12,2)' },
    { name: 'weight', type: 'DOUBLE' },
    { name: 'status', type: 'VARCHAR' },
    { name: 'placed_at', type: 'TIMESTAMP' },
  ],
};
const customers: TableInfo = {
  name: 'customers',
  columns: [
    { name: 'id', type: 'INTEGER' },
    { name: 'region', type: 'VARCHAR' },
    { name: 'status', type: 'VARCHAR' },
  ],
};
const tables = new Map([
  [referenceKey('pg', 'orders'), orders],
  [referenceKey('lake', 'customers'), customers],
]);

/** Plans with only `pg` pushing aggregations, as a PostgreSQL source next to a lake would. */
async function planOf(sql: string) {
  const ast = await parser.parse(sql);
  return planAggregatePushdown(ast, analyseQuery(ast), tables, (key) => key.startsWith('pg.'), parser.functions);
}

/** The rewritten query as SQL text, through DuckDB's own deserialiser. */
async function rewrittenSql(sql: string, names: string[]): Promise<string> {
  const plan = await planOf(sql);
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const json = JSON.stringify(
      { error: false, statements: [{ node: plan!.rewrite(names), named_param_map: [] }] },
      (k, v: unknown) => (k === 'query_location' ? undefined : v),
    );
    const reader = await connection.runAndReadAll('SELECT json_deserialize_sql(?::JSON)', [json]);
    return String(reader.getRows()[0][0]);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const joinSql =
  'SELECT c.region, count(*), sum(o.amount) AS revenue, avg(o.customer_id) AS mean_customer FROM pg.orders o ' +
  'JOIN lake.customers c ON o.customer_id = c.id GROUP BY c.region ORDER BY 2 DESC';

describe('aggregation pushdown planning', () => {
  it('groups the table by its join key and splits avg into sum and count', async () => {
    const plan = await planOf(joinSql);
    expect(plan).toBeDefined();
    expect(plan!.key).toBe('pg.orders');
    expect(plan!.aggregation.groupBy).toEqual([{ name: 'customer_id', type: 'INTEGER' }]);
    expect(plan!.aggregation.aggregates).toEqual([
      { fn: 'count' },
      { fn: 'sum', column: 'amount' },
      { fn: 'sum', column: 'customer_id' },
      { fn: 'count', column: 'customer_id' },
    ]);
    // Partial columns typed so the finished aggregates have DuckDB's own result types.
    expect(plan!.aggregation.columns.map((c) => c.type)).toEqual([
      'INTEGER',
      'BIGINT',
      'DECIMAL(38,2)',
      'HUGEINT',
      'BIGINT',
    ]);
  });

  it('rewrites the aggregates over the partial table and keeps the result column names', async () => {
    const sql = await rewrittenSql(joinSql, ['region', 'count_star()', 'revenue', 'mean_customer']);
    expect(sql).toContain('FROM pg.aw_partial.orders AS o');
    expect(sql).toContain('CAST(COALESCE(sum(o.aw_partial_0), 0) AS BIGINT) AS "count_star()"');
    expect(sql).toContain('sum(o.aw_partial_1) AS revenue');
    expect(sql).toContain(
      '(CAST(sum(o.aw_partial_2) AS DOUBLE) / CAST(sum(o.aw_partial_3) AS DOUBLE)) AS mean_customer',
    );
    expect(sql).toContain('ORDER BY 2 DESC');
  });

  it('pushes a global aggregate with no group-by columns', async () => {
    const plan = await planOf('SELECT count(*) AS n, min(placed_at), max(amount) FROM pg.orders');
    expect(plan!.aggregation.groupBy).toEqual([]);
    expect(plan!.aggregation.aggregates).toEqual([
      { fn: 'count' },
      { fn: 'min', column: 'placed_at' },
      { fn: 'max', column: 'amount' },
    ]);
  });

  it(
    'leaves exact numeric filters to the source: they leave the query and their columns are not grouped ' + 'by',
    async () => {
      const sql =
        'SELECT count(*) AS n FROM pg.orders WHERE customer_id BETWEEN 1 AND 9 AND amount > 2.5 AND id IN (1, 2) ' +
        "AND status = 'x'";
      const plan = await planOf(sql);
      expect(plan!.aggregation.filters).toEqual([
        { column: 'customer_id', op: '>=', value: 1 },
        { column: 'customer_id', op: '<=', value: 9 },
        { column: 'amount', op: '>', value: 2.5 },
        { column: 'id', op: 'in', values: [1, 2] },
      ]);
      // Text compares by collation in a database: that filter stays, and its column is grouped by.
      expect(plan!.aggregation.groupBy.map((c) => c.name)).toEqual(['status']);
      expect(await rewrittenSql(sql, ['n'])).toMatch(/WHERE \(status = 'x'\)$/);
    },
  );

  it(
    'groups by the columns of DISTINCT aggregates, filters and text min/max, leaving those aggregates as ' + 'written',
    async () => {
      const plan = await planOf(
        'SELECT count(DISTINCT o.status), min(o.status), sum(o.amount) FROM pg.orders o WHERE o.placed_at > DATE ' +
          "'2024-01-01'",
      );
      expect(plan!.aggregation.groupBy.map((c) => c.name).sort()).toEqual(['placed_at', 'status']);
      expect(plan!.aggregation.aggregates).toEqual([{ fn: 'sum', column: 'amount' }]);
    },
  );

  it('names partial columns apart from the table columns they are grouped with', async () => {
    const wide: TableInfo = { name: 'orders', columns: [...orders.columns, { name: 'aw_partial_0', type: 'INTEGER' }] };
    const ast = await parser.parse('SELECT aw_partial_0, count(*) FROM pg.orders GROUP BY 1');
    const plan = planAggregatePushdown(
      ast,
      analyseQuery(ast),
      new Map([[referenceKey('pg', 'orders'), wide]]),
      () => true,
      parser.functions,
    );
    const names = plan!.aggregation.columns.map((c) => c.name);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
  });

  it.each([
    [
      'an outer join (unmatched rows count once, not once per group)',
      'SELECT c.region, count(*) FROM lake.customers c LEFT JOIN pg.orders o ON o.customer_id = c.id GROUP BY 1',
    ],
    ['a floating-point sum (order of additions changes the result)', 'SELECT sum(weight) FROM pg.orders'],
    ['a floating-point group key', 'SELECT weight, count(*) FROM pg.orders GROUP BY 1'],
    [
      'a sum over another table (would need weighting by the group counts)',
      'SELECT sum(c.id) FROM pg.orders o JOIN lake.customers c ON o.customer_id = c.id',
    ],
    [
      'an ambiguous unqualified column',
      'SELECT status, count(*) FROM pg.orders o JOIN lake.customers c ON o.customer_id = c.id GROUP BY 1',
    ],
    ['a subquery', 'SELECT count(*) FROM pg.orders WHERE customer_id IN (SELECT 1)'],
    ['a window function', 'SELECT customer_id, count(*), rank() OVER (ORDER BY count(*)) FROM pg.orders GROUP BY 1'],
    ['a volatile function', 'SELECT count(*) FROM pg.orders WHERE random() < 0.5'],
    ['a FILTER clause', 'SELECT count(*) FILTER (WHERE amount > 1) FROM pg.orders'],
    ['an ordered aggregate', 'SELECT string_agg(status ORDER BY id) FROM pg.orders'],
    ['an aggregate of an expression', 'SELECT sum(amount * 2) FROM pg.orders'],
    ['an unsupported aggregate', 'SELECT median(amount) FROM pg.orders'],
    ['a self-join', 'SELECT count(*) FROM pg.orders a JOIN pg.orders b ON a.id = b.id'],
    ['a star', 'SELECT *, count(*) OVER () FROM pg.orders'],
    ['a CTE', 'WITH x AS (SELECT 1 AS one) SELECT count(*) FROM pg.orders, x'],
    ['a USING join', 'SELECT count(*) FROM pg.orders o JOIN lake.customers c USING (status)'],
    ['a constant beyond 2^53 (JSON would change it)', 'SELECT count(*) FROM pg.orders WHERE id < 9007199254740993'],
    ['no aggregate at all', 'SELECT DISTINCT customer_id FROM pg.orders'],
    ['only a source that cannot aggregate', 'SELECT count(*) FROM lake.customers'],
  ])('keeps the plain scan for %s', async (_, sql) => {
    expect(await planOf(sql)).toBeUndefined();
  });
});
