import type { ColumnRef } from './column-roles.js';
import type { SchemaTable } from './schema-context.js';
import type { Translation } from './translator.js';
/** The pieces of a planned SELECT, for composing two plans into one query (a ratio of two counts). */
export interface PlanParts {
  /** The SELECT list: grouping columns first, then the aggregates (or the listed columns). */
  select: string[];
  /** The FROM clause (tables joined, with the plan's aliases t1, t2, ...). */
  from: string;
  /** The WHERE conditions, to be joined with AND. */
  where: string[];
  /** The GROUP BY columns (may hold a key besides the shown label). */
  groupBy: string[];
  /** The columns the question groups by ("for each X"), also when nothing is aggregated. */
  keys: string[];
  /** What each key column is (`source.table.column`), to match the keys of two plans. */
  keyIds: string[];
  aggregated: boolean;
  /** What a count counts: rows of a table, or distinct values of a column. */
  counted?: 'rows' | 'column';
  /** Whether the plan keeps only some rows or groups (LIMIT, DISTINCT, HAVING). */
  limited: boolean;
  /** Whether the plan keeps the first rows of a ranking or only groups a HAVING keeps (not a mere DISTINCT). */
  ranked: boolean;
  /** The alias of each table of `from`. */
  aliases: ReadonlyMap<SchemaTable, string>;
}

/**
 * What a composed question adds to one plan before its SQL is written: a table joined, and a condition on a column
 * of the plan's main table (the FROM table, given once the plan has decided it).
 */
export interface PlanAddition {
  join?: SchemaTable;
  condition?: (main: SchemaTable) => { ref: ColumnRef; sql: (column: string) => string; description: string };
}

/** A translation with its parts. */
export interface PlannedQuery extends Translation {
  parts: PlanParts;
}
