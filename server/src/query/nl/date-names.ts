/** Columns that store calendar names ("Monday", "April") instead of dates, as check-in and review logs often do. */
import { type ColumnRef } from './column-roles.js';
import type { SchemaColumn, SchemaTable } from './schema-context.js';
import { sqlLiteral } from '../../core/sql-text.js';

/**
 * The first text column of `tables` whose sampled values are (nearly all: data has strays such as a
 * header row) among `names`, lower-case day or month names.
 */
export function namesColumn(tables: readonly SchemaTable[], names: readonly string[]): ColumnRef | undefined {
  const isNames = (c: SchemaColumn): boolean =>
    c.kind === 'text' &&
    c.values.length > 0 &&
    c.values.filter((v) => names.includes(v.toLowerCase())).length >= 0.8 * c.values.length;
  for (const table of tables) {
    const column = table.columns.find(isNames);
    if (column) return { table, column };
  }
  return undefined;
}

/** The names as `column` stores them ("Monday", "MONDAY": the sampled spelling, else capitalised), and the comparison
 * with them. */
export function namesCondition(column: SchemaColumn, names: readonly string[]): { values: string[]; rhs: string } {
  const values = names.map(
    (name) => column.values.find((v) => v.toLowerCase() === name) ?? name[0].toUpperCase() + name.slice(1),
  );
  return {
    values,
    rhs: values.length === 1 ? `= ${sqlLiteral(values[0])}` : `IN (${values.map(sqlLiteral).join(', ')})`,
  };
}
