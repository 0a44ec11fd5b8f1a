/** "The time from hire to termination", "the duration between departure and arrival": the days between two date
 * columns. */
import type { Token } from './question-words.js';
import type { SchemaColumn, SchemaTable } from './schema-context.js';
import type { Candidate, Link } from './schema-linker.js';

/** Words for the span itself. */
const spanWords = new Set(['time', 'duration', 'difference', 'gap']);
/** Words before the date a span starts at ("since admission", "from hire", "between A ...") and ends at ("to
 * graduation", "... and B"). */
const startWords = new Set(['since', 'from', 'after', 'between']);
const endWords = new Set(['to', 'until', 'till', 'and', 'before']);
/** Words that may stand between such a word and the date's name ("from their hire", "to the first order"). */
const articles = new Set(['the', 'a', 'an', 'their', 'its', 'his', 'her', 'being', 'getting']);

/** The days from `start` to `end` (two date columns of one table), as a number column a question can average, rank or
 * show. */
export function daysBetween(start: SchemaColumn, end: SchemaColumn): SchemaColumn {
  return {
    name: `days_from_${start.name}_to_${end.name}`,
    type: 'INTEGER',
    kind: 'number',
    values: [],
    derived: { of: [start, end], sql: ([a, b]) => `date_diff('day', ${a}, ${b})` },
  };
}

const dateOf = (link: Link): Extract<Candidate, { kind: 'column' }> | undefined =>
  link.candidates.find(
    (c): c is Extract<Candidate, { kind: 'column' }> => c.kind === 'column' && c.column.kind === 'date',
  );

/** Whether the words before `link` say it starts or ends a span. */
function roleOf(tokens: readonly Token[], link: Link): 'start' | 'end' | undefined {
  let at = link.start - 1;
  while (at >= 0 && articles.has(tokens[at].text)) at--;
  const word = tokens[at]?.text ?? '';
  return startWords.has(word) ? 'start' : endWords.has(word) ? 'end' : undefined;
}

/**
 * A span word nothing else claimed (`free`) and exactly two date columns of one table named around it,
 * one after a word that starts a span ("since", "from", "between") or one after a word that ends it
 * ("to", "and"): the links with every mention of the two columns (`absorbed`) replaced by one link, at
 * the span word, to the days between them. Undefined when the question has no such span.
 */
export function linkDateSpan(
  tokens: readonly Token[],
  links: readonly Link[],
  free: (k: number) => boolean,
): { links: Link[]; absorbed: Link[] } | undefined {
  const at = tokens.findIndex((t, k) => spanWords.has(t.text) && free(k));
  if (at < 0) return undefined;
  const dated = links.filter((l) => dateOf(l) !== undefined);
  const columns = [...new Set(dated.map((l) => dateOf(l)!.column))];
  if (columns.length !== 2) return undefined;
  const table: SchemaTable = dateOf(dated[0])!.table;
  if (dated.some((l) => dateOf(l)!.table !== table)) return undefined;
  const roles = (column: SchemaColumn): ('start' | 'end' | undefined)[] =>
    dated.filter((l) => dateOf(l)!.column === column).map((l) => roleOf(tokens, l));
  const [first, second] = columns;
  const firstStarts = roles(first).includes('start') || roles(second).includes('end');
  const secondStarts = roles(second).includes('start') || roles(first).includes('end');
  if (firstStarts === secondStarts) return undefined;
  const [start, end] = firstStarts ? [first, second] : [second, first];
  const span: Link = {
    start: at,
    end: at + 1,
    candidates: [{ kind: 'column', table, column: daysBetween(start, end) }],
  };
  return {
    links: [...links.filter((l) => !dated.includes(l)), span].sort((a, b) => a.start - b.start),
    absorbed: dated,
  };
}
