import type { Deadline } from '../deadline.js';
import { SourceUnavailableError } from '../../core/domain-errors.js';

/** What every connector offers the engines: tables with typed columns, scans, and a health check. */

/** A column with its DuckDB type (for example `BIGINT`, `DECIMAL(12,2)`, `TIMESTAMP WITH TIME ZONE`). */
export interface ColumnInfo {
  name: string;
  type: string;
}

export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
}

export type ComparisonOp = '=' | '<>' | '<' | '<=' | '>' | '>=';
export type FilterValue = string | number | bigint | boolean;

/**
 * A simple predicate on one column, taken from the top level of a query's WHERE clause. A connector
 * may apply any subset of the filters it is given: the user's SQL runs unchanged on the loaded rows,
 * so pushing a filter only has to keep every row that passes it.
 */
export type Filter =
  { column: string; op: ComparisonOp; value: FilterValue } | { column: string; op: 'in'; values: FilterValue[] };

/**
 * One aggregate a source computes per group: `count` without a column is `count(*)`. Only
 * decomposable aggregates appear, so the engine can finish them over the source's partial rows.
 */
export interface PartialAggregate {
  fn: 'count' | 'sum' | 'min' | 'max';
  column?: string;
}

/**
 * A partial aggregation offered to the source: if it takes it, the scan returns one row per distinct
 * `groupBy` (per part of the table the source reads separately: groups may repeat), then one value
 * per aggregate, as `columns` (the group-by columns, then one per aggregate, with DuckDB types).
 */
export interface PartialAggregation {
  groupBy: ColumnInfo[];
  aggregates: PartialAggregate[];
  columns: ColumnInfo[];
  /**
   * Filters (also among the scan's `filters`) that the source must apply itself to take the
   * aggregation: the engine drops them from the query, so their columns need no group.
   */
  filters: Filter[];
}

/** What the engine asks a connector for: some columns of one table, ideally only matching rows. */
export interface ScanRequest {
  table: TableInfo;
  /** The columns to fetch, in this order; never empty. */
  columns: ColumnInfo[];
  /** Offered only to connectors with `pushesAggregation`, which may still answer with plain rows. */
  aggregation?: PartialAggregation;
  filters: Filter[];
  /** The query's deadline: bounds every wait of the scan, including reading its rows. */
  deadline: Deadline;
  /** A private folder for this query's temporary files, removed when the query ends. */
  workDir: string;
}

/**
 * A scan's rows, in one of three forms:
 * - `rows`: batches of value arrays (one value per requested column, in order) that the engine appends;
 * - `duckdb`: a SELECT (with optional setup/teardown statements) that the query's own DuckDB instance
 *   runs while it still may read files, for data DuckDB reads natively (Parquet, CSV, JSON, DuckDB files);
 * - `duckdb-parts`: SELECTs like `duckdb`'s, each over files complete when it is yielded, so the engine
 *   loads the first parts while the source still writes the others. Ending the iteration early stops
 *   the source's writing before it returns.
 */
export type ScanOutput =
  | { kind: 'rows'; batches: AsyncIterable<unknown[][]> }
  | { kind: 'duckdb'; setup?: string[]; select: string; teardown?: string[] }
  | { kind: 'duckdb-parts'; parts: AsyncIterable<string> };

export interface ScanResult {
  output: ScanOutput;
  /** The filters the connector applied at the source (for reports and tests). */
  pushed: Filter[];
  /** True when the rows are the partial aggregation of the request (`aggregation.columns`), not plain rows. */
  aggregated?: boolean;
}

export type SourceType = 'relational' | 'streaming' | 'object-storage';

/**
 * One source's connection, created from its sources.yaml settings. Every method is bounded by the
 * caller's {@link Deadline}: when it passes, the method rejects at once with the deadline's reason and
 * the connection it was waiting on is destroyed, however the source behaves.
 */
export interface Connector {
  /** Whether `scan` computes a {@link PartialAggregation} at the source when asked. */
  readonly pushesAggregation?: boolean;
  /** Every table the source offers, with its columns. */
  listTables(deadline: Deadline): Promise<TableInfo[]>;
  /** One table by name (case-insensitive), or undefined when the source has no such table. */
  describeTable(name: string, deadline: Deadline): Promise<TableInfo | undefined>;
  scan(request: ScanRequest): Promise<ScanResult>;
  /** Resolves with details safe to show (never secrets) when the source answers; throws when not. */
  check(deadline: Deadline): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Finds a table by name, ignoring case as DuckDB does. */
export function findTable(tables: readonly TableInfo[], name: string): TableInfo | undefined {
  const wanted = name.toLowerCase();
  return tables.find((t) => t.name.toLowerCase() === wanted);
}

/**
 * The tables of a database catalogue's column rows (one row per column, grouped by table in order),
 * keeping only the tables of `allowList` (case-insensitive) when one is given.
 */
export function tablesOfColumns(
  rows: readonly { table: string; column: ColumnInfo }[],
  allowList?: readonly string[],
): TableInfo[] {
  const allowed = allowList && new Set(allowList.map((t) => t.toLowerCase()));
  const tables = new Map<string, TableInfo>();
  for (const { table, column } of rows) {
    if (allowed && !allowed.has(table.toLowerCase())) continue;
    const info = tables.get(table) ?? { name: table, columns: [] };
    info.columns.push(column);
    tables.set(table, info);
  }
  return [...tables.values()];
}

/**
 * What a failed wait on a source answers: the deadline's reason once it has passed (the failure was
 * then the cut connection), the error itself when it already names the source, else a
 * {@link SourceUnavailableError} naming it.
 */
export function sourceFailure(source: string, error: unknown, deadline: Deadline): unknown {
  if (deadline.expired) return deadline.signal.reason;
  if (error instanceof SourceUnavailableError) return error;
  return new SourceUnavailableError(source, (error as Error).message || String(error));
}
