import { labelColumn } from './column-roles.js';
import { tokenize, type Token } from './question-words.js';
import { maxValueLength, valuesPerColumn, type SchemaColumn } from './schema-context.js';
import type { Candidate, Link } from './schema-linker.js';

/** A literal the question quotes ("named \"IEEE Transactions\""), as tokens `[start, end)` and its exact text. */
export interface QuotedSpan {
  start: number;
  end: number;
  text: string;
}

/** Double quotes (straight or curly) around up to 200 characters; single quotes only around a whole phrase, so
 * apostrophes stay words. */
const quotedPattern = /"([^"]{1,200})"|“([^”]{1,200})”|(?<=^|[\s(])'([^']{1,200})'(?=$|[\s),.?!;:])/g;

/** The quoted literals of `question`, located on its tokens. */
export function quotedSpans(question: string): QuotedSpan[] {
  const spans: QuotedSpan[] = [];
  for (const match of question.matchAll(quotedPattern)) {
    const text = (match[1] ?? match[2] ?? match[3]).trim();
    const start = tokenize(question.slice(0, match.index)).length;
    const length = tokenize(text).length;
    if (text !== '' && length > 0) spans.push({ start, end: start + length, text });
  }
  return spans;
}

/**
 * Whether `column` may hold `text`: always, unless its sample has every distinct value (fewer than the
 * sampling cap, the text short enough to be sampled) and none is `text` ("California" where states are
 * stored as "CA" would find nothing, which is a wrong answer rather than a refusal).
 */
function mayHold(column: SchemaColumn, text: string): boolean {
  const complete = column.values.length > 0 && column.values.length < valuesPerColumn && text.length <= maxValueLength;
  return !complete || column.values.some((v) => v.toLowerCase() === text.toLowerCase());
}

/** Words between a column and the literal it holds: "title is", "named", "called", "with the name". */
const joiningWords = new Set(['named', 'called', 'titled', 'is', 'of', 'the', 'with', 'as']);

/**
 * "the paper with the title \"The Effects of Climate Change\"", "the journal named \"IEEE Transactions\"":
 * a quoted literal that no sampled value spells (samples are capped) is a value of the text column named
 * just before it, or of the label of the table named just before it. The links inside the quotes are
 * replaced by one value link; a literal with nothing before it to hold it is left to the linker (and
 * its words refused when they link to nothing).
 */
export function linkQuotedValues(tokens: readonly Token[], links: Link[], spans: readonly QuotedSpan[]): Link[] {
  let result = links;
  for (const span of spans) {
    const inside = result.filter((l) => l.start < span.end && l.end > span.start);
    const spelled =
      inside.length === 1 &&
      inside[0].start === span.start &&
      inside[0].end === span.end &&
      inside[0].candidates[0].kind === 'value';
    // "with \"IEEE\" in its name" asks for a part of the value, which an equality would not find.
    const part = tokens[span.end]?.text === 'in' && ['its', 'their', 'the'].includes(tokens[span.end + 1]?.text ?? '');
    if (spelled || part || inside.some((l) => l.start < span.start || l.end > span.end)) continue;
    let at = span.start;
    while (at > 0 && joiningWords.has(tokens[at - 1].text)) at--;
    const holder = result.find((l) => l.end === at);
    const candidates: Candidate[] = (holder?.candidates ?? []).flatMap((c): Candidate[] => {
      const column =
        c.kind === 'column' && c.column.kind === 'text'
          ? c.column
          : c.kind === 'table'
            ? labelColumn(c.table)
            : undefined;
      return column && mayHold(column, span.text) ? [{ kind: 'value', table: c.table, column, value: span.text }] : [];
    });
    if (!holder || candidates.length === 0) continue;
    // "the title" before the literal says which column; the table before "named" says whose label.
    const byColumn = holder.candidates[0].kind === 'column';
    const rest = byColumn ? result.filter((l) => l !== holder) : result;
    const link = { start: byColumn ? holder.start : span.start, end: span.end, candidates };
    result = [...rest.filter((l) => !inside.includes(l)), link].sort((a, b) => a.start - b.start);
  }
  return result;
}
