import { describe, expect, it } from 'vitest';
import { readCues } from './question-grammar.js';
import { tokenize } from './question-words.js';

const cuesOf = (question: string) => readCues(tokenize(question)).cues;

describe('question grammar: where two rules could read the same words, the earlier one wins', () => {
  it('a passive "by" is left to the linker, a "by" after a sort verb orders, "grouped by" groups', () => {
    expect(cuesOf('orders placed by customers')).toEqual([]);
    expect(readCues(tokenize('orders placed by customers')).taken.size).toBe(0);
    expect(cuesOf('sort employees by age')).toEqual([{ kind: 'order', at: 2, end: 3 }]);
    expect(cuesOf('cities grouped by region')).toEqual([{ kind: 'group', at: 2, end: 3 }]);
  });

  it('"most expensive" is one superlative implying the price, not "most" alone', () => {
    expect(cuesOf('the most expensive product')).toEqual([
      { kind: 'superlative', descending: true, implied: 'price', at: 1, end: 3 },
    ]);
  });

  it('"from highest to lowest" is a direction and then a range', () => {
    expect(cuesOf('names from highest to lowest')).toEqual([
      { kind: 'direction', descending: true, at: 1, end: 2 },
      { kind: 'direction', descending: true, at: 2, end: 5, range: true },
    ]);
  });

  it('a negated bound is the opposite bound and takes the "not"', () => {
    expect(cuesOf('products with price not higher than 4')).toEqual([
      { kind: 'compare', op: '<=', values: [4], at: 3, end: 7, year: false },
    ]);
  });

  it('two bounds joined by "or" are one comparison when no number meets both, else "or" is left unread', () => {
    expect(cuesOf('museums opened after 2013 or before 2008')).toEqual([
      { kind: 'compare', op: '>', values: [2013], at: 2, end: 7, year: true, or: { op: '<', value: 2008 } },
    ]);
    expect(cuesOf('prices at most 5 or at least 5')).toEqual([
      { kind: 'compare', op: '<=', values: [5], at: 1, end: 4, year: false },
      { kind: 'compare', op: '>=', values: [5], at: 5, end: 8, year: false },
    ]);
    expect(cuesOf('prices over 10 or under 20').map((c) => c.at)).toEqual([1, 4]);
    expect(cuesOf('prices over 10 or more than 3').every((c) => !('or' in c))).toBe(true);
  });

  it('calendar periods before rolling windows, months with their year, ISO days', () => {
    expect(cuesOf('orders in the last 6 calendar months')).toEqual([
      { kind: 'calendar', amount: 6, unit: 'month', at: 3, end: 7 },
    ]);
    expect(cuesOf('orders in the last 30 days')).toEqual([{ kind: 'recent', amount: 30, unit: 'day', at: 3, end: 6 }]);
    expect(cuesOf('orders in the month of April 2021')).toEqual([
      { kind: 'period', from: '2021-04-01', to: '2021-05-01', at: 3, end: 7 },
    ]);
    expect(cuesOf('orders on 2024-03-05')).toEqual([
      { kind: 'period', from: '2024-03-05', to: '2024-03-06', at: 2, end: 3 },
    ]);
  });

  it('a comparator before a year is a bound; "in" before years is those years', () => {
    expect(cuesOf('concerts after 2020')).toEqual([
      { kind: 'compare', op: '>', values: [2020], at: 1, end: 3, year: true },
    ]);
    expect(cuesOf('concerts in 2020 or 2021')).toEqual([
      { kind: 'compare', op: '=', values: [2020, 2021], at: 1, end: 5, year: true },
    ]);
  });

  it('a word that names a member of Object ("constructor") is an ordinary word, not a table entry', () => {
    for (const question of [
      'Which constructor has the most wins?',
      'how many constructor',
      'top 5 constructor by points',
    ]) {
      expect(() => cuesOf(question), question).not.toThrow();
    }
    expect(cuesOf('Which constructor has the most wins?')).toEqual(cuesOf('Which team has the most wins?'));
  });
});
