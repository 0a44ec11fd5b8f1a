/** Grammar rules for the phrases that shape the result: aggregates, superlatives, grouping, ordering, top-N, noise. */
import type { Aggregate, CueRule, Implied } from './cues.js';
import { wordsAt } from './question-words.js';
import { wordTable } from '../../core/json.js';

/** "no. of students": "no" is the abbreviation of "number". */
const countPhrases = [
  ['how', 'many'],
  ['number', 'of'],
  ['count', 'of'],
  ['no', 'of'],
  ['total', 'number', 'of'],
  ['total', 'count', 'of'],
];

const aggregateWords = wordTable<Aggregate>({
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
});

const superlatives = wordTable<{ descending: boolean; implied?: Implied }>({
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
});

/** What "most <word>" implies: "most common" is the most frequent, "most expensive" the highest price. */
const mostImplied = new Map<string, Implied>([
  ['common', 'frequency'],
  ['frequent', 'frequency'],
  ['popular', 'frequency'],
  ['expensive', 'price'],
]);

/** Words that start a range from the high end ("from highest to lowest") ... */
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
/** ... and from the low end ("from youngest to oldest"). */
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

/** Words of an order, descending or not; only the first word of a phrase is used up ("from the highest"). */
const directionPhrases: [string[], boolean][] = [
  [['desc'], true],
  [['descending'], true],
  [['from', 'highest'], true],
  [['from', 'the', 'highest'], true],
  [['asc'], false],
  [['ascending'], false],
  [['alphabetical'], false],
  [['alphabetically'], false],
];

const sortVerbs = ['sort', 'sorted', 'rank', 'ranked'];
const orderWords = ['order', 'ordered', ...sortVerbs];
/** What "order" as a verb is followed by: "Order the results by ...". */
const orderedWords = ['the', 'results', 'them', 'it', 'these', 'those', 'all'];

/**
 * Words before what rows are grouped by ("by country", "for every store"); "the top 3 businesses in
 * terms of review count": what they are ranked (or grouped) by.
 */
const groupPhrases = [['in', 'terms', 'of'], ['by'], ['per'], ['each'], ['for', 'every']];

/** Units of length, area and speed: a number is compared or ranked as stored. */
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

/** The verbs after which "both" only announces the list: "Give both city names and the population". */
const listVerbs = ['give', 'show', 'return', 'list', 'display', 'include'];

/** "how many", "number of", "total count of": a count. */
export const countPhrase: CueRule = ({ tokens }, i) => {
  const phrase = countPhrases.find((words) => wordsAt(tokens, i, words));
  return phrase && { kind: 'aggregate', fn: 'count', at: i, end: i + phrase.length };
};

/** Superlatives that make "which 5 X have the highest Y" a top-N. */
const rankingWords = new Set(['highest', 'lowest', 'largest', 'smallest', 'biggest', 'most', 'least', 'fewest']);

/**
 * "top 5", "first 3"; and "which 5 customers have the highest credit limit": a number right after a question's
 * opening "which" / "what", with a superlative later, is how many of the ranked rows to list (the number alone is
 * the cue, so "which" still asks for the rows).
 */
export const topCount: CueRule = ({ tokens }, i) => {
  const next = tokens[i + 1];
  if ((tokens[i].text === 'top' || tokens[i].text === 'first') && next?.kind === 'number')
    return { kind: 'top', n: Math.min(Number(next.text), 10_000), at: i, end: i + 2 };
  const ranked = tokens.slice(i + 2).some((t) => rankingWords.has(t.text));
  if (i === 1 && ['which', 'what'].includes(tokens[0].text) && tokens[i].kind === 'number' && ranked)
    return { kind: 'top', n: Math.min(Number(tokens[i].text), 10_000), at: i, end: i + 1 };
  return undefined;
};

/** "order by", "sorted by", "(in) order of". */
export const orderPhrase: CueRule = ({ tokens }, i) => {
  const ordered = orderWords.includes(tokens[i].text) && tokens[i + 1]?.text === 'by';
  return ordered || wordsAt(tokens, i, ['order', 'of']) ? { kind: 'order', at: i, end: i + 2 } : undefined;
};

/**
 * "Sort employee names by their age": "by" after a sort verb earlier in the question orders.
 * "Order the results by ...": "order" as a verb, followed by what is ordered.
 */
export const byAfterSortVerb: CueRule = ({ tokens, cues }, i) => {
  if (tokens[i].text !== 'by' || cues.some((c) => c.kind === 'order')) return undefined;
  const orderVerb = tokens
    .slice(Math.max(0, i - 4), i)
    .some((w, k, near) => ['order', 'ordered'].includes(w.text) && orderedWords.includes(near[k + 1]?.text ?? ''));
  const sortVerb = tokens.slice(0, i).some((w) => sortVerbs.includes(w.text));
  return orderVerb || sortVerb ? { kind: 'order', at: i, end: i + 1 } : undefined;
};

/** The words a range's two ends may have between them: a column ("from the highest ratings to the lowest"). */
const rangeGap = 3;

/**
 * "from highest to lowest", "youngest to oldest": every row in that order. When the range's start names its column
 * ("from the highest ratings to the lowest"), this reads its end ("to the lowest") and the start stays the superlative
 * that says what is ranked; the range then lists every row rather than the highest one.
 */
export const directionRange: CueRule = ({ tokens }, i) => {
  const word = tokens[i].text;
  if (tokens[i + 1]?.text === 'to' && (highWords.has(word) || lowWords.has(word)))
    return { kind: 'direction', descending: highWords.has(word), at: i, end: i + 3, range: true };
  if (word !== 'to') return undefined;
  const last = tokens[i + 1]?.text === 'the' ? i + 2 : i + 1;
  const opposite = (a: string, b: string): boolean =>
    (highWords.has(a) && lowWords.has(b)) || (lowWords.has(a) && highWords.has(b));
  for (let start = i - 2; start >= Math.max(0, i - 1 - rangeGap); start--) {
    const from = tokens[start - 1]?.text === 'the' ? start - 2 : start - 1;
    if (tokens[from]?.text === 'from' && opposite(tokens[start].text, tokens[last]?.text ?? ''))
      return { kind: 'direction', descending: highWords.has(tokens[start].text), at: i, end: last + 1, range: true };
  }
  return undefined;
};

/** "most common", "most expensive": a superlative of two words. */
export const mostPhrase: CueRule = ({ tokens }, i) => {
  const implied = tokens[i].text === 'most' ? mostImplied.get(tokens[i + 1]?.text ?? '') : undefined;
  return implied && { kind: 'superlative', descending: true, implied, at: i, end: i + 2 };
};

/** "in square meters", "200 mph". */
export const units: CueRule = ({ tokens }, i) => {
  const [t, next] = [tokens[i], tokens[i + 1]];
  if (t.text === 'in' && unitWords.has(next?.text ?? '')) {
    let end = i + 1;
    while (unitWords.has(tokens[end]?.text ?? '')) end++;
    return { kind: 'noise', at: i, end };
  }
  if (!unitWords.has(t.text) || tokens[i - 1]?.kind !== 'number') return undefined;
  if (t.text === 'square' && !unitWords.has(next?.text ?? '')) return undefined;
  return { kind: 'noise', at: i, end: i + (t.text === 'square' ? 2 : 1) };
};

/** What an instruction to match exactly may name: "Match strings exactly". */
const matchedThings = new Set(['strings', 'string', 'values', 'names', 'text']);

/**
 * "Match strings exactly": values are compared as stored (a linked value is written as sampled, a quoted one as
 * quoted), so the instruction changes nothing. Other matching instructions ("case insensitively", "with
 * wildcards") would change the query and stay unread.
 */
export const exactMatchInstruction: CueRule = ({ tokens }, i) => {
  if (tokens[i].text !== 'match') return undefined;
  const end = matchedThings.has(tokens[i + 1]?.text ?? '') ? i + 2 : i + 1;
  return tokens[end]?.text === 'exactly' ? { kind: 'noise', at: i, end: end + 1 } : undefined;
};

/** "Give both city names and the population": "both" only announces the list. */
export const announcingBoth: CueRule = ({ tokens }, i) =>
  tokens[i].text === 'both' && listVerbs.includes(tokens[i - 1]?.text ?? '')
    ? { kind: 'noise', at: i, end: i + 1 }
    : undefined;

/** "descending", "from the highest", "alphabetically". */
export const directionWords: CueRule = ({ tokens }, i) => {
  const direction = directionPhrases.find(([words]) => wordsAt(tokens, i, words));
  return direction && { kind: 'direction', descending: direction[1], at: i, end: i + 1 };
};

/** "placed by customers", "written by": a passive "by" names who did it, not a grouping ("grouped by" is one). */
export const passiveBy: CueRule = ({ tokens }, i) =>
  tokens[i].text === 'by' && /ed$|en$/.test(tokens[i - 1]?.text ?? '') && tokens[i - 1].text !== 'grouped'
    ? []
    : undefined;

/** "by country", "per year", "for every store", "in terms of review count". */
export const groupPhrase: CueRule = ({ tokens }, i) => {
  const phrase = groupPhrases.find((words) => wordsAt(tokens, i, words));
  return phrase && { kind: 'group', at: i, end: i + phrase.length };
};

/** "distinct", "different", "unique". */
export const distinctWord: CueRule = ({ tokens }, i) =>
  ['distinct', 'different', 'unique'].includes(tokens[i].text) ? { kind: 'distinct', at: i, end: i + 1 } : undefined;

/** "highest", "oldest", "fewest". */
export const superlativeWord: CueRule = ({ tokens }, i) => {
  const superlative = superlatives[tokens[i].text];
  return superlative && { kind: 'superlative', ...superlative, at: i, end: i + 1 };
};

/** "average", "total", "maximum", "count". */
export const aggregateWord: CueRule = ({ tokens }, i) => {
  const fn = aggregateWords[tokens[i].text];
  return fn && { kind: 'aggregate', fn, at: i, end: i + 1 };
};
