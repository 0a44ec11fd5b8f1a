import { keyColumn } from './column-roles.js';
import type { PlanAddition, PlannedQuery, PlanParts } from './plan-parts.js';
import type { SchemaColumn, SchemaContext, SchemaTable } from './schema-context.js';
import type { Translation } from './translator.js';
import { sqlIdent } from '../../core/sql-text.js';

/** Plans one plain question, with what a composed question adds to it; throws NotUnderstood when it cannot. */
export type PlanWithAddition = (question: string, addition?: PlanAddition) => PlannedQuery;

/** The FROM table of a plan (alias t1). */
export function mainTable(parts: PlanParts): SchemaTable | undefined {
  return [...parts.aliases].find(([, alias]) => alias === 't1')?.[0];
}

/** The column other tables reference `table` by: its key, else the column a relationship points at. */
export function referencedKey(schema: SchemaContext, table: SchemaTable): SchemaColumn | undefined {
  const named = schema.relationships.find((r) => r.to.table === table.key)?.to.column;
  return keyColumn(table) ?? table.columns.find((c) => c.name === named);
}

/**
 * The keys of `table` the rows of `parts` (a plan with `table` among its tables) relate to, as a subquery without
 * nulls; refused when the plan ranks, counts or groups, which a set of keys cannot keep.
 */
export function keysOf(
  parts: PlanParts,
  table: SchemaTable,
  key: SchemaColumn,
  words: string,
  refuse: (reason: string) => never,
): string {
  if (parts.aggregated || parts.ranked || parts.groupBy.length > 0 || !parts.aliases.has(table))
    refuse(`"${words}" ranks, counts or groups, or is not about ${table.name}; only rows it relates to can be kept`);
  const column = `${parts.aliases.get(table)}.${sqlIdent(key.name)}`;
  return `SELECT ${column} FROM ${parts.from} WHERE ${[...parts.where, `${column} IS NOT NULL`].join(' AND ')}`;
}

/**
 * The question `rows` planned once more, keeping the rows of `table` whose key is (or, `negated`, is not) among
 * `keys`; refused when `rows` are no longer rows of `table`.
 */
export function keepRows(
  plan: PlanWithAddition,
  rows: string,
  table: SchemaTable,
  key: SchemaColumn,
  keys: { sql: string; negated: boolean; description: string },
  refuse: (reason: string) => never,
): Translation {
  const { sql, meaning, grouped, tieCheck } = plan(rows, {
    condition: (main) => ({
      ref: { table, column: key },
      sql: (column) => `${column} ${keys.negated ? 'NOT IN' : 'IN'} (${keys.sql})`,
      description: keys.description,
      ...(main === table ? {} : refuse(`Could not tell which rows "${keys.description}" keeps`)),
    }),
  });
  return { sql, meaning, grouped, tieCheck };
}
