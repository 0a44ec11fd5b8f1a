import { DuckDBDataChunk, DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../core/errors.js';
import { ResultRows, readDuckDBResult, resultColumnNames } from './result-rows.js';

const column = (name: string) => ({ name, type: 'INTEGER' });

describe('resultColumnNames', () => {
  it('leaves distinct ordinary names alone', () => {
    expect(resultColumnNames(['id', 'name', 'a1', '01', '-3', '4294967295'])).toEqual([
      'id',
      'name',
      'a1',
      '01',
      '-3',
      '4294967295',
    ]);
  });

  it('prefixes names a JavaScript object would reorder or drop, then numbers repeats', () => {
    expect(resultColumnNames(['a', 'a', '3', '0', '__proto__', '_3', 'a'])).toEqual([
      'a',
      'a:1',
      '_3',
      '_0',
      '___proto__',
      '_3:1',
      'a:2',
    ]);
  });
});

describe('ResultRows', () => {
  it('stops at the row limit and names it', () => {
    const rows = new ResultRows([column('n')], { maxRows: 2 });
    for (let n = 0; n < 5 && rows.wantsMore(); n++) rows.add([n]);
    expect(rows.result(7)).toEqual({
      columns: [{ name: 'n', type: 'INTEGER' }],
      rows: [{ n: 0 }, { n: 1 }],
      row_count: 2,
      truncated: true,
      truncated_reason: 'the result was cut at the row limit, limits.max_rows = 2',
      elapsed_ms: 7,
    });
  });

  it('is not truncated when the last row exactly fills the row limit', () => {
    const rows = new ResultRows([column('n')], { maxRows: 2 });
    rows.add([1]);
    rows.add([2]);
    expect(rows.result(0)).toMatchObject({ row_count: 2, truncated: false });
  });

  it('keeps rows while their JSON fits the byte limit', () => {
    const rows = new ResultRows([column('s')], { maxRows: 100, maxBytes: 40 });
    const added = ['aaaaaaaa', 'bbbbbbbb', 'cccccccc'].map((s) => rows.wantsMore() && rows.add([s]));
    expect(added).toEqual([true, true, false]);
    const result = rows.result(0);
    expect(Buffer.byteLength(JSON.stringify(result.rows))).toBeLessThanOrEqual(40);
    expect(result.truncated_reason).toBe('the result was cut at the byte limit, limits.max_result_bytes = 40');
    expect(rows.wantsMore()).toBe(false);
  });

  it('counts bytes, not characters', () => {
    const rows = new ResultRows([column('s')], { maxRows: 100, maxBytes: 30 });
    expect(rows.add(['€€€€€€'])).toBe(true);
    expect(rows.add(['€'])).toBe(false);
  });

  it('refuses a first row larger than the byte limit with 413', () => {
    const rows = new ResultRows([column('s')], { maxRows: 100, maxBytes: 10 });
    let error: unknown;
    try {
      rows.add(['x'.repeat(20)]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(413);
    expect((error as HttpError).code).toBe('RESULT_TOO_LARGE');
  });
});

describe('readDuckDBResult', () => {
  it('lets other work run on the event loop while it converts a chunk of large rows', async () => {
    const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    const connection = await instance.connect();
    const visits = vi.spyOn(DuckDBDataChunk.prototype, 'visitRowValues');
    // One chunk (DuckDB's 2048 rows) of 20 kB rows, about 40 MB of JSON to convert.
    const result = await connection.stream("SELECT i, repeat('x', 20000) AS s FROM range(2000) t(i)");
    const seen: number[] = [];
    let ticking = true;
    const tick = () => {
      seen.push(visits.mock.calls.length);
      if (ticking) setImmediate(tick);
    };
    try {
      tick();
      const answer = await readDuckDBResult(result, { maxRows: 10_000 }, () => 0);
      expect(answer.row_count).toBe(2000);
      // Some turn of the event loop came while the chunk was half converted.
      expect(seen.some((rows) => rows > 0 && rows < 2000)).toBe(true);
    } finally {
      ticking = false;
      visits.mockRestore();
      connection.closeSync();
      instance.closeSync();
    }
  });
});
