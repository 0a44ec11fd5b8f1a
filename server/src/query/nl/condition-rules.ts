/** Grammar rules for the phrases that keep some rows: comparisons, years, months, days and recent spans. */
import type { Comparison, Cue, CueRule, Implied } from './cues.js';
import { dayPeriod, isYear, monthNames, monthPeriod, openEnd, openStart, type DateUnit } from './date-phrases.js';
import { wordsAt, type Token } from './question-words.js';
import { wordTable } from '../../core/json.js';

const comparators: [string[], Comparison][] = [
  [['at', 'least'], '>='],
  [['no', 'less', 'than'], '>='],
  [['at', 'most'], '<='],
  [['no', 'more', 'than'], '<='],
  [['more', 'than'], '>'],
  [['greater', 'than'], '>'],
  [['higher', 'than'], '>'],
  [['larger', 'than'], '>'],
  [['bigger', 'than'], '>'],
  [['less', 'than'], '<'],
  [['fewer', 'than'], '<'],
  [['lower', 'than'], '<'],
  [['smaller', 'than'], '<'],
  [['over'], '>'],
  [['above'], '>'],
  [['exceeding'], '>'],
  [['after'], '>'],
  [['since'], '>='],
  [['from'], '>='],
  [['under'], '<'],
  [['below'], '<'],
  [['before'], '<'],
  [['equal', 'to'], '='],
  [['>='], '>='],
  [['<='], '<='],
  [['>'], '>'],
  [['<'], '<'],
  [['='], '='],
];

const negations: Partial<Record<Comparison, Comparison>> = { '>': '<=', '>=': '<', '<': '>=', '<=': '>' };

const comparatives = wordTable<{ op: Comparison; implied: Implied }>({
  older: { op: '>', implied: 'age' },
  younger: { op: '<', implied: 'age' },
  taller: { op: '>', implied: 'height' },
  shorter: { op: '<', implied: 'length' },
  longer: { op: '>', implied: 'length' },
  heavier: { op: '>', implied: 'weight' },
  lighter: { op: '<', implied: 'weight' },
  cheaper: { op: '<', implied: 'price' },
  pricier: { op: '>', implied: 'price' },
});

/** The bound an "N or ..." sets: "two or more people", "3 or fewer". */
const orBounds = new Map<string, Comparison>([
  ['more', '>='],
  ['greater', '>='],
  ['fewer', '<='],
  ['less', '<='],
]);

/** Comparators that may stand apart from their number: "above age 20". */
const detachedComparators = ['over', 'above', 'under', 'below'];

/** Numbers after a comparator: `N`, `N or M`, `N and M` (for between). */
function numbersAt(tokens: readonly Token[], at: number): { values: number[]; end: number } | undefined {
  const skip = tokens[at]?.text === 'the' || tokens[at]?.text === 'year' ? 1 : 0;
  const first = tokens[at + skip];
  if (first?.kind !== 'number') return undefined;
  const values = [Number(first.text)];
  let end = at + skip + 1;
  while (tokens[end]?.text === 'or' && tokens[end + 1]?.kind === 'number') {
    values.push(Number(tokens[end + 1].text));
    end += 2;
  }
  return { values, end };
}

/** Where "(the) average" starting at token `at` ends, or undefined when it is not there. */
function averageEnd(tokens: readonly Token[], at: number): number | undefined {
  const averageAt = at + (tokens[at]?.text === 'the' ? 1 : 0);
  return tokens[averageAt]?.text === 'average' ? averageAt + 1 : undefined;
}

/** The bound an "<year> or ..." sets: "2014 or after", "2008 or earlier". */
const yearOrBounds = new Map<string, Comparison>([
  ['after', '>='],
  ['later', '>='],
  ['before', '<='],
  ['earlier', '<='],
]);

/** "two or more people", "3 or fewer", "in 2014 or after". */
export const orBound: CueRule = ({ tokens }, i) => {
  // "in (the year) 2014 or after": the words before the year belong to the bound, not to a year of its own.
  let n = i;
  while (['in', 'the', 'year'].includes(tokens[n]?.text) && n < i + 3) n++;
  const t = tokens[n];
  const word = tokens[n + 2]?.text ?? '';
  const year = isYear(t) && yearOrBounds.has(word);
  const op = orBounds.get(word) ?? (year ? yearOrBounds.get(word) : undefined);
  if (t?.kind !== 'number' || tokens[n + 1]?.text !== 'or' || !op || (n > i && !year)) return undefined;
  return { kind: 'compare', op, values: [Number(t.text)], at: i, end: n + 3, year };
};

/** Verbs of having before a bare count ("papers that have 1 keyphrase", "belong to 2 datasets"). */
const havingVerbs: readonly (readonly string[])[] = [['have'], ['has'], ['had'], ['having'], ['belong', 'to']];

/**
 * "papers that have 1 keyphrase", "have exactly 2 tags", "belong to 1 dataset": a number right after a verb of having
 * (or "exactly") and before a word is an exact count of related rows. It is read as one only where a table follows
 * (plan-comparisons.ts); "have 600 pages" is refused rather than taken as a column's value.
 */
export const exactCount: CueRule = ({ tokens }, i) => {
  const t = tokens[i];
  if (t.kind !== 'number' || isYear(t) || tokens[i + 1]?.kind !== 'word') return undefined;
  const at = tokens[i - 1]?.text === 'exactly' ? i - 1 : i;
  if (!havingVerbs.some((verb) => wordsAt(tokens, at - verb.length, verb))) return undefined;
  return { kind: 'compare', op: '=', values: [Number(t.text)], at, end: i + 1, year: false, counts: true };
};

/** "between 18 and 30", "between 2019 and 2021". */
export const betweenNumbers: CueRule = ({ tokens }, i) => {
  const [low, high] = [tokens[i + 1], tokens[i + 3]];
  const bounds = low?.kind === 'number' && tokens[i + 2]?.text === 'and' && high?.kind === 'number';
  if (tokens[i].text !== 'between' || !bounds) return undefined;
  const values = [Number(low.text), Number(high.text)];
  return { kind: 'compare', op: 'between', values, at: i, end: i + 4, year: isYear(low) && isYear(high) };
};

/** "April", "in the month of April 2021": a month of every year, or of the year after it. */
export const monthName: CueRule = ({ tokens, taken }, i) => {
  const t = tokens[i];
  const month = monthNames.indexOf(t.text);
  if (month < 0 || t.text === 'may') return undefined;
  // "in the month of April 2021": the words before the name are part of it.
  const at = i >= 2 && wordsAt(tokens, i - 2, ['month', 'of']) && !taken.has(i - 2) ? i - 2 : i;
  const next = tokens[i + 1];
  if (isYear(next)) return { kind: 'period', ...monthPeriod(month + 1, Number(next.text)), at, end: i + 2 };
  return { kind: 'month', month: month + 1, at, end: i + 1 };
};

/** "older than 30", "taller than the average": a comparative that names its column. */
export const comparativeThan: CueRule = ({ tokens }, i) => {
  const comparative = comparatives[tokens[i].text];
  if (!comparative || tokens[i + 1]?.text !== 'than') return undefined;
  const { op, implied } = comparative;
  const end = averageEnd(tokens, i + 2);
  if (end !== undefined) return { kind: 'compare', op, values: [], at: i, end, year: false, average: true, implied };
  const numbers = numbersAt(tokens, i + 2);
  if (numbers?.values.length !== 1) return undefined;
  return { kind: 'compare', op, values: numbers.values, at: i, end: numbers.end, year: false, implied };
};

/** "more than 3", "at most 5 or 6", "not higher than 4", "above the average", "after 2024-03-01". */
export const comparatorPhrase: CueRule = ({ tokens, taken }, i) => {
  const comparator = comparators.find(([words]) => wordsAt(tokens, i, words));
  if (!comparator) return undefined;
  const [words, op] = comparator;
  const after = tokens[i + words.length];
  if (after?.kind === 'date') {
    const [from, to] = op === '<' ? [openStart, after.text] : [after.text, openEnd];
    return { kind: 'period', from, to, at: i, end: i + words.length + 1 };
  }
  const end = op === '=' ? undefined : averageEnd(tokens, i + words.length);
  if (end !== undefined) return { kind: 'compare', op, values: [], at: i, end, year: false, average: true };
  const numbers = numbersAt(tokens, i + words.length);
  if (numbers) {
    // "not higher than 4" is "at most 4": a negated bound is the opposite bound.
    const negated = tokens[i - 1]?.text === 'not' && !taken.has(i - 1) && numbers.values.length === 1;
    const opposite = negated ? negations[op] : undefined;
    return {
      kind: 'compare',
      op: opposite ?? op,
      values: numbers.values,
      at: opposite ? i - 1 : i,
      end: numbers.end,
      year: numbers.values.every((_, k) => isYear(tokens[numbers.end - 1 - 2 * k])),
    };
  }
  // "over" with a column between it and the number ("above age 20"): the number is read below.
  if (words.length === 1 && detachedComparators.includes(words[0]))
    return { kind: 'compare', op, values: [], at: i, end: i + 1, year: false };
  return undefined;
};

/**
 * "after 2013 or before 2008", "above 8 or below 1": two bounds of one number joined by "or", either of which may
 * hold. Read only when no value meets both (else "or" would keep every row, which cannot be what was asked), so
 * bounds that overlap leave "or" unread and the question refused.
 */
export const eitherBound: CueRule = (reading, i) => {
  const first = singleBound(comparatorPhrase(reading, i));
  if (!first || reading.tokens[first.end]?.text !== 'or') return undefined;
  const second = singleBound(comparatorPhrase(reading, first.end + 1));
  if (!second || first.year !== second.year) return undefined;
  const [lower, upper] = first.op.startsWith('>') ? [first, second] : [second, first];
  if (!lower.op.startsWith('>') || !upper.op.startsWith('<')) return undefined;
  const [low, high] = [lower.values[0], upper.values[0]];
  const disjoint = high < low || (high === low && (lower.op === '>' || upper.op === '<'));
  if (!disjoint) return undefined;
  return { ...first, end: second.end, or: { op: second.op, value: second.values[0] } };
};

/** A comparison cue with one number and no average, as `eitherBound` joins them. */
function singleBound(cue: Cue | readonly Cue[] | undefined): Extract<Cue, { kind: 'compare' }> | undefined {
  if (!cue || Array.isArray(cue)) return undefined;
  const one = cue as Cue;
  return one.kind === 'compare' && one.values.length === 1 && !one.average ? one : undefined;
}

/** "in 2021", "during 2019 or 2020", "year 2018": rows of those years. */
export const yearNumber: CueRule = ({ tokens }, i) => {
  if (!['in', 'during', 'of', 'year'].includes(tokens[i].text) || !isYear(tokens[i + 1])) return undefined;
  const numbers = numbersAt(tokens, i + 1)!;
  return { kind: 'compare', op: '=', values: numbers.values, at: i, end: numbers.end, year: true };
};

/** "in the last 30 days", "the past year": a rolling window up to now. */
export const recentSpan: CueRule = ({ tokens }, i) => {
  const next = tokens[i + 1];
  if ((tokens[i].text !== 'last' && tokens[i].text !== 'past') || !next) return undefined;
  const counted = next.kind === 'number';
  const unit = (counted ? tokens[i + 2] : next)?.lemma.replace(/s$/, '') as DateUnit;
  if (!['day', 'week', 'month', 'quarter', 'year'].includes(unit)) return undefined;
  return { kind: 'recent', amount: counted ? Number(next.text) : 1, unit, at: i, end: i + (counted ? 3 : 2) };
};

/** "on 2024-03-01": that day. */
export const onDay: CueRule = ({ tokens }, i) => {
  const t = tokens[i];
  const day = t.kind === 'date' && ['on', 'at'].includes(tokens[i - 1]?.text ?? '') ? dayPeriod(t) : undefined;
  return day && { kind: 'period', ...day, at: i, end: i + 1 };
};
