import { DuckDBInstance, type DuckDBConnection, type DuckDBDataChunk, type DuckDBResult } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
      // Counted under a byte bound only: the empty array's two brackets.
      bytes: 2,
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
    // The size the metrics count is the rows' JSON, give or take the separator the bound reserves.
    expect(Math.abs(result.bytes - Buffer.byteLength(JSON.stringify(result.rows)))).toBeLessThanOrEqual(1);
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
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;
  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    connection = await instance.connect();
  });
  afterAll(() => {
    connection.closeSync();
    instance.closeSync();
  });

  /** The streaming result of `sql`, recording each chunk it hands out. */
  async function recorded(sql: string): Promise<{ result: DuckDBResult; chunks: DuckDBDataChunk[] }> {
    const result = await connection.stream(sql);
    const chunks: DuckDBDataChunk[] = [];
    const fetchChunk = result.fetchChunk.bind(result);
    result.fetchChunk = async () => {
      const chunk = await fetchChunk();
      if (chunk) chunks.push(chunk);
      return chunk;
    };
    return { result, chunks };
  }

  it('reads a result of many chunks and slices whole and in order, as the engine gave it', async () => {
    const { result, chunks } = await recorded("SELECT i, repeat('x', 1000) AS s FROM range(5000) t(i)");
    const answer = await readDuckDBResult(result, { maxRows: 10_000, maxBytes: 64 * 1024 * 1024 }, () => 3);
    expect(answer).toMatchObject({ row_count: 5000, truncated: false, elapsed_ms: 3 });
    expect(answer).not.toHaveProperty('truncated_reason');
    expect(answer.columns).toEqual([
      { name: 'i', type: 'BIGINT' },
      { name: 's', type: 'VARCHAR' },
    ]);
    expect(answer.rows.map((r) => r.i)).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(answer.rows.every((r) => r.s === 'x'.repeat(1000))).toBe(true);
    // 5000 rows in chunks of 2048, and the empty chunk that ends the result.
    expect(chunks.map((c) => c.rowCount)).toEqual([0, 0, 0, 0]);
  });

  it('stops reading at the byte limit: one chunk of a million-row result is fetched, and it is freed', async () => {
    const { result, chunks } = await recorded("SELECT i, repeat('x', 1000) AS s FROM range(1000000) t(i)");
    const answer = await readDuckDBResult(result, { maxRows: 10_000, maxBytes: 4096 }, () => 0);
    expect(answer).toMatchObject({ row_count: 4, truncated: true });
    expect(answer.truncated_reason).toBe('the result was cut at the byte limit, limits.max_result_bytes = 4096');
    expect(chunks).toHaveLength(1);
    // Reset: its native strings are released now, not when a garbage collection finalises the chunk.
    expect(chunks[0].rowCount).toBe(0);
  });

  it('frees the chunk it was reading when a row is refused (413)', async () => {
    const { result, chunks } = await recorded("SELECT repeat('x', 100000) AS s FROM range(4500)");
    await expect(readDuckDBResult(result, { maxRows: 10_000, maxBytes: 4096 }, () => 0)).rejects.toMatchObject({
      status: 413,
      code: 'RESULT_TOO_LARGE',
    });
    expect(chunks.map((c) => c.rowCount)).toEqual([0]);
  });

  it('converts a large chunk in slices, letting the event loop turn between them', async () => {
    // One chunk of 2048 rows of 2 kB (about 4 MB of JSON), handed over at once so that only slicing can let the
    // event loop turn while it is converted.
    const source = await connection.stream("SELECT repeat('y', 2000) AS s FROM range(2048)");
    const pending: (DuckDBDataChunk | null)[] = [await source.fetchChunk(), null];
    const result = Object.assign(Object.create(source) as DuckDBResult, {
      fetchChunk: () => Promise.resolve(pending.shift() ?? null),
    });
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const answer = await readDuckDBResult(result, { maxRows: 10_000, maxBytes: 64 * 1024 * 1024 }, () => 0);
    counting = false;
    expect(answer.row_count).toBe(2048);
    // A turn for each MiB converted (the first one starts with the counting).
    expect(turns).toBeGreaterThanOrEqual(3);
  });
});
