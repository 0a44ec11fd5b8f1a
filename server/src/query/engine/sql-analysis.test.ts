import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableInfo } from '../connectors/types.js';
import { analyseQuery, neededColumns, pushableFilters, referenceKey } from './sql-analysis.js';
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
    { name: 'amount', type: 'DECIMAL(10,2)' },
    { name: 'status', type: 'VARCHAR' },
    { name: 'note', type: 'VARCHAR' },
  ],
};
const customers: TableInfo = {
  name: 'customers',
  columns: [
    { name: 'id', type: 'INTEGER' },
    { name: 'region', type: 'VARCHAR' },
  ],
};
const tables = new Map([
  [referenceKey('pg', 'orders'), orders],
  [referenceKey('crm', 'customers'), customers],
]);

async function filtersOf(sql: string) {
  return pushableFilters(analyseQuery(await parser.parse(sql)), tables);
}

describe('query analysis', () => {
  it('finds qualified references (two- and three-part), not CTE names or unqualified tables', async () => {
    const shape = analyseQuery(
      await parser.parse('WITH x AS (SELECT 1) SELECT * FROM pg.orders, crm.main.customers, x, plain'),
    );
    expect(shape.references).toEqual([
      { source: 'pg', table: 'orders' },
      { source: 'crm', table: 'customers' },
    ]);
  });

  it('needs only the columns the query mentions, all of them after *, and one for count(*)', async () => {
    const shape = analyseQuery(await parser.parse('SELECT o.customer_id, sum(amount) FROM pg.orders o GROUP BY 1'));
    expect(neededColumns(shape, orders).map((c) => c.name)).toEqual(['customer_id', 'amount']);
    expect(neededColumns(analyseQuery(await parser.parse('SELECT * FROM pg.orders')), orders)).toHaveLength(5);
    expect(neededColumns(analyseQuery(await parser.parse('SELECT count(*) FROM pg.orders')), orders)).toHaveLength(1);
    expect(neededColumns(analyseQuery(await parser.parse('SELECT o FROM pg.orders o')), orders)).toHaveLength(5);
  });

  it('pushes comparisons, IN and BETWEEN with constants of the column kind', async () => {
    const filters = await filtersOf(
      'SELECT * FROM pg.orders o JOIN crm.customers c ON o.customer_id = c.id WHERE o.amount > 10.5 AND 3 <= ' +
        "o.id AND c.region IN ('EU', 'NA') AND o.customer_id BETWEEN 1 AND 9 AND status = 'paid'",
    );
    expect(filters.get('pg.orders')).toEqual([
      { column: 'amount', op: '>', value: 10.5 },
      { column: 'id', op: '>=', value: 3 },
      { column: 'customer_id', op: '>=', value: 1 },
      { column: 'customer_id', op: '<=', value: 9 },
      { column: 'status', op: '=', value: 'paid' },
    ]);
    expect(filters.get('crm.customers')).toEqual([{ column: 'region', op: 'in', values: ['EU', 'NA'] }]);
  });

  it.each([
    ['a table used twice', 'SELECT * FROM pg.orders a JOIN pg.orders b ON a.id = b.id WHERE a.amount > 5'],
    ['a disjunction', 'SELECT * FROM pg.orders WHERE amount > 5 OR id = 1'],
    ['a constant of another kind', "SELECT * FROM pg.orders WHERE amount > '5'"],
    [
      'an ambiguous unqualified column',
      'SELECT * FROM pg.orders o JOIN crm.customers c ON o.customer_id = c.id WHERE id = 1',
    ],
    ['a filter on a subquery', 'SELECT * FROM (SELECT * FROM pg.orders) s WHERE s.amount > 5'],
    ['a positional join', 'SELECT * FROM pg.orders o POSITIONAL JOIN crm.customers c WHERE o.amount > 5'],
    ['a sampled table', 'SELECT * FROM pg.orders TABLESAMPLE 10 WHERE amount > 5'],
    ['a sampled select', 'SELECT * FROM pg.orders WHERE amount > 5 USING SAMPLE 10'],
    ['a column compared with a column', 'SELECT * FROM pg.orders WHERE amount > id'],
    ['an integer beyond 2^53', 'SELECT * FROM pg.orders WHERE id = 9007199254740993'],
  ])('pushes nothing for %s', async (_what, sql) => {
    expect((await filtersOf(sql)).get('pg.orders')).toBeUndefined();
  });

  it('still pushes through outer joins (comparisons reject NULL rows either way)', async () => {
    const filters = await filtersOf(
      'SELECT * FROM crm.customers c LEFT JOIN pg.orders o ON o.customer_id = c.id WHERE o.amount >= 100',
    );
    expect(filters.get('pg.orders')).toEqual([{ column: 'amount', op: '>=', value: 100 }]);
  });
});
