import { sqlLiteral } from '../../core/sql-text.js';
import type { ColumnInfo, Filter, FilterValue } from './types.js';

/** The kind of value a DuckDB column type holds, for deciding which filters are safe to push. */
export type ValueKind = 'number' | 'string' | 'boolean' | 'other';

/** Classifies a DuckDB type name. */
export function valueKind(type: string): ValueKind {
  const t = type.toUpperCase();
  if (
    /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL)/.test(
      t,
    )
  )
    return 'number';
  if (t === 'VARCHAR') return 'string';
  if (t === 'BOOLEAN') return 'boolean';
  return 'other';
}

/** The kind of a filter constant. */
export function constantKind(value: FilterValue): ValueKind {
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (typeof value === 'string') return 'string';
  return 'boolean';
}

/**
 * The filters whose semantics a source shares with DuckDB for sure: numeric comparisons, boolean and
 * string equality. String ordering is left out because databases order strings by their collation.
 */
export function portableFilters(filters: readonly Filter[], columns: readonly ColumnInfo[]): Filter[] {
  return filters.filter((f) => {
    const column = columns.find((c) => c.name === f.column);
    if (!column) return false;
    const kind = valueKind(column.type);
    if (kind === 'number') return true;
    if (kind === 'string' || kind === 'boolean') return f.op === '=' || f.op === '<>' || f.op === 'in';
    return false;
  });
}

/** Quotes an identifier with double quotes (PostgreSQL, DuckDB). */
/** Quotes an identifier with backticks (MySQL, MariaDB). */

/** A DuckDB SQL literal for a filter constant or a string. */
export function duckdbLiteral(value: FilterValue): string {
  if (typeof value === 'string') return sqlLiteral(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value);
}

/**
 * Renders filters as one SQL condition joined with AND; `param` turns a value into a placeholder (and
 * records it) or a literal. Returns an empty string when there are no filters.
 */
export function filtersToSql(
  filters: readonly Filter[],
  quote: (name: string) => string,
  param: (value: FilterValue) => string,
): string {
  return filters
    .map((f) =>
      f.op === 'in'
        ? `${quote(f.column)} IN (${f.values.map(param).join(', ')})`
        : `${quote(f.column)} ${f.op} ${param(f.value)}`,
    )
    .join(' AND ');
}

function compare(a: unknown, op: Filter['op'], b: FilterValue): boolean {
  if (a === null || a === undefined) return false;
  const left = typeof a === 'bigint' || typeof b === 'bigint' ? Number(a) : a;
  const right = typeof b === 'bigint' ? Number(b) : b;
  switch (op) {
    case '=':
      return left === right;
    case '<>':
      return left !== right;
    case '<':
      return (left as number) < (right as number);
    case '<=':
      return (left as number) <= (right as number);
    case '>':
      return (left as number) > (right as number);
    case '>=':
      return (left as number) >= (right as number);
    case 'in':
      return false;
  }
}

/**
 * Builds a row predicate for filters applied in the connector itself (sources without a query
 * language). Rows are value arrays in `columns` order. Only filters whose constant has the column's
 * kind are applied, so a mismatch never drops a row DuckDB would keep.
 */
export function rowPredicate(
  filters: readonly Filter[],
  columns: readonly ColumnInfo[],
): { test: (row: unknown[]) => boolean; applied: Filter[] } {
  const applied = portableFilters(filters, columns).filter((f) => {
    const kind = valueKind(columns.find((c) => c.name === f.column)!.type);
    return (f.op === 'in' ? f.values : [f.value]).every((v) => constantKind(v) === kind);
  });
  const checks = applied.map((f) => {
    const index = columns.findIndex((c) => c.name === f.column);
    if (f.op === 'in') return (row: unknown[]) => f.values.some((v) => compare(row[index], '=', v));
    return (row: unknown[]) => compare(row[index], f.op, f.value);
  });
  return { test: (row) => checks.every((check) => check(row)), applied };
}
