import { keepRows, keysOf, mainTable, referencedKey, type PlanWithAddition } from './composed-rows.js';
import type { SchemaContext } from './schema-context.js';
import type { Translation } from './translator.js';
import { tokenize, type Token } from './question-words.js';

const words = (tokens: readonly Token[]): string => tokens.map((t) => t.text).join(' ');

/** The question asked once of each side of "both A and B". */
interface BothReading {
  first: string;
  second: string;
  /** The second side's words, for the answer sentence. */
  other: string;
}

/**
 * Reads "... both A and B ...": the question with A in place of the pair, and with B. B runs to the end of the
 * sentence; the other sentences are kept for both. Undefined without exactly one "both" followed by "and".
 */
export function readBoth(question: string): BothReading | undefined {
  const sentences = question.split(/(?<=[?.!])\s+/);
  const holding = sentences.filter((s) => tokenize(s).some((t) => t.text === 'both'));
  if (holding.length !== 1) return undefined;
  const tokens = tokenize(holding[0]);
  const both = tokens.findIndex((t) => t.text === 'both');
  const and = tokens.findIndex((t, k) => k > both && t.text === 'and');
  if (tokens.filter((t) => t.text === 'both').length !== 1 || both === 0 || and < both + 2 || and === tokens.length - 1)
    return undefined;
  const others = sentences.filter((s) => s !== holding[0]);
  const side = (part: readonly Token[]): string => [words([...tokens.slice(0, both), ...part]), ...others].join(' ');
  return {
    first: side(tokens.slice(both + 1, and)),
    second: side(tokens.slice(and + 1)),
    other: words(tokens.slice(and + 1)),
  };
}

/**
 * Translates "stadiums that had concerts in both 2014 and 2015", "the visitor who visited both a museum opened before
 * 2009 and a museum opened after 2011": the question with the first side is planned with a condition that its rows'
 * key is also among the keys the question with the second side lists (`IN`, one subquery). Both sides must list rows
 * of the same table, the second without ranking, counting or grouping. Undefined without "both ... and".
 */
export function translateBoth(
  question: string,
  schema: SchemaContext,
  plan: PlanWithAddition,
  refuse: (reason: string) => never,
): Translation | undefined {
  const reading = readBoth(question);
  if (!reading) return undefined;
  const first = plan(reading.first).parts;
  const second = plan(reading.second).parts;
  const table = mainTable(first);
  const key = table && referencedKey(schema, table);
  if (!table || !key || mainTable(second) !== table || first.where.join() === second.where.join())
    return refuse(`Could not tell which rows "both" asks to be related to each side`);
  const sql = keysOf(second, table, key, reading.other, refuse);
  return keepRows(
    plan,
    reading.first,
    table,
    key,
    { sql, negated: false, description: `and ${reading.other}` },
    refuse,
  );
}
