/** What the columns of a table are for: the label naming a row, the key, the measure, a tally; and SQL pieces for them. */
import type { Aggregate, Comparison } from './question-grammar.js';
import { lemmaOf } from './question-words.js';
import type { SchemaColumn, SchemaTable } from './schema-context.js';
import type { Candidate } from './schema-linker.js';

/** A column of a table of the question. */
export interface ColumnRef {
  table: SchemaTable;
  column: SchemaColumn;
}

export const aggregateNames: Record<Aggregate, string> = {
  count: 'number',
  avg: 'average',
  sum: 'total',
  max: 'maximum',
  min: 'minimum',
};

/** A SQL string literal: the only way question text reaches the SQL, always with quotes doubled. */
export const sqlLiteral = (value: string): string => `'${value.replace(/'/g, "''")}'`;

export const isKeyColumn = (c: SchemaColumn): boolean => /(^|_)id$|[a-z]Id$|^id/i.test(c.name);

/** The column that names a row of `table` (`name`, `title`, `*_name`), else its key, else its first column. */
export function labelColumn(table: SchemaTable): SchemaColumn {
  return (
    table.columns.find((c) => /^(name|title)$/i.test(c.name)) ??
    table.columns.find((c) => c.kind === 'text' && /name$/i.test(c.name)) ??
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

/** The column identifying a row: `id`, or `<table>_id` / `<table>id` named after the table itself. */
export function keyColumn(table: SchemaTable): SchemaColumn | undefined {
  const own = lemmaOf(table.name.toLowerCase());
  return table.columns.find((c) => /^id$/i.test(c.name)) ?? table.columns.find((c) => [`${own}_id`, `${own}id`].includes(c.name.toLowerCase()));
}

/** The column a "for each" names: the column itself, or the key (else the label) of a table. */
export function groupedColumn(chosen: Candidate): ColumnRef {
  if (chosen.kind !== 'table') return { table: chosen.table, column: chosen.column };
  return { table: chosen.table, column: keyColumn(chosen.table) ?? labelColumn(chosen.table) };
}

/** A number column holding how many events a row stands for (`count`), which a count of rows must sum. */
export function tallyColumn(table: SchemaTable): SchemaColumn | undefined {
  return table.columns.find((c) => c.kind === 'number' && /^(count|cnt|tally)$/i.test(c.name));
}

/** The one obvious number of a table ("orders over 100" means the amount): a single non-key decimal, or a single non-key number. */
export function defaultMeasure(table: SchemaTable): SchemaColumn | undefined {
  const numbers = table.columns.filter((c) => c.kind === 'number' && !isKeyColumn(c));
  if (numbers.length === 1) return numbers[0];
  const decimals = numbers.filter((c) => /DECIMAL|DOUBLE|FLOAT|REAL|NUMERIC/i.test(c.type));
  return decimals.length === 1 ? decimals[0] : undefined;
}
