import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTrinoStatement } from '../test-support/trino-grammar.js';
import { toTrinoSpelling } from './trino-dialect.js';

/**
 * Each function the dialect layer maps differently: the DuckDB spelling evaluated in DuckDB, and the Trino
 * spelling asserted to be what Trino's documentation gives the same meaning (no Trino runs here; the opt-in
 * TRINO_URL test of trino-live.test.ts runs them against one).
 */
describe('the Trino dialect keeps DuckDB semantics', () => {
  let db: DuckDBInstance;
  let connection: DuckDBConnection;
  const duck = async (sql: string): Promise<unknown> => {
    const reader = await connection.runAndReadAll(sql);
    const value = reader.getRowsJson()[0][0];
    // BIGINTs come as text in DuckDB's JSON rows.
    return typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  };
  beforeAll(async () => {
    db = await DuckDBInstance.create(':memory:');
    connection = await db.connect();
  });
  afterAll(() => {
    connection.closeSync();
    db.closeSync();
  });

  it('numbers days Sunday 0 .. Saturday 6 (Trino: day_of_week is Monday 1 .. Sunday 7, so % 7)', async () => {
    // 2024-03-03 is a Sunday, 2024-03-09 a Saturday.
    expect(await duck("SELECT dayofweek(DATE '2024-03-03')")).toBe(0);
    expect(await duck("SELECT dayofweek(DATE '2024-03-09')")).toBe(6);
    expect(toTrinoSpelling('SELECT dayofweek(t."d") FROM s.t')).toBe('SELECT (day_of_week(t."d") % 7) FROM s.t');
    // Trino's day_of_week: Sunday 7 -> 0, Saturday 6 -> 6, Monday 1 -> 1.
    expect([7, 6, 1].map((isoDay) => isoDay % 7)).toEqual([0, 6, 1]);
    expect(toTrinoSpelling('SELECT dayname(d) FROM s.t')).toBe("SELECT date_format(d, '%W') FROM s.t");
  });

  it('averages decimals as DOUBLE, where Trino would round to the input scale', async () => {
    const sql = 'SELECT avg(x) FROM (VALUES (1.00::DECIMAL(10,2)), (2.00), (2.00)) v(x)';
    expect(await duck(sql)).toBeCloseTo(5 / 3, 12);
    expect(toTrinoSpelling('SELECT avg(DISTINCT t.amount) FROM s.t')).toBe(
      'SELECT avg(DISTINCT CAST(t.amount AS DOUBLE)) FROM s.t',
    );
  });

  it('divides integers as DOUBLE, where Trino would truncate', async () => {
    expect(await duck('SELECT 7 / 2')).toBe(3.5);
    const trino = toTrinoSpelling('SELECT count(*) / count(DISTINCT a) AS r FROM s.t');
    expect(trino).toBe('SELECT count(*) * 1e0 / count(DISTINCT a) AS r FROM s.t');
    // The same rewrite evaluated by DuckDB keeps its answer: multiplication and division group left.
    expect(await duck(toTrinoSpelling('SELECT 1 + 7 / 2 * 2'))).toBe(8);
  });

  it('searches strings with strpos, formats dates with MySQL patterns, casts HUGEINT as DECIMAL(38,0)', async () => {
    expect(await duck("SELECT contains('Malmö', 'lm')")).toBe(true);
    expect(toTrinoSpelling("SELECT contains(a, 'lm') FROM s.t")).toBe("SELECT (strpos(a, 'lm') > 0) FROM s.t");
    expect(await duck("SELECT strftime(TIMESTAMP '2024-03-01 10:11:12', '%Y-%m-%dT%H:%M:%S')")).toBe(
      '2024-03-01T10:11:12',
    );
    expect(toTrinoSpelling("SELECT strftime(ts, '%Y-%m-%dT%H:%M:%S') FROM s.t")).toBe(
      "SELECT date_format(ts, '%Y-%m-%dT%H:%i:%s') FROM s.t",
    );
    expect(toTrinoSpelling('SELECT CAST(CAST(x AS HUGEINT) AS VARCHAR)')).toBe(
      'SELECT CAST(CAST(x AS DECIMAL(38,0)) AS VARCHAR)',
    );
    expect(toTrinoSpelling("SELECT 42::BIGINT AS answer, t.a.b::VARCHAR, f(x)::DECIMAL(10, 2) FROM 'x::y'")).toBe(
      "SELECT CAST(42 AS BIGINT) AS answer, CAST(t.a.b AS VARCHAR), CAST(f(x) AS DECIMAL(10, 2)) FROM 'x::y'",
    );
  });

  it('builds rows and arrays the Trino way: max_by over a ROW key, a slice of array_agg', async () => {
    const duckSql = 'SELECT arg_max(v, struct_pack(t := k, n := v)) FROM (VALUES (1, 10), (2, 5), (2, 7)) x(k, v)';
    expect(await duck(duckSql)).toBe(7);
    expect(toTrinoSpelling(duckSql)).toBe('SELECT max_by(v, ROW(k, v)) FROM (VALUES (1, 10), (2, 5), (2, 7)) x(k, v)');
    // The _null form keeps a NULL value at the chosen row, as max_by does; the plain one skips it.
    const keepNull = 'SELECT arg_min_null(v, k) FROM (VALUES (NULL, 1), (5, 2)) x(v, k)';
    expect(await duck(keepNull)).toBe(null);
    expect(toTrinoSpelling(keepNull)).toBe('SELECT min_by(v, k) FROM (VALUES (NULL, 1), (5, 2)) x(v, k)');
    const sample = 'SELECT array_slice(array_agg(DISTINCT c) FILTER (WHERE length(c) <= 60), 1, 200) AS c FROM s.t';
    expect(toTrinoSpelling(sample)).toBe(
      'SELECT slice(array_agg(DISTINCT c) FILTER (WHERE length(c) <= 60), 1, 200) AS c FROM s.t',
    );
    expect(toTrinoSpelling("SELECT string_agg(DISTINCT a, ', ') FROM s.t")).toBe(
      "SELECT array_join(array_agg(DISTINCT a), ', ') FROM s.t",
    );
  });

  it('turns regular-expression flags inline and RE2 group references into Java ones', () => {
    expect(toTrinoSpelling("SELECT regexp_matches(a, 'x.y', 'i') FROM s.t")).toBe(
      "SELECT regexp_like(a, '(?' || 'i' || ')' || 'x.y') FROM s.t",
    );
    expect(toTrinoSpelling("SELECT regexp_replace(a, '(a)(b)', '\\2\\1$', 'g') FROM s.t")).toBe(
      "SELECT regexp_replace(a, '(a)(b)', '$2$1\\$') FROM s.t",
    );
    // Without g DuckDB replaces the first match only: Trino has no equal, the call stays for Trino to refuse.
    expect(toTrinoSpelling("SELECT regexp_replace(a, 'a', 'b') FROM s.t")).toContain("regexp_replace(a, 'a', 'b')");
  });

  it("respells the number tests, truncation, epoch, full regex matches and TIMESTAMPTZ (the SPARQL casts' SQL)", () => {
    expect(
      toTrinoSpelling(
        'SELECT isnan(x), isinf(x), isfinite(x), trunc(x), epoch(CAST(d AS TIMESTAMPTZ)), ' +
          "regexp_full_match(a, '[0-9]+') FROM s.t",
      ),
    ).toBe(
      'SELECT is_nan(x), is_infinite(x), is_finite(x), truncate(x), ' +
        'to_unixtime(CAST(d AS TIMESTAMP WITH TIME ZONE)), ' +
        "regexp_like(a, '^(?:' || '[0-9]+' || ')$') FROM s.t",
    );
  });

  it('leaves names, literals and comments alone, and reads OFFSET before LIMIT', () => {
    const sql = `SELECT "avg"(x), 'dayofweek(d) / 2', s.list(x) FROM s.t -- contains(a, b)\n LIMIT 3 OFFSET 1`;
    expect(toTrinoSpelling(sql)).toBe(
      `SELECT "avg"(x), 'dayofweek(d) / 2', s.list(x) FROM s.t -- contains(a, b)\n OFFSET 1 LIMIT 3`,
    );
    expect(toTrinoSpelling('SELECT x FROM s.t WHERE d >= current_date - INTERVAL 30 DAY')).toBe(
      "SELECT x FROM s.t WHERE d >= current_date - INTERVAL '30' DAY",
    );
  });
});

describe("the checker of Trino's grammar and function list", () => {
  it('fails a syntax error and a function Trino does not have', () => {
    expect(checkTrinoStatement('SELECT 1 +').syntax.length).toBeGreaterThan(0);
    expect(checkTrinoStatement('SELECT a::int FROM t').syntax.length).toBeGreaterThan(0);
    expect(checkTrinoStatement('SELECT dayofweek(x), strpos(a, b) FROM t').unknownFunctions).toEqual(['dayofweek']);
    expect(checkTrinoStatement('SELECT max_by(a, ROW(b, c)) FROM c.s.t OFFSET 1 LIMIT 3')).toEqual({
      syntax: [],
      unknownFunctions: [],
    });
  });

  it('fails a recursive WITH query that is not a UNION ALL, as Trino refuses it', () => {
    const recursive = (union: string) =>
      `WITH RECURSIVE e(a) AS (SELECT 1 UNION SELECT 2), r(a, d) AS (SELECT a, 1 FROM e ${union} ` +
      'SELECT DISTINCT x.a, x.d + 1 FROM r x JOIN e y ON x.a = y.a WHERE x.d <= 3) SELECT * FROM r';
    expect(checkTrinoStatement(recursive('UNION ALL'))).toEqual({ syntax: [], unknownFunctions: [] });
    expect(checkTrinoStatement(recursive('UNION')).syntax).toEqual([
      'recursive WITH query r is not a UNION ALL of a base relation and a step (Trino runs no other)',
    ]);
    // A query of a WITH RECURSIVE that does not refer to itself (e above) may be any query.
    expect(checkTrinoStatement('WITH RECURSIVE e(a) AS (SELECT 1 UNION SELECT 2) SELECT * FROM e').syntax).toEqual([]);
  });
});
