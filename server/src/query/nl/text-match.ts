/** Questions about part of a text: "names that start with "J"", "with the word 'Hey' in its title", "containing
 * 'psoriasis'". */
import type { QuotedSpan } from './quoted-values.js';
import type { Token } from './question-words.js';
import { sqlLiteral } from '../../core/sql-text.js';
import { wordTable } from '../../core/json.js';

export type TextMatchMode = 'prefix' | 'suffix' | 'contains';

/**
 * A quoted literal a text must start with, end with or contain, read at tokens `[at, end)`. `column`
 * says where the column is named: before the phrase ("names starting with"), or after it, at token
 * `column` ("with 'Hey' in its title").
 */
export interface TextMatch {
  mode: TextMatchMode;
  text: string;
  at: number;
  end: number;
  /** The token where the column's name starts when the phrase names it after the literal. */
  columnAt?: number;
}

const verbs = wordTable<TextMatchMode>({
  start: 'prefix',
  starts: 'prefix',
  starting: 'prefix',
  begin: 'prefix',
  begins: 'prefix',
  beginning: 'prefix',
  end: 'suffix',
  ends: 'suffix',
  ending: 'suffix',
  contain: 'contains',
  contains: 'contains',
  containing: 'contains',
});
/** Words naming what the literal is: "the letter", "the word", "the prefix". */
const kindWords = new Set([
  'letter',
  'letters',
  'word',
  'words',
  'prefix',
  'suffix',
  'string',
  'phrase',
  'text',
  'characters',
]);

/** The phrases of `tokens` that ask for part of a text, one per quoted literal that has one. */
export function readTextMatches(tokens: readonly Token[], spans: readonly QuotedSpan[]): TextMatch[] {
  const found: TextMatch[] = [];
  for (const span of spans) {
    let at = span.start;
    if (kindWords.has(tokens[at - 1]?.text ?? '')) at -= tokens[at - 2]?.text === 'the' ? 2 : 1;
    if (
      tokens[at - 1]?.text === 'with' &&
      verbs[tokens[at - 2]?.text ?? ''] &&
      verbs[tokens[at - 2].text] !== 'contains'
    ) {
      found.push({ mode: verbs[tokens[at - 2].text], text: span.text, at: at - 2, end: span.end });
      continue;
    }
    if (verbs[tokens[at - 1]?.text ?? ''] === 'contains') {
      found.push({ mode: 'contains', text: span.text, at: at - 1, end: span.end });
      continue;
    }
    // "with the word 'Hey' in its title", "with \"IEEE\" in their name".
    if (
      tokens[at - 1]?.text === 'with' &&
      tokens[span.end]?.text === 'in' &&
      ['its', 'their', 'the'].includes(tokens[span.end + 1]?.text ?? '')
    )
      found.push({ mode: 'contains', text: span.text, at: at - 1, end: span.end + 2, columnAt: span.end + 2 });
  }
  return found;
}

/** The condition that the text `column` (its SQL) matches, ignoring case. */
export function textMatchSql(mode: TextMatchMode, column: string, text: string): string {
  const literal = sqlLiteral(text.toLowerCase());
  const fn = { prefix: 'starts_with', suffix: 'ends_with', contains: 'contains' }[mode];
  return `${fn}(lower(${column}), ${literal})`;
}
