/** What the columns of a table are for: the label naming a row, the key, the measure, a tally; and SQL pieces for
 * them. */
import type { Aggregate, Comparison } from './cues.js';
import type { Bucket } from './date-buckets.js';
import { lemmaOf } from './question-words.js';
import type { SchemaColumn, SchemaTable } from './schema-context.js';
import { wordTable } from '../../core/json.js';
import { sqlIdent } from '../../core/sql-text.js';

/** A column of a table of the question; with `bucket`, a date column grouped by that unit. */
export interface ColumnRef {
  table: SchemaTable;
  column: SchemaColumn;
  bucket?: Bucket;
}

export const aggregateNames: Record<Aggregate, string> = {
  count: 'number',
  avg: 'average',
  sum: 'total',
  max: 'maximum',
  min: 'minimum',
};

/** The SQL of `column` of the table aliased `alias` (unqualified without one), computed when the column is derived. */
export function columnSql(column: SchemaColumn, alias?: string): string {
  const stored = (c: SchemaColumn): string => (alias ? `${alias}.${sqlIdent(c.name)}` : sqlIdent(c.name));
  return column.derived ? column.derived.sql(column.derived.of.map(stored)) : stored(column);
}

/** A key column, by its name: `id`, `*_id`, `*Id`, `id*`. */
export const isKeyColumn = (c: SchemaColumn): boolean => /(^|_)id$|[a-z]Id$|^id/i.test(c.name);

/**
 * A yes/no column (`has_final_exam`, `is_placebo`): named in a question, it is a condition rather than something to
 * show. Besides BOOLEAN columns, an integer `is_…` / `has_…` column, the 0-or-1 flag of stores without booleans.
 */
export const isFlagColumn = (c: SchemaColumn): boolean =>
  /^BOOL/i.test(c.type) || (c.kind === 'number' && /INT/i.test(c.type) && /^(is|has)_./i.test(c.name));

/** The condition that a yes/no column holds (or not): `= true`, or `<> 0` for a 0-or-1 integer (non-zero is yes). */
export const flagSql = (c: SchemaColumn, holds: boolean): string =>
  /^BOOL/i.test(c.type) ? `= ${holds}` : holds ? '<> 0' : '= 0';

/** Words for the opposite of what a flag says: "inactive" for `is_active`, "closed" for `is_open`. */
const oppositeWords = wordTable<string>({
  active: 'inactive',
  open: 'closed',
  available: 'unavailable',
  enabled: 'disabled',
  visible: 'hidden',
  valid: 'invalid',
  complete: 'incomplete',
  paid: 'unpaid',
  verified: 'unverified',
});

/** The word naming the opposite of a one-word `is_…` flag (`is_open`: "closed"), or undefined. */
export function flagOpposite(c: SchemaColumn): string | undefined {
  const match = /^is_([a-z]+)$/i.exec(c.name);
  return match && isFlagColumn(c) ? oppositeWords[match[1].toLowerCase()] : undefined;
}

/**
 * The column that names a row of `table` (`name`, `title`, `label`, `*_name`, then a text `company`, `brand`,
 * `*_title` or `*_label`), else its key, else its first column: a ranking of studios names them, not their ids.
 */
export function labelColumn(table: SchemaTable): SchemaColumn {
  const text = table.columns.filter((c) => c.kind === 'text');
  return (
    table.columns.find((c) => /^(name|title|label)$/i.test(c.name)) ??
    text.find((c) => /name$/i.test(c.name)) ??
    text.find((c) => /^(company|brand)$|_(title|label)$/i.test(c.name)) ??
    table.columns.find(isKeyColumn) ??
    table.columns[0]
  );
}

/** The right-hand side of a comparison; numbers come from parsed tokens only. */
export function comparisonSql(op: Comparison, values: number[]): string {
  if (op === 'between') return `BETWEEN ${values[0]} AND ${values[1]}`;
  if (values.length > 1) return `IN (${values.join(', ')})`;
  return `${op} ${values[0]}`;
}

export const describeComparison = (rhs: string): string => rhs.replace('BETWEEN', 'between').replace('IN', 'in');

/** The column of `table` holding a year as a number or text (`year`), not as a date. */
export const yearColumnOf = (table: SchemaTable): SchemaColumn | undefined =>
  table.columns.find((c) => (c.kind === 'number' || c.kind === 'text') && /^year$/i.test(c.name));

/** The column identifying a row: `id`, or `<table>_id` / `<table>id` named after the table itself. */
export function keyColumn(table: SchemaTable): SchemaColumn | undefined {
  const own = lemmaOf(table.name.toLowerCase());
  return (
    table.columns.find((c) => /^id$/i.test(c.name)) ??
    table.columns.find((c) => [`${own}_id`, `${own}id`].includes(c.name.toLowerCase()))
  );
}

/** A number column holding how many events a row stands for (`count`), which a count of rows must sum. */
export function tallyColumn(table: SchemaTable): SchemaColumn | undefined {
  return table.columns.find((c) => c.kind === 'number' && /^(count|cnt|tally)$/i.test(c.name));
}

/** The one obvious number of a table ("orders over 100" means the amount): a single non-key decimal, or a single
 * non-key number. */
export function defaultMeasure(table: SchemaTable): SchemaColumn | undefined {
  const numbers = table.columns.filter((c) => c.kind === 'number' && !isKeyColumn(c));
  if (numbers.length === 1) return numbers[0];
  const decimals = numbers.filter((c) => /DECIMAL|DOUBLE|FLOAT|REAL|NUMERIC/i.test(c.type));
  return decimals.length === 1 ? decimals[0] : undefined;
}

/** The one number of a table that is an amount ("total sales": the sale price), or undefined. */
export function amountMeasure(table: SchemaTable): SchemaColumn | undefined {
  const measure = defaultMeasure(table);
  return measure && /amount|price|cost|revenue|sales|value|balance|fee|salary|income|payment|spend/i.test(measure.name)
    ? measure
    : undefined;
}
