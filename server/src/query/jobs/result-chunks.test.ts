import { describe, expect, it } from 'vitest';
import type { SqlResult } from '../../contract/index.js';
import { encodeResult, readPage } from './result-chunks.js';

const resultOf = (rows: Record<string, string | number>[], truncated = false): SqlResult => ({
  columns: [{ name: 's', type: 'VARCHAR' }],
  rows,
  row_count: rows.length,
  truncated,
  elapsed_ms: 1,
});
const stored = (chunks: string[]) => async (first: number, last: number) => chunks.slice(first, last + 1);

describe('encodeResult', () => {
  it('counts exactly the UTF-8 bytes it stores and stops before the row that would pass the limit', () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({ s: `${'ü'.repeat(100)}${i}` }));
    const { header, chunks } = encodeResult(resultOf(rows), { maxBytes: 10_000, maxRows: 1000 });
    expect(header.bytes).toBe(chunks.reduce((sum, chunk) => sum + Buffer.byteLength(chunk), 0));
    expect(header.chunk_bytes).toEqual(chunks.map((chunk) => Buffer.byteLength(chunk)));
    expect(header.bytes).toBeLessThanOrEqual(10_000);
    // One more row (about 210 bytes) would not have fitted.
    expect(header.bytes).toBeGreaterThan(10_000 - 220);
    expect(header).toMatchObject({
      truncated: true,
      truncated_reason: 'the result reached async.max_result_size (10000 bytes)',
    });
    expect(chunks.flatMap((chunk) => JSON.parse(chunk))).toEqual(rows.slice(0, header.row_count));
  });

  it(
    'keeps a result under the limits whole, names the row limit when the engine cut it, and stores nothing of ' +
      'a single oversized row',
    () => {
      expect(encodeResult(resultOf([{ s: 'a' }, { s: 'b' }]), { maxBytes: 100, maxRows: 10 }).header).toMatchObject({
        row_count: 2,
        truncated: false,
      });
      expect(encodeResult(resultOf([{ s: 'a' }], true), { maxBytes: 100, maxRows: 1 }).header.truncated_reason).toBe(
        'the result reached async.max_rows (1 rows)',
      );
      const huge = encodeResult(resultOf([{ s: 'x'.repeat(1000) }]), { maxBytes: 100, maxRows: 10 });
      expect(huge.header).toMatchObject({ row_count: 0, bytes: 0, truncated: true });
      expect(huge.chunks).toEqual([]);
    },
  );

  it('cuts chunks at 1,000 rows or 1 MB, so a page reads only the chunks it covers', async () => {
    const rows = Array.from({ length: 2600 }, (_, i) => ({ n: i, s: i === 1500 ? 'y'.repeat(2 * 1024 * 1024) : '' }));
    const { header, chunks } = encodeResult(resultOf(rows), { maxBytes: 64 * 1024 * 1024, maxRows: 10_000 });
    // 0-999, 1000-1499, the 2 MB row alone, 1501-2500, 2501-2599.
    expect(header.chunk_starts).toEqual([0, 1000, 1500, 1501, 2501]);
    const reads: [number, number][] = [];
    const page = await readPage(header, 1600, 1000, async (first, last) => {
      reads.push([first, last]);
      return stored(chunks)(first, last);
    });
    expect(reads).toEqual([[3, 4]]);
    expect(page.rows).toEqual(rows.slice(1600, 2600));
    expect(page).toMatchObject({ row_count: 1000, next_offset: null, total_row_count: 2600 });
    expect((await readPage(header, 5000, 10, stored(chunks))).rows).toEqual([]);
  });
});
