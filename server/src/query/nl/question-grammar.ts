import {
  isYear,
  monthNames,
  monthPeriod,
  openEnd,
  openStart,
  readDateCues,
  type DateCue,
  type DateUnit,
} from './date-phrases.js';
import { wordsAt, type Token } from './question-words.js';

/** The column a superlative adjective implies ("oldest": age, "cheapest": price). */
export type Implied = 'age' | 'price' | 'date' | 'height' | 'weight' | 'length' | 'frequency';
export type Aggregate = 'count' | 'avg' | 'sum' | 'max' | 'min';
export type Comparison = '>' | '>=' | '<' | '<=' | '=' | 'between';

/** A phrase that shapes the query, found at token `at` (its last token is `end - 1`). */
export type Cue =
  | { kind: 'aggregate'; fn: Aggregate; at: number; end: number }
  | {
      kind: 'superlative';
      descending: boolean;
      at: number;
      end: number;
      implied?: Implied;
    }
  | { kind: 'group'; at: number; end: number }
  | { kind: 'order'; at: number; end: number }
  | {
      kind: 'direction';
      descending: boolean;
      at: number;
      end: number;
      /** "from highest to lowest": every row in that order, not only the highest. */
      range?: boolean;
    }
  /** Words that change nothing where they stand: a unit ("in meters", "200 mph"), "both" after "show"/"give". */
  | { kind: 'noise'; at: number; end: number }
  | { kind: 'top'; n: number; at: number; end: number }
  | {
      kind: 'compare';
      op: Comparison;
      values: number[];
      at: number;
      end: number;
      year: boolean;
      /** Compared with the column's average over its table ("above the average age"). */
      average?: boolean;
      /** The column a comparative adjective implies ("older than 30": age). */
      implied?: Implied;
    }
  | {
      kind: 'recent';
      amount: number;
      unit: DateUnit;
      at: number;
      end: number;
    }
  | DateCue
  | { kind: 'month'; month: number; at: number; end: number }
  | { kind: 'distinct'; at: number; end: number };

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

const aggregateWords: Record<string, Aggregate> = {
  average: 'avg',
  avg: 'avg',
  mean: 'avg',
  total: 'sum',
  sum: 'sum',
  maximum: 'max',
  max: 'max',
  minimum: 'min',
  min: 'min',
  count: 'count',
};

const superlatives: Record<string, { descending: boolean; implied?: Implied }> = {
  highest: { descending: true },
  largest: { descending: true },
  biggest: { descending: true },
  greatest: { descending: true },
  most: { descending: true },
  lowest: { descending: false },
  smallest: { descending: false },
  least: { descending: false },
  fewest: { descending: false },
  oldest: { descending: true, implied: 'age' },
  youngest: { descending: false, implied: 'age' },
  cheapest: { descending: false, implied: 'price' },
  tallest: { descending: true, implied: 'height' },
  shortest: { descending: false, implied: 'length' },
  longest: { descending: true, implied: 'length' },
  heaviest: { descending: true, implied: 'weight' },
  lightest: { descending: false, implied: 'weight' },
  newest: { descending: true, implied: 'date' },
  latest: { descending: true, implied: 'date' },
  earliest: { descending: false, implied: 'date' },
};

const comparatives: Record<string, { op: Comparison; implied: Implied }> = {
  older: { op: '>', implied: 'age' },
  younger: { op: '<', implied: 'age' },
  taller: { op: '>', implied: 'height' },
  shorter: { op: '<', implied: 'length' },
  longer: { op: '>', implied: 'length' },
  heavier: { op: '>', implied: 'weight' },
  lighter: { op: '<', implied: 'weight' },
  cheaper: { op: '<', implied: 'price' },
  pricier: { op: '>', implied: 'price' },
};

const highWords = new Set([
  'long',
  'longest',
  'high',
  'highest',
  'old',
  'oldest',
  'large',
  'largest',
  'big',
  'biggest',
  'most',
  'new',
  'newest',
  'late',
  'latest',
]);
const lowWords = new Set([
  'short',
  'shortest',
  'low',
  'lowest',
  'young',
  'youngest',
  'small',
  'smallest',
  'least',
  'early',
  'earliest',
]);

const unitWords = new Set([
  'square',
  'meters',
  'metres',
  'meter',
  'metre',
  'kilometers',
  'kilometres',
  'kilometer',
  'kilometre',
  'km',
  'miles',
  'mile',
  'mph',
  'feet',
  'foot',
]);

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

/**
 * Reads the phrases that shape a query (aggregates, grouping, comparisons, dates, top-N, ordering)
 * and returns them with the set of tokens they used. Whatever is left is for the schema linker.
 */
export function readCues(tokens: readonly Token[]): {
  cues: Cue[];
  taken: Set<number>;
} {
  const cues: Cue[] = [];
  const taken = new Set<number>();
  const take = (cue: Cue): void => {
    cues.push(cue);
    for (let k = cue.at; k < cue.end; k++) taken.add(k);
  };
  for (let i = 0; i < tokens.length; i++) {
    if (taken.has(i)) continue;
    const t = tokens[i];
    const next = tokens[i + 1];
    const dated = readDateCues(tokens, i);
    if (dated) {
      for (const cue of dated) take(cue);
      continue;
    }
    // "no. of students": the abbreviation of "number of".
    if (
      wordsAt(tokens, i, ['how', 'many']) ||
      wordsAt(tokens, i, ['number', 'of']) ||
      wordsAt(tokens, i, ['count', 'of']) ||
      wordsAt(tokens, i, ['no', 'of'])
    ) {
      take({ kind: 'aggregate', fn: 'count', at: i, end: i + 2 });
      continue;
    }
    if (wordsAt(tokens, i, ['total', 'number', 'of']) || wordsAt(tokens, i, ['total', 'count', 'of'])) {
      take({ kind: 'aggregate', fn: 'count', at: i, end: i + 3 });
      continue;
    }
    if ((t.text === 'top' || t.text === 'first') && next?.kind === 'number') {
      take({
        kind: 'top',
        n: Math.min(Number(next.text), 10_000),
        at: i,
        end: i + 2,
      });
      continue;
    }
    if (['order', 'ordered', 'sort', 'sorted', 'rank', 'ranked'].includes(t.text) && next?.text === 'by') {
      take({ kind: 'order', at: i, end: i + 2 });
      continue;
    }
    // "Sort employee names by their age": "by" after a sort verb earlier in the question orders.
    // "Order the results by ...": "order" as a verb, followed by what is ordered.
    const orderVerb = tokens
      .slice(Math.max(0, i - 4), i)
      .some(
        (w, k, near) =>
          ['order', 'ordered'].includes(w.text) &&
          ['the', 'results', 'them', 'it', 'these', 'those', 'all'].includes(near[k + 1]?.text ?? ''),
      );
    if (
      t.text === 'by' &&
      (orderVerb || tokens.slice(0, i).some((w) => ['sort', 'sorted', 'rank', 'ranked'].includes(w.text))) &&
      !cues.some((c) => c.kind === 'order')
    ) {
      take({ kind: 'order', at: i, end: i + 1 });
      continue;
    }
    if (next?.text === 'to' && (highWords.has(t.text) || lowWords.has(t.text))) {
      take({ kind: 'direction', descending: highWords.has(t.text), at: i, end: i + 3, range: true });
      continue;
    }
    // "two or more people", "3 or fewer".
    if (
      t.kind === 'number' &&
      next?.text === 'or' &&
      ['more', 'fewer', 'less', 'greater'].includes(tokens[i + 2]?.text ?? '')
    ) {
      take({
        kind: 'compare',
        op: tokens[i + 2].text === 'more' || tokens[i + 2].text === 'greater' ? '>=' : '<=',
        values: [Number(t.text)],
        at: i,
        end: i + 3,
        year: false,
      });
      continue;
    }
    if (t.text === 'most' && ['common', 'frequent', 'popular'].includes(next?.text ?? '')) {
      take({ kind: 'superlative', descending: true, implied: 'frequency', at: i, end: i + 2 });
      continue;
    }
    if (t.text === 'order' && next?.text === 'of') {
      take({ kind: 'order', at: i, end: i + 2 });
      continue;
    }
    // Units of length, area and speed: a number is compared or ranked as stored.
    if (t.text === 'in' && unitWords.has(next?.text ?? '')) {
      let end = i + 1;
      while (unitWords.has(tokens[end]?.text ?? '')) end++;
      take({ kind: 'noise', at: i, end });
      continue;
    }
    if (
      unitWords.has(t.text) &&
      tokens[i - 1]?.kind === 'number' &&
      (t.text !== 'square' || unitWords.has(next?.text ?? ''))
    ) {
      take({ kind: 'noise', at: i, end: i + (t.text === 'square' ? 2 : 1) });
      continue;
    }
    // "Give both city names and the population": "both" only announces the list.
    if (
      t.text === 'both' &&
      ['give', 'show', 'return', 'list', 'display', 'include'].includes(tokens[i - 1]?.text ?? '')
    ) {
      take({ kind: 'noise', at: i, end: i + 1 });
      continue;
    }
    if (
      ['desc', 'descending'].includes(t.text) ||
      wordsAt(tokens, i, ['from', 'highest']) ||
      wordsAt(tokens, i, ['from', 'the', 'highest'])
    ) {
      take({ kind: 'direction', descending: true, at: i, end: i + 1 });
      continue;
    }
    if (['asc', 'ascending', 'alphabetical', 'alphabetically'].includes(t.text)) {
      take({ kind: 'direction', descending: false, at: i, end: i + 1 });
      continue;
    }
    // "placed by customers", "written by": a passive "by" names who did it, not a grouping ("grouped by" is one).
    if (t.text === 'by' && /ed$|en$/.test(tokens[i - 1]?.text ?? '') && tokens[i - 1].text !== 'grouped') continue;
    // "the top 3 businesses in terms of review count": what they are ranked (or grouped) by.
    if (wordsAt(tokens, i, ['in', 'terms', 'of'])) {
      take({ kind: 'group', at: i, end: i + 3 });
      continue;
    }
    if (t.text === 'by' || t.text === 'per' || t.text === 'each' || wordsAt(tokens, i, ['for', 'every'])) {
      take({ kind: 'group', at: i, end: i + (t.text === 'for' ? 2 : 1) });
      continue;
    }
    if (['distinct', 'different', 'unique'].includes(t.text)) {
      take({ kind: 'distinct', at: i, end: i + 1 });
      continue;
    }
    if ((t.text === 'last' || t.text === 'past') && next) {
      const amount = next.kind === 'number' ? Number(next.text) : 1;
      const unitToken = next.kind === 'number' ? tokens[i + 2] : next;
      const unit = unitToken?.lemma.replace(/s$/, '') as DateUnit;
      if (['day', 'week', 'month', 'quarter', 'year'].includes(unit)) {
        take({
          kind: 'recent',
          amount,
          unit,
          at: i,
          end: i + (next.kind === 'number' ? 3 : 2),
        });
        continue;
      }
    }
    if (
      t.text === 'between' &&
      next?.kind === 'number' &&
      tokens[i + 2]?.text === 'and' &&
      tokens[i + 3]?.kind === 'number'
    ) {
      take({
        kind: 'compare',
        op: 'between',
        values: [Number(next.text), Number(tokens[i + 3].text)],
        at: i,
        end: i + 4,
        year: isYear(next) && isYear(tokens[i + 3]),
      });
      continue;
    }
    const month = monthNames.indexOf(t.text);
    if (month >= 0 && t.text !== 'may') {
      // "in the month of April 2021": the words before the name are part of it.
      const at = i >= 2 && wordsAt(tokens, i - 2, ['month', 'of']) && !taken.has(i - 2) ? i - 2 : i;
      if (isYear(next)) take({ kind: 'period', ...monthPeriod(month + 1, Number(next.text)), at, end: i + 2 });
      else take({ kind: 'month', month: month + 1, at, end: i + 1 });
      continue;
    }
    // "older than 30", "taller than the average": a comparative that names its column.
    const comparative = comparatives[t.text];
    if (comparative && next?.text === 'than') {
      const averageAt = i + 2 + (tokens[i + 2]?.text === 'the' ? 1 : 0);
      if (tokens[averageAt]?.text === 'average') {
        take({
          kind: 'compare',
          op: comparative.op,
          values: [],
          at: i,
          end: averageAt + 1,
          year: false,
          average: true,
          implied: comparative.implied,
        });
        continue;
      }
      const numbers = numbersAt(tokens, i + 2);
      if (numbers && numbers.values.length === 1) {
        take({
          kind: 'compare',
          op: comparative.op,
          values: numbers.values,
          at: i,
          end: numbers.end,
          year: false,
          implied: comparative.implied,
        });
        continue;
      }
    }
    const comparator = comparators.find(([words]) => wordsAt(tokens, i, words));
    if (comparator) {
      const [words, op] = comparator;
      const after = tokens[i + words.length];
      if (after?.kind === 'date') {
        take({
          kind: 'period',
          from: op === '<' ? openStart : after.text,
          to: op === '<' ? after.text : openEnd,
          at: i,
          end: i + words.length + 1,
        });
        continue;
      }
      const averageAt = i + words.length + (tokens[i + words.length]?.text === 'the' ? 1 : 0);
      if (tokens[averageAt]?.text === 'average' && op !== '=') {
        take({ kind: 'compare', op, values: [], at: i, end: averageAt + 1, year: false, average: true });
        continue;
      }
      const numbers = numbersAt(tokens, i + words.length);
      // "not higher than 4" is "at most 4": a negated bound is the opposite bound.
      const negated =
        tokens[i - 1]?.text === 'not' &&
        !taken.has(i - 1) &&
        numbers?.values.length === 1 &&
        negations[op] !== undefined;
      if (numbers) {
        take({
          kind: 'compare',
          op: negated ? negations[op]! : op,
          values: numbers.values,
          at: negated ? i - 1 : i,
          end: numbers.end,
          year: numbers.values.every((_, k) => isYear(tokens[numbers.end - 1 - 2 * k])),
        });
        continue;
      }
      if (words.length === 1 && ['over', 'above', 'under', 'below'].includes(words[0])) {
        // "over" with a column between it and the number ("above age 20"): the number is read below.
        take({
          kind: 'compare',
          op,
          values: [],
          at: i,
          end: i + 1,
          year: false,
        });
        continue;
      }
    }
    if (superlatives[t.text] && !(t.text === 'most' && next && ['expensive'].includes(next.text))) {
      take({ kind: 'superlative', ...superlatives[t.text], at: i, end: i + 1 });
      continue;
    }
    if (t.text === 'most' && next?.text === 'expensive') {
      take({
        kind: 'superlative',
        descending: true,
        implied: 'price',
        at: i,
        end: i + 2,
      });
      continue;
    }
    if (aggregateWords[t.text]) {
      take({
        kind: 'aggregate',
        fn: aggregateWords[t.text],
        at: i,
        end: i + 1,
      });
      continue;
    }
    if ((t.text === 'in' || t.text === 'during' || t.text === 'of' || t.text === 'year') && isYear(next)) {
      const numbers = numbersAt(tokens, i + 1)!;
      take({
        kind: 'compare',
        op: '=',
        values: numbers.values,
        at: i,
        end: numbers.end,
        year: true,
      });
      continue;
    }
    if (t.kind === 'date' && ['on', 'at'].includes(tokens[i - 1]?.text ?? '')) {
      const day = new Date(`${t.text}T00:00:00Z`);
      if (!Number.isNaN(day.getTime())) {
        const nextDay = new Date(day.getTime() + 86_400_000).toISOString().slice(0, 10);
        take({ kind: 'period', from: t.text, to: nextDay, at: i, end: i + 1 });
      }
    }
  }
  return { cues, taken };
}
