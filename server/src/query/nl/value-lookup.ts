import type { SqlResult } from '../../contract/index.js';
import { sqlIdent, sqlLiteral } from '../../core/sql-text.js';
import { tokenize } from './question-words.js';
import type { SchemaColumn, SchemaContext, SchemaTable } from './schema-context.js';

/** Most phrases of one question looked up, and most columns asked per table in one query. */
const maxPhrases = 3;
const maxColumnsPerTable = 8;
/** Longest phrase looked up (in words, and characters as sampled values are). */
const maxPhraseWords = 4;
const maxPhraseLength = 60;
/** Phrases remembered per schema context (found or not); the memory is dropped when it fills. */
const maxRemembered = 2000;

/** Runs one SELECT through the engine, under the query limits (row cap, timeout of the query deadline). */
export type LookupRun = (sql: string) => Promise<SqlResult>;

/**
 * Looks up words the sample of values did not hold ("Spruce Shoes" among 300 customer names when 200 were
 * sampled) in the columns whose sample was cut: one bounded query per table (`LIMIT 1` per column, compared
 * ignoring case), through the engine and its limits. A value found is added to its column's values in the schema
 * context, so it is linked like a sampled one while the context lives; a phrase not found is remembered too, so a
 * word is looked up once per context.
 */
export class ValueLookup {
  private readonly asked = new WeakMap<SchemaContext, Set<string>>();

  /** Looks up `phrases`; returns whether any became a value of some column. */
  async find(schema: SchemaContext, phrases: readonly string[], run: LookupRun): Promise<boolean> {
    const asked = this.asked.get(schema) ?? new Set<string>();
    this.asked.set(schema, asked);
    if (asked.size > maxRemembered) asked.clear();
    const fresh = [...new Set(phrases.map(normalised))]
      .filter((p) => p !== '' && p.length <= maxPhraseLength && p.split(' ').length <= maxPhraseWords)
      .filter((p) => !asked.has(p))
      .slice(0, maxPhrases);
    for (const p of fresh) asked.add(p);
    if (fresh.length === 0) return false;
    const found = await Promise.all(schema.tables.map((table) => lookUpInTable(table, fresh, run).catch(() => false)));
    return found.some(Boolean);
  }
}

/** A phrase as sampled values are matched: its word tokens, lower-cased, one space apart. */
const normalised = (phrase: string): string =>
  tokenize(phrase)
    .map((t) => t.text)
    .join(' ');

/** One query over `table`'s cut columns for every phrase; adds the values found to their columns. */
async function lookUpInTable(table: SchemaTable, phrases: readonly string[], run: LookupRun): Promise<boolean> {
  const columns = table.columns.filter((c) => c.kind === 'text' && c.valuesCut && !c.derived);
  const asks = columns.flatMap((column) => phrases.map((phrase) => ({ column, phrase }))).slice(0, maxColumnsPerTable);
  if (asks.length === 0) return false;
  const from = `${sqlIdent(table.source)}.${sqlIdent(table.name)}`;
  const select = asks.map(
    ({ column, phrase }, k) =>
      `(SELECT ${sqlIdent(column.name)} FROM ${from} WHERE lower(${sqlIdent(column.name)}) = ` +
      `${sqlLiteral(phrase)} LIMIT 1) AS "v${k}"`,
  );
  const row = (await run(`SELECT ${select.join(', ')}`)).rows[0] ?? {};
  let added = false;
  for (const [k, { column }] of asks.entries()) {
    const value = row[`v${k}`];
    if (typeof value === 'string' && addValue(column, value)) added = true;
  }
  return added;
}

function addValue(column: SchemaColumn, value: string): boolean {
  if (column.values.includes(value)) return false;
  column.values.push(value);
  return true;
}
