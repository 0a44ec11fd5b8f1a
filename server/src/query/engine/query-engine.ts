import type { Filter, PartialAggregation } from '../connectors/types.js';
import type { SqlResult } from '../../contract/index.js';

/** What one connector scan of a query fetched: for logs, tests and benchmarks. */
export interface ScanReport {
  source: string;
  table: string;
  columns: string[];
  /** Filters the source applied itself. */
  pushed: Filter[];
  /** The partial aggregation the source computed, when it was pushed: `rows` are then its groups. */
  aggregation?: PartialAggregation;
  /** Rows that arrived from the source. */
  rows: number;
  /** Milliseconds from the start of the query's fetches until this table was loaded. */
  ms: number;
}

/** A query's result with how it was obtained. */
export interface QueryOutcome extends SqlResult {
  scans: ScanReport[];
  /** The size of the rows as JSON (what `query_result_bytes` counts); not part of the API's answer. */
  bytes?: number;
}

/** What asked for a query: the `kind` label of the query metrics (a closed set, never client input). */
export type QueryKind = 'sql' | 'sparql' | 'natural-language' | 'async';

export interface RunOptions {
  maxRows: number;
  /** Largest size of the result's rows as JSON, in bytes; unbounded when undefined (see ResultRows). */
  maxBytes?: number;
  timeoutMs: number;
  /** Aborts the query (async cancel); the reason is thrown. */
  signal?: AbortSignal;
  /** Told the id the engine's cluster gave the query (Trino's), as soon as it is known: async jobs store it. */
  onQueryId?: (id: string) => void;
  /** What asked for the query, for its metrics; `sql` when not given. */
  kind?: QueryKind;
}

/** An engine that runs federated SELECT queries over the configured sources. */
export interface QueryEngine {
  /** Checks what can be checked before running (size, syntax, SELECT only): throws QueryRejected or a 413. */
  validate(sql: string): Promise<void>;
  run(sql: string, options: RunOptions): Promise<QueryOutcome>;
  /** Cancels a query at the engine's cluster by the id `onQueryId` gave (a job another replica runs). */
  cancelQuery?(queryId: string): Promise<void>;
  close(): Promise<void>;
}
