import { DuckDBInstance, type DuckDBConnection, type DuckDBType, type Json } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonValue } from './result-format.js';
import { ByteBudget, ValuesTooLarge, chunkReaders } from './result-values.js';

let instance: DuckDBInstance;
let connection: DuckDBConnection;

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
});
afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

/** The first chunk of `sql`'s rows, read by chunkReaders under `budget` and by @duckdb/node-api's values. */
async function bothWays(sql: string, budget = Number.POSITIVE_INFINITY) {
  const result = await connection.stream(sql);
  const types: DuckDBType[] = Array.from({ length: result.columnCount }, (_, i) => result.columnType(i));
  const chunk = (await result.fetchChunk())!;
  const readers = chunkReaders(chunk, types);
  const read = () =>
    Array.from({ length: chunk.rowCount }, (_, row) => {
      const bytes = new ByteBudget(budget);
      return readers.map((reader) => reader(row, bytes));
    });
  const expected: Json[][] = Array.from({ length: chunk.rowCount }, (_, row) => {
    const values: Json[] = [];
    chunk.visitRowValues(row, (value, _row, _column, type) => values.push(jsonValue(value, type, jsonValue)));
    return values;
  });
  return { read, expected };
}

describe('chunkReaders', () => {
  it('converts nested values, NULLs at every level, exactly as the values of @duckdb/node-api convert', async () => {
    const { read, expected } = await bothWays(`
      SELECT i,
        CASE WHEN i % 3 = 0 THEN NULL ELSE [i, NULL, i * 2] END AS list,
        CASE WHEN i % 4 = 0 THEN NULL ELSE {'a': i, 'b': [{'c': 'x' || i}, NULL], 'd': NULL} END AS struct,
        CASE WHEN i % 5 = 0 THEN NULL ELSE map([i, i + 1], ['é' || i, NULL]) END AS map,
        [i, NULL]::INTEGER[2] AS array, [[i, 1]::INTEGER[2], NULL] AS arrays,
        [[i::BIGINT * 10000000000], [], NULL] AS lists,
        ('\\x00\\xff' || i)::BLOB AS blob,
        repeat('ü"\\', i % 7) AS text,
        (i / 3)::DECIMAL(20, 4) AS wide, (i / 3)::DECIMAL(9, 2) AS narrow,
        TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i) SECOND AS at,
        INTERVAL (i) DAY AS span, [DATE '2024-02-29'] AS dates, i % 2 = 0 AS even,
        union_value(n := i)::UNION(n INTEGER, s VARCHAR) AS u
      FROM range(50) t(i)`);
    expect(read()).toEqual(expected);
  });

  it('refuses a list longer than the budget from its length, before reading one item', async () => {
    const { read } = await bothWays('SELECT range(0, n) AS l FROM (VALUES (2000000)) t(n)', 4096);
    const heap = process.memoryUsage().heapUsed;
    expect(read).toThrow(ValuesTooLarge);
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(10 * 1024 ** 2);
  });

  it('refuses a string longer than the budget from its header, before it becomes a JavaScript string', async () => {
    const { read } = await bothWays("SELECT 'ab' AS a, repeat('x', n) AS s FROM (VALUES (50000000)) t(n)", 4096);
    const heap = process.memoryUsage().heapUsed;
    expect(read).toThrow(ValuesTooLarge);
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(10 * 1024 ** 2);
  });

  it('charges no more than the JSON takes, so a row that fits its budget exactly is read', async () => {
    const sql = "SELECT [1, 22, NULL] AS l, {'k': 'v'} AS s, 'é' AS t, NULL AS n";
    const { expected } = await bothWays(sql);
    const exact = Buffer.byteLength(JSON.stringify(expected[0]));
    expect((await bothWays(sql, exact)).read()).toEqual(expected);
  });
});
