import { describe, expect, it } from 'vitest';
import { HttpError } from '../../core/errors.js';
import { ResultRows, resultColumnNames } from './result-rows.js';

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
