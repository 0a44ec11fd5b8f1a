import { describe, expect, it } from 'vitest';
import type { SqlResult } from '../../contract/index.js';
import { resultJson } from './result-json.js';

/** The answer's text, and how many pieces it came in (a string is one). */
async function read(result: SqlResult): Promise<{ text: string; pieces: number }> {
  const answer = resultJson(result);
  if (typeof answer === 'string') return { text: answer, pieces: 1 };
  let text = '';
  let pieces = 0;
  for await (const piece of answer) {
    text += String(piece);
    pieces++;
  }
  return { text, pieces };
}

const result = (rows: SqlResult['rows'], extra: Partial<SqlResult> = {}): SqlResult => ({
  columns: Object.keys(rows[0] ?? {}).map((name) => ({ name, type: 'VARCHAR' })),
  rows,
  row_count: rows.length,
  truncated: false,
  ...extra,
  elapsed_ms: 12,
});

describe('resultJson', () => {
  it('answers a small, an empty and a truncated result with the string JSON.stringify writes', async () => {
    for (const answer of [
      result([{ one: 1 }]),
      result([]),
      result([{ a: 1, 'a:1': 'x', _3: null, b: true, c: [1, { d: 'e' }] }], {
        truncated: true,
        truncated_reason: 'the result was cut at the row limit, limits.max_rows = 1',
      }),
    ])
      expect(resultJson(answer)).toBe(JSON.stringify(answer));
  });

  it('is not misled by data or names that spell the rows field', async () => {
    const tricky = '"rows":0,\\"rows\\":0 \u0000 \u2028 €';
    const answer = result(
      [
        { [tricky]: tricky, rows: 0 },
        { [tricky]: '"rows":0', rows: '"rows":[]' },
      ],
      {
        truncated: true,
        truncated_reason: '"rows":0',
      },
    );
    expect(answer.columns[0].name).toBe(tricky);
    expect(resultJson(answer)).toBe(JSON.stringify(answer));
    expect(JSON.parse(resultJson(answer) as string)).toEqual(answer);
    // The same in pieces.
    const large = { ...answer, rows: Array.from({ length: 40_000 }, () => answer.rows[0]) };
    const { text, pieces } = await read(large);
    expect(pieces).toBeGreaterThan(1);
    expect(text).toBe(JSON.stringify(large));
  });

  it('streams a large result in pieces of about a mebibyte, with event-loop turns between them', async () => {
    const answer = result(Array.from({ length: 300 }, (_, i) => ({ i: String(i), s: 'x'.repeat(20_000) })));
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const { text, pieces } = await read(answer);
    counting = false;
    expect(text).toBe(JSON.stringify(answer));
    // 6 MB of rows: 6 pieces of a little over 1 MiB, and the last.
    expect(pieces).toBe(6);
    expect(turns).toBeGreaterThanOrEqual(5);
  });
});
