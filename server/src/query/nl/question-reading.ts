import { isFlagColumn } from './column-roles.js';
import { linkBirthAge, linkTextLength } from './computed-columns.js';
import { readBuckets } from './date-buckets.js';
import type { Cue } from './cues.js';
import { linkDateSpan } from './date-spans.js';
import { resolveLinks } from './link-resolution.js';
import { PlanContext, type Equality, type NegatedValue } from './plan-context.js';
import { linkQuotedValues, quotedSpans, type QuotedSpan } from './quoted-values.js';
import { readCues } from './question-grammar.js';
import { fillerWords, tokenize, type Token } from './question-words.js';
import type { SchemaColumn, SchemaContext } from './schema-context.js';
import type { Link, SchemaIndex } from './schema-linker.js';
import { readTextMatches } from './text-match.js';
import { notUnderstood, UnlinkedWords } from './translator.js';

/**
 * Reads `question` for planning: its grammar cues, quoted text matches, the other words linked to the
 * schema and date groupings, each link then resolved to one meaning (link-resolution.ts). A word that
 * is neither read nor a filler word makes the question refused.
 */
export function readQuestion(
  question: string,
  schema: SchemaContext,
  index: SchemaIndex,
  prefer: readonly string[] = [],
): PlanContext {
  const tokens = tokenize(question);
  // "the minimum connect time", "total credit": a whole column name wins over the grammar words inside it.
  const named = index.wholeNames(tokens);
  const cues = readCues(tokens).cues.filter((c) => !named.some((n) => c.at < n.end && c.end > n.start));
  const taken = new Set(cues.flatMap((c) => Array.from({ length: c.end - c.at }, (_, k) => c.at + k)));
  // "names that start with \"J\"": the phrase and its literal are read whole, the literal not linked.
  const spans = quotedSpans(question);
  const textMatches = readTextMatches(tokens, spans);
  for (const m of textMatches) for (let k = m.at; k < m.end; k++) taken.add(k);
  const matched = (span: QuotedSpan): boolean => textMatches.some((m) => m.at <= span.start && span.end <= m.end);
  const linked = nameOfTextColumn(
    tokens,
    linkQuotedValues(
      tokens,
      index.link(tokens, taken),
      spans.filter((span) => !matched(span)),
    ),
  );
  // "the time from hire to termination": two date columns and the word for the span are one number, the days between.
  const spanned = linkDateSpan(tokens, linked, (k) => !taken.has(k));
  const free = (k: number): boolean => !taken.has(k);
  const computed = linkTextLength(tokens, linkBirthAge(tokens, spanned?.links ?? linked, schema, free), free);
  const { links, missing, negations } = readMissing(tokens, computed);
  const covered = new Set([...taken, ...negations]);
  for (const link of [...(spanned?.absorbed ?? []), ...links])
    for (let k = link.start; k < link.end; k++) covered.add(k);
  const equalities = coverAroundLinks(tokens, cues, links, covered);
  const negated = readNegatedValues(tokens, links, covered);
  const groupEnds = new Set(cues.filter((c) => c.kind === 'group').map((c) => c.end));
  const buckets = readBuckets(tokens, (k) => !covered.has(k), groupEnds);
  for (const b of buckets) for (let k = b.at; k < b.end; k++) covered.add(k);
  const isUnlinked = (t: Token, k: number): boolean =>
    !covered.has(k) && !(t.kind === 'word' && fillerWords.has(t.text));
  const unlinked = tokens.filter(isUnlinked);
  if (unlinked.length > 0) {
    const reason = notUnderstood(
      `Could not link these words to any table, column or value: ` +
        `${[...new Set(unlinked.map((t) => `"${t.text}"`))].join(', ')}`,
      schema,
    ).reason;
    throw new UnlinkedWords(reason, unlinkedRuns(tokens, isUnlinked));
  }
  if (links.length === 0) throw notUnderstood('The question names no table, column or value', schema);
  const plan = new PlanContext(
    schema,
    {
      tokens,
      cues,
      buckets,
      textMatches,
      dateSpan: spanned !== undefined,
      equalities,
      missing,
      negated,
    },
    prefer,
  );
  resolveLinks(plan, links);
  return plan;
}

/**
 * Marks as `covered` the words next to links that belong to them (a compared or equated number, an "or"
 * in a list of values, a "without"); returns the numbers that are a column's value.
 */
function coverAroundLinks(
  tokens: readonly Token[],
  cues: readonly Cue[],
  links: readonly Link[],
  covered: Set<number>,
): Equality[] {
  // "above age 20": the number after the column belongs to the comparison.
  for (const cue of cues) {
    if (cue.kind !== 'compare' || cue.values.length > 0) continue;
    const link = links.find((l) => l.start >= cue.end);
    if (link && tokens[link.end]?.kind === 'number') covered.add(link.end);
  }
  // "membership level is 1": a number right after a column (and "is") is that column's value.
  const equalities: Equality[] = [];
  for (const link of links) {
    const at = tokens[link.end]?.text === 'is' || tokens[link.end]?.text === 'of' ? link.end + 1 : link.end;
    if (
      tokens[at]?.kind === 'number' &&
      !covered.has(at) &&
      link.candidates.some((c) => c.kind === 'column' && c.column.kind === 'number')
    ) {
      covered.add(at);
      equalities.push({ link, value: Number(tokens[at].text) });
    }
  }
  // "a grade of A or C": "or" between two values of one column is a list of values.
  const valueColumns = (l?: Link): SchemaColumn[] =>
    (l?.candidates ?? []).filter((c) => c.kind === 'value').map((c) => (c as { column: SchemaColumn }).column);
  for (const [k, t] of tokens.entries()) {
    const before = links.find((l) => l.end === k);
    const after = links.find((l) => l.start === k + 1);
    if (t.text === 'or' && valueColumns(before).some((c) => valueColumns(after).includes(c))) covered.add(k);
  }
  // "courses without exams": a negated flag is still one condition (see plan-filters.ts).
  for (const link of links) {
    const at = withoutBefore(tokens, link);
    if (at !== undefined) covered.add(at);
  }
  return equalities;
}

/**
 * "ordered by the region name": "name" right after a word that can only be a text column names that column's values
 * (the region), not another table's `name`. A word that may also be a table ("the city name") is left as linked.
 */
function nameOfTextColumn(tokens: readonly Token[], links: readonly Link[]): Link[] {
  const textColumn = (l: Link): boolean => l.candidates.every((c) => c.kind === 'column' && c.column.kind === 'text');
  const named = links.filter((l) => textColumn(l) && ['name', 'names'].includes(tokens[l.end]?.text ?? ''));
  if (named.length === 0) return [...links];
  const absorbed = new Set(named.map((l) => l.end));
  return links
    .filter((l) => !(l.end === l.start + 1 && absorbed.has(l.start)))
    .map((l) => (named.includes(l) ? { ...l, end: l.end + 1 } : l));
}

/** Words that may stand between a column and the "not" before its value ("country that is not"). */
const notLeadWords = new Set(['is', 'are', 'was', 'were', 'that', 'which']);

/**
 * "whose nationality is not Russia", "a country that is not \"USA\"", "food type != 'Thai'": "not" right after a
 * column (or after "is"-like words following it) and right before a value of that column negates that one value.
 * Marks the "not" as `covered` and returns the pairs of links; any other "not" stays unread, and the question
 * refused.
 */
function readNegatedValues(tokens: readonly Token[], links: readonly Link[], covered: Set<number>): NegatedValue[] {
  const negated: NegatedValue[] = [];
  for (const [k, t] of tokens.entries()) {
    const value = links.find((l) => l.start === k + 1);
    if (t.text !== 'not' || covered.has(k) || !value) continue;
    let at = k;
    while (at > 0 && notLeadWords.has(tokens[at - 1].text) && !covered.has(at - 1)) at--;
    const column = links.find((l) => l.end === at);
    const columns = (column?.candidates ?? []).flatMap((c) => (c.kind === 'column' ? [c.column] : []));
    if (!column || !value.candidates.some((c) => c.kind === 'value' && columns.includes(c.column))) continue;
    covered.add(k);
    negated.push({ column, value });
  }
  return negated;
}

/** Where "without" stands before a link that may be a flag ("without a final exam"), or undefined. */
export function withoutBefore(tokens: readonly Token[], link: Link): number | undefined {
  if (!link.candidates.some((c) => c.kind === 'column' && isFlagColumn(c.column))) return undefined;
  let at = link.start - 1;
  while (at >= 0 && ['a', 'an', 'any'].includes(tokens[at].text)) at--;
  return tokens[at]?.text === 'without' ? at : undefined;
}

/** Words before a column that ask for rows where it has no value. */
const absentWords = new Set(['no', 'without', 'missing']);
const articles = new Set(['a', 'an', 'any']);

/** Whether a link may be a column that can be NULL (any column but a yes/no one, which "without" negates instead). */
const mayBeNull = (link: Link): boolean => link.candidates.some((c) => c.kind === 'column' && !isFlagColumn(c.column));

/**
 * "customers with no segment", "customers without a segment": "no" / "without" / "missing" right before a column
 * that is not a yes/no column asks for the rows where that column is NULL. The word is read here, also when the
 * linker took it for a value ("no" is Norway's code too); the column's link is returned as missing.
 */
function readMissing(
  tokens: readonly Token[],
  input: readonly Link[],
): { links: Link[]; missing: Link[]; negations: number[] } {
  /** Where an absent-word stands before `link` (articles between), or undefined. */
  const absentBefore = (link: Link): number | undefined => {
    let at = link.start - 1;
    while (at >= 0 && articles.has(tokens[at].text)) at--;
    return at >= 0 && absentWords.has(tokens[at].text) && mayBeNull(link) ? at : undefined;
  };
  const negations = input.flatMap((l) => absentBefore(l) ?? []);
  const links = input.filter((l) => !(l.end === l.start + 1 && negations.includes(l.start)));
  return { links, missing: links.filter((l) => absentBefore(l) !== undefined), negations };
}

/** The runs of consecutive unlinked tokens, as text ("spruce shoes"): words a source may hold as a value. */
function unlinkedRuns(tokens: readonly Token[], isUnlinked: (t: Token, k: number) => boolean): string[] {
  const runs: string[][] = [];
  let run: string[] = [];
  for (const [k, t] of tokens.entries()) {
    if (isUnlinked(t, k)) run.push(t.text);
    else if (run.length > 0) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length > 0) runs.push(run);
  return runs.map((r) => r.join(' '));
}
