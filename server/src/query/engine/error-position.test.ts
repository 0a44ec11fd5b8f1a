import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duckdbErrorPosition } from './error-position.js';

describe('duckdbErrorPosition', () => {
  let instance: DuckDBInstance;
  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
  });
  afterAll(() => instance.closeSync());

  /** DuckDB's own message for `sql`, which must fail. */
  async function messageOf(sql: string): Promise<string> {
    const connection = await instance.connect();
    try {
      await connection.run(sql);
    } catch (error) {
      return (error as Error).message;
    } finally {
      connection.closeSync();
    }
    throw new Error(`${sql} ran`);
  }

  it.each([
    ['SELECT nope FROM range(2)', 'nope'],
    ['SELECT 1,\n\n    nope FROM range(2)', 'nope'],
    ["SELECT range\nFROM range(2)\nWHERE range > 'x' AND missing_col = 1", 'missing_col'],
    [`SELECT ${Array.from({ length: 60 }, (_, i) => `c${i}`).join(', ')} FROM (SELECT 1 AS c0)`, 'c1'],
    [`SELECT ${Array.from({ length: 60 }, (_, i) => i).join(', ')}, nope FROM range(1)`, 'nope'],
  ])('points where DuckDB puts its caret in %j', async (sql, fault) => {
    const at = duckdbErrorPosition(await messageOf(sql), sql);
    const offset = sql.search(new RegExp(`\\b${fault}\\b`));
    const before = sql.slice(0, offset).split('\n');
    expect(at).toEqual({ position: offset, line: before.length, column: before.at(-1)!.length + 1 });
  });

  it('is undefined without a context line, or for a context not in the text', () => {
    expect(duckdbErrorPosition('Conversion Error: Could not convert string', 'SELECT 1')).toBeUndefined();
    expect(
      duckdbErrorPosition('Binder Error: x\n\nLINE 1: SELECT other\n               ^', 'SELECT 1'),
    ).toBeUndefined();
    expect(duckdbErrorPosition('Binder Error: x\n\nLINE 9: SELECT 1\n        ^', 'SELECT 1')).toBeUndefined();
  });
});
