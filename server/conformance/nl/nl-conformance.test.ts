import { describe, expect, it } from 'vitest';
import { parseCsv } from './nl-suite.js';
import { expandDefogGold, normaliseCell, sameResult } from './result-match.js';
import { duckdbDialect, dumpSchema, foreignKeysOf, rewriteToChar } from './suite-database.js';

describe('result matching', () => {
  it('ignores row order, column names and number formatting', () => {
    expect(
      sameResult(
        [
          [1, 'a'],
          [2, 'b'],
        ],
        [
          ['b', '2.0'],
          ['a', 1],
        ],
        true,
      ),
    ).toBe(true);
    expect(normaliseCell(3.14159265)).toBe('3.1416');
    expect(normaliseCell('2024-01-02T00:00:00')).toBe('2024-01-02');
    expect(normaliseCell('2024-01-02 00:00:00')).toBe('2024-01-02');
    expect(normaliseCell('2024-01-02T10:30:00')).toBe('2024-01-02 10:30:00');
  });

  it('keeps rows together: the same column values in other pairs do not match', () => {
    expect(
      sameResult(
        [
          [1, 'a'],
          [2, 'b'],
        ],
        [
          [1, 'b'],
          [2, 'a'],
        ],
        true,
      ),
    ).toBe(false);
  });

  it('needs the same row count, and with exact columns no extra column', () => {
    expect(sameResult([[1]], [[1], [1]], true)).toBe(false);
    expect(sameResult([[1]], [[1, 'x']], true)).toBe(false);
    expect(sameResult([[1]], [[1, 'x']], false)).toBe(true);
    expect(sameResult([[1, 2]], [[1]], false)).toBe(false);
  });
});

describe('defog gold variants', () => {
  it('expands alternatives and {a, b} column choices, with GROUP BY {} taking the same columns', () => {
    const variants = expandDefogGold('SELECT {t.a, t.b}, count(*) FROM t GROUP BY {};SELECT 1');
    expect(variants).toEqual([
      'SELECT t.a, t.b, count(*) FROM t GROUP BY t.a, t.b',
      'SELECT t.a, count(*) FROM t GROUP BY t.a',
      'SELECT t.b, count(*) FROM t GROUP BY t.b',
      'SELECT 1',
    ]);
  });
});

describe('suite dumps', () => {
  const ddl = [
    'CREATE TABLE IF NOT EXISTS "visit" (',
    '"Museum_ID" int,',
    '"visitor_ID" text,',
    'PRIMARY KEY ("Museum_ID","visitor_ID"),',
    'FOREIGN KEY ("Museum_ID") REFERENCES `museum`("Museum_ID"),',
    'FOREIGN KEY ("visitor_ID") REFERENCES `visitor`("ID")',
    ');',
    'CREATE TABLE public.coupons (',
    '  cid BIGINT PRIMARY KEY,',
    '  merchant_id BIGINT NOT NULL REFERENCES public.merchants(mid),',
    '  ok bool',
    ');',
  ].join('\n');

  it('reads foreign keys from table constraints and inline references', () => {
    expect(foreignKeysOf(ddl)).toEqual([
      { table: 'visit', column: 'Museum_ID', refTable: 'museum', refColumn: 'Museum_ID' },
      { table: 'visit', column: 'visitor_ID', refTable: 'visitor', refColumn: 'ID' },
      { table: 'coupons', column: 'merchant_id', refTable: 'merchants', refColumn: 'mid' },
    ]);
  });

  it('rewrites the dialect DuckDB cannot load', () => {
    const sql = duckdbDialect(ddl);
    expect(sql).not.toMatch(/REFERENCES|public\.|`/);
    expect(sql).toContain('ok VARCHAR');
    expect(rewriteToChar("TO_CHAR(DATE_TRUNC('month', NOW()) - INTERVAL '1 month', 'YYYY-MM')")).toBe(
      "strftime(CAST(DATE_TRUNC('month', NOW()) - INTERVAL '1 month' AS TIMESTAMP), '%Y-%m')",
    );
  });

  it('finds the schema a dump creates its tables in', () => {
    expect(dumpSchema(ddl)).toBe('main');
    expect(
      dumpSchema('CREATE SCHEMA IF NOT EXISTS consumer_div;\n\nCREATE TABLE consumer_div.users (uid BIGINT);'),
    ).toBe('consumer_div');
  });

  it('parses quoted CSV fields with commas, doubled quotes and newlines', () => {
    expect(parseCsv('question,query\n"Say ""hi"", twice","SELECT 1,\n2"\n')).toEqual([
      ['question', 'query'],
      ['Say "hi", twice', 'SELECT 1,\n2'],
    ]);
  });
});
