import { describe, expect, it } from 'vitest';
import type { SqlResult } from '../../contract/index.js';
import { answerSentence } from './answer.js';

const reason = 'the result was cut at the byte limit, limits.max_result_bytes = 1000';
/** `n` rows of (city, total), cut by a limit when `truncated`. */
const result = (n: number, truncated: boolean): SqlResult => ({
  columns: [
    { name: 'city', type: 'VARCHAR' },
    { name: 'sum_weight', type: 'DOUBLE' },
  ],
  rows: Array.from({ length: n }, (_, i) => ({ city: `c${i}`, sum_weight: 10 * (n - i) })),
  row_count: n,
  truncated,
  ...(truncated ? { truncated_reason: reason } : {}),
  elapsed_ms: 1,
});

describe('the answer sentence of a result a limit cut', () => {
  it('says how many rows match, counted apart, and how many are shown', () => {
    expect(answerSentence(result(430, true), undefined, false, undefined, 3000)).toBe(
      `3,000 rows match; 430 shown (${reason}); the first has city c0, total weight 4,300.`,
    );
    expect(answerSentence(result(430, true), undefined, true, undefined, 3000)).toMatch(
      new RegExp(`^Total weight by city \\(3,000 groups match; 430 shown, ${reason}\\): c0: 4,300;`),
    );
  });

  it('says "more than" the rows shown when the count is unknown, never the rows shown as the match', () => {
    expect(answerSentence(result(430, true))).toMatch(/^More than 430 rows match; 430 shown \(/);
    expect(answerSentence(result(1, true))).toMatch(/^More than 1 rows match; 1 shown/);
  });

  it('counts the rows of a whole result as before', () => {
    expect(answerSentence(result(3, false))).toBe('3 rows match; the first has city c0, total weight 30.');
    expect(answerSentence(result(1, false))).toBe('One row matches: city c0, total weight 10.');
  });
});
