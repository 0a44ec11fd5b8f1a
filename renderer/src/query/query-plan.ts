import type { SqlResult } from '../../../server/src/contract/index.js';

/** One operator of a query plan, as the plan view shows it. */
export interface PlanNode {
  name: string;
  /** The operator's own time (EXPLAIN ANALYZE), in milliseconds. */
  timeMs?: number;
  /** The rows the operator produced (EXPLAIN ANALYZE). */
  rows?: number;
  /** What the operator does (its projections, filters, tables, estimated cardinality), as DuckDB words it. */
  details: [string, string][];
  children: PlanNode[];
}

/** A query plan: its operators, and the whole query's time when it was analysed. */
export interface QueryPlan {
  analysed: boolean;
  totalMs?: number;
  roots: PlanNode[];
}

/** DuckDB's JSON of one operator: `name` in a plan, `operator_name` and its measures in a profile. */
interface DuckDBOperator {
  name?: string;
  operator_name?: string;
  operator_type?: string;
  operator_timing?: number;
  operator_cardinality?: number;
  extra_info?: Record<string, unknown>;
  children?: DuckDBOperator[];
}

function detailsOf(info: Record<string, unknown> | undefined): [string, string][] {
  return Object.entries(info ?? {}).map(([key, value]) => [
    key,
    Array.isArray(value) ? value.join(', ') : String(value),
  ]);
}

function nodeOf(op: DuckDBOperator): PlanNode {
  const timed = op.operator_timing !== undefined;
  return {
    name: (op.operator_name ?? op.name ?? '?').trim(),
    ...(timed ? { timeMs: op.operator_timing! * 1000, rows: op.operator_cardinality } : {}),
    details: detailsOf(op.extra_info),
    children: (op.children ?? []).map(nodeOf),
  };
}

/**
 * The plan in `result` when it is the answer of an EXPLAIN (columns `explain_key`, `explain_value` holding DuckDB's
 * JSON): a plan's operators, or an analysed query's (below its EXPLAIN_ANALYZE wrapper) with the total time.
 * Undefined for any other result, or JSON of another shape.
 */
export function planOf(result: SqlResult): QueryPlan | undefined {
  const names = result.columns.map((c) => c.name).join(',');
  const value = result.rows[0]?.explain_value;
  if (names !== 'explain_key,explain_value' || typeof value !== 'string') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (Array.isArray(json)) return { analysed: false, roots: (json as DuckDBOperator[]).map(nodeOf) };
  const profile = json as { latency?: number; children?: DuckDBOperator[] };
  if (typeof profile !== 'object' || profile === null || !Array.isArray(profile.children)) return undefined;
  const top = profile.children.flatMap((op) => (op.operator_type === 'EXPLAIN_ANALYZE' ? (op.children ?? []) : [op]));
  return { analysed: true, totalMs: (profile.latency ?? 0) * 1000, roots: top.map(nodeOf) };
}
