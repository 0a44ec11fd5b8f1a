import { describe, expect, it } from 'vitest';
import { isGroupedAggregate } from './chart-data.js';
import { aliases, suggestions, type Catalog } from '../editor/languages/completion.js';
import { answerToResult, sparqlToResult } from './query-api.js';
import { cellText, sortRows, toCsv, toJson, toTsv } from './result-format.js';
import { quoteIdentifier, tableReferences } from './sql-references.js';

const sources = ['shop', 'lake', 'events'];

describe('tableReferences', () => {
  it('finds source.table pairs of known sources once, with main. and quoted names', () => {
    const sql = `SELECT * FROM shop.orders o JOIN SHOP.customers c ON o.customer_id = c.id
      JOIN lake.main."Products" p ON p.product_id = o.product_id JOIN shop.orders x ON true`;
    expect(tableReferences(sql, sources)).toEqual([
      { source: 'shop', table: 'orders' },
      { source: 'shop', table: 'customers' },
      { source: 'lake', table: 'Products' },
    ]);
  });
  it('ignores aliases, strings, comments and unknown sources', () => {
    const sql = "SELECT o.id, 'shop.secret' FROM nope.t -- events.clicks\n /* lake.reviews */ WHERE o.x = 1";
    expect(tableReferences(sql, sources)).toEqual([]);
  });
  it('quotes identifiers that need it', () => {
    expect(quoteIdentifier('orders')).toBe('orders');
    expect(quoteIdentifier('Order "items"')).toBe('"Order ""items"""');
  });
});

describe('result formatting', () => {
  const result = {
    columns: [
      { name: 'name', type: 'VARCHAR' },
      { name: 'n', type: 'BIGINT' },
    ],
    rows: [
      { name: 'b, "quoted"', n: 10 },
      { name: null, n: '9007199254740993' },
      { name: '=cmd()', n: 2 },
      { name: 'multi\nline', n: null },
    ],
  };
  it('sorts numbers numerically (numeric strings too), NULLs last both ways as DuckDB orders them, stably', () => {
    expect(sortRows(result.rows, 'n', 'asc').map((r) => r.n)).toEqual([2, 10, '9007199254740993', null]);
    expect(sortRows(result.rows, 'n', 'desc').map((r) => r.n)).toEqual(['9007199254740993', 10, 2, null]);
    expect(result.rows[0].n).toBe(10);
  });
  it('writes CSV with quoting, empty NULLs and formula injection guarded', () => {
    expect(toCsv(result)).toBe(
      'name,n\r\n"b, ""quoted""",10\r\n,9007199254740993\r\n"\'=cmd()",2\r\n"multi\nline",\r\n',
    );
  });
  it('keeps negative numbers unquoted in CSV', () => {
    expect(toCsv({ columns: [{ name: 'x', type: 'INTEGER' }], rows: [{ x: -5 }] })).toBe('x\r\n-5\r\n');
  });
  it('writes JSON rows and tab-separated text without breaking lines', () => {
    expect(JSON.parse(toJson(result))).toEqual(result.rows);
    expect(toTsv(result).split('\n')).toHaveLength(5);
    expect(cellText({ a: 1 })).toBe('{"a":1}');
    expect(cellText(null)).toBe('NULL');
  });
});

describe('completion', () => {
  const catalog: Catalog = {
    sources,
    tables: { shop: ['customers', 'orders'] },
    columns: {
      'shop.orders': [{ name: 'amount', type: 'DECIMAL(10,2)' }],
      'shop.customers': [{ name: 'region', type: 'VARCHAR' }],
    },
  };
  it('offers the tables of a source after its name', () => {
    expect(suggestions(catalog, 'shop.', '').map((s) => s.label)).toEqual(['customers', 'orders']);
  });
  it('offers the columns of a table, and of a table through its alias', () => {
    expect(suggestions(catalog, 'shop.orders.', '').map((s) => s.label)).toEqual(['amount']);
    const sql = 'SELECT o. FROM shop.orders AS o JOIN shop.customers c ON true';
    expect(aliases(sql, catalog)).toEqual(
      new Map([
        ['o', 'shop.orders'],
        ['c', 'shop.customers'],
      ]),
    );
    expect(suggestions(catalog, 'c.', sql).map((s) => s.label)).toEqual(['region']);
    expect(suggestions(catalog, 'zz.', sql)).toEqual([]);
  });
  it('offers sources, qualified tables, columns and keywords at the top level', () => {
    const labels = suggestions(catalog, '', '').map((s) => s.label);
    expect(labels.slice(0, 6)).toEqual(['shop', 'lake', 'events', 'shop.customers', 'shop.orders', 'amount']);
    expect(labels).toContain('GROUP BY');
  });
});

describe('isGroupedAggregate', () => {
  const grouped = {
    columns: [
      { name: 'region', type: 'VARCHAR' },
      { name: 'n', type: 'DOUBLE' },
    ],
    rows: [
      { region: 'EU', n: 3 },
      { region: 'NA', n: 5 },
    ],
  };
  it('is true for a grouping query with a numeric column and several rows', () => {
    expect(isGroupedAggregate(grouped, 'SELECT region, count(*) AS n FROM shop.customers GROUP BY region')).toBe(true);
    expect(
      isGroupedAggregate(
        {
          columns: [
            { name: 'year', type: 'DOUBLE' },
            { name: 'n', type: 'DOUBLE' },
          ],
          rows: [
            { year: 2023, n: 1 },
            { year: 2024, n: 2 },
          ],
        },
        'SELECT year, count(*) AS n FROM t GROUP BY year',
      ),
    ).toBe(true);
    expect(isGroupedAggregate(grouped, 'select region, count(*) as n from shop.customers group\n  by region')).toBe(
      true,
    );
  });
  it('is false without GROUP BY, with one row, or without a numeric column', () => {
    expect(isGroupedAggregate(grouped, 'SELECT region, n FROM t')).toBe(false);
    expect(
      isGroupedAggregate(
        { ...grouped, rows: grouped.rows.slice(0, 1) },
        'SELECT region, count(*) FROM t GROUP BY region',
      ),
    ).toBe(false);
    expect(
      isGroupedAggregate(
        { columns: [{ name: 'region', type: 'VARCHAR' }], rows: grouped.rows },
        'SELECT region FROM t GROUP BY region',
      ),
    ).toBe(false);
  });
});

describe('sparqlToResult', () => {
  it('turns bindings into rows (unbound as null) and ASK into one boolean', () => {
    const rows = sparqlToResult(
      { head: { vars: ['s', 'o'] }, results: { bindings: [{ s: { type: 'uri', value: 'http://x' } }] } },
      3,
    );
    expect(rows).toMatchObject({
      columns: [{ name: 's' }, { name: 'o' }],
      rows: [{ s: 'http://x', o: null }],
      row_count: 1,
    });
    expect(sparqlToResult({ head: {}, boolean: false }, 1).rows).toEqual([{ boolean: false }]);
  });
});

describe('answerToResult', () => {
  it("labels a question's columns with the server's types: a DECIMAL sum sent as a string is no VARCHAR", () => {
    const result = answerToResult(
      {
        answer: 'Total amount by region (2 groups): NA: 104,495.87; EU: 102,659.87.',
        generated_query: 'SELECT region, sum(amount) AS sum_amount FROM shop.orders GROUP BY region',
        results: [
          { region: 'NA', sum_amount: '104495.87' },
          { region: 'EU', sum_amount: '102659.87' },
        ],
        columns: [
          { name: 'region', type: 'VARCHAR' },
          { name: 'sum_amount', type: 'DECIMAL(38,2)' },
        ],
      },
      5,
    );
    expect(result.columns.map((c) => c.type)).toEqual(['VARCHAR', 'DECIMAL(38,2)']);
    expect(result).toMatchObject({ row_count: 2, elapsed_ms: 5, truncated: false });
    // Being numeric, the grouped sum is charted beside its rows.
    expect(isGroupedAggregate(result, 'SELECT region, sum(amount) FROM t GROUP BY region')).toBe(true);
  });
});
