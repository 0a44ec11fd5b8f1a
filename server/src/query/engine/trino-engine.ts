import { performance } from 'node:perf_hooks';
import type { Json } from '@duckdb/node-api';
import { httpError, type HttpError } from '../../core/errors.js';
import { QueryRejected, UnknownFunction, UnknownTable } from '../../core/domain-errors.js';
import { lineAndColumn } from '../../core/text-position.js';
import type { SourceCatalog } from '../source-catalog.js';
import type { QueryLimits } from '../sources.js';
import type { TrinoSettings } from '../trino-settings.js';
import { Deadline } from '../deadline.js';
import type { QueryEngine, QueryOutcome, RunOptions } from './query-engine.js';
import { ResultRows } from './result-rows.js';
import { observeQuery } from '../../observability/metrics.js';
import { analyseQuery } from './sql-analysis.js';
import type { SqlParser } from './sql-parser.js';
import { toTrinoSpelling } from './trino-dialect.js';
import { rewriteForTrino } from './trino-rewrite.js';
import {
  documentedType,
  TrinoConnection,
  TrinoHttpError,
  type TrinoPage,
  type TrinoQueryError,
} from './trino-protocol.js';

export { documentedType } from './trino-protocol.js';

/** How long the cancel of a query we stopped reading may take; nobody waits for it. */
const cancelTimeoutMs = 10_000;

/** Converts one Trino value to the JSON of the SQL result shape (same rules as the DuckDB engine). */
export function trinoJsonValue(value: unknown, type: string): Json {
  if (value === null || value === undefined) return null;
  const base = type.toLowerCase();
  if (base === 'bigint' && typeof value === 'number')
    return Number.isSafeInteger(value) ? value : String(BigInt(Math.round(value)));
  if (base.startsWith('decimal')) {
    const precision = Number(/decimal\((\d+)/.exec(base)?.[1] ?? 38);
    return precision <= 15 ? Number(value) : String(value);
  }
  if (base.startsWith('timestamp') && typeof value === 'string') {
    const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)(?: (.+))?$/.exec(value);
    if (!match) return value;
    const time = match[2].replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
    if (!match[3]) return `${match[1]}T${time}`;
    if (match[3] === 'UTC' || match[3] === 'Z') return `${match[1]}T${time}Z`;
    return /^[+-]\d{2}:\d{2}$/.test(match[3]) ? `${match[1]}T${time}${match[3]}` : `${match[1]}T${time} ${match[3]}`;
  }
  return value as Json;
}

/**
 * The distributed engine (`engine: trino`): the same SELECT-only check as the embedded engine, source
 * references rewritten to each source's Trino catalog and schema, the statement sent through
 * `trino-client`, pages followed through `nextUri` (retrying 502/503/504), and the query cancelled at
 * Trino when it times out, is cancelled, or has produced more rows than the limit.
 */
export class TrinoEngine implements QueryEngine {
  constructor(
    private readonly catalog: SourceCatalog,
    private readonly parser: SqlParser,
    private readonly settings: TrinoSettings,
    private readonly limits: QueryLimits,
  ) {
    // Trino unrolls a recursive WITH up to max_recursion_depth steps (10 unless set) and fails a query that needs
    // more: a SPARQL path of any length takes up to `max_path_depth` steps, and one more finds nothing left.
    this.connection = new TrinoConnection(settings, { max_recursion_depth: String(limits.maxPathDepth + 1) });
  }

  private readonly connection: TrinoConnection;

  async validate(sql: string): Promise<void> {
    if (sql.length > this.limits.maxQueryLength)
      throw httpError('QUERY_TOO_LARGE', [sql.length, this.limits.maxQueryLength]);
    await this.parser.parse(sql);
  }

  /** The SQL Trino receives: every `<source>.<table>` replaced by `<catalog>.<schema>.<table>`, then in Trino's
   * spelling (trino-dialect.ts); 404 for unknown sources. */
  async translate(sql: string): Promise<string> {
    if (sql.length > this.limits.maxQueryLength)
      throw httpError('QUERY_TOO_LARGE', [sql.length, this.limits.maxQueryLength]);
    const ast = await this.parser.parse(sql);
    for (const ref of analyseQuery(ast).references) {
      if (!this.catalog.get(ref.source))
        throw new UnknownTable(`Unknown source "${ref.source}" in ${ref.source}.${ref.table}`);
    }
    return toTrinoSpelling(rewriteForTrino(sql, ast, (source) => this.catalog.get(source)?.definition.trino));
  }

  /** Runs one protocol step within the deadline; a failure to reach Trino is a 502 naming it. */
  private async step(fn: () => Promise<TrinoPage>, deadline: Deadline): Promise<TrinoPage> {
    try {
      return await deadline.bound(fn());
    } catch (error) {
      deadline.throwIfExpired();
      const reason = error instanceof TrinoHttpError ? error.message : (error as Error).message || String(error);
      throw httpError('QUERY_SOURCE_UNAVAILABLE', [`Trino at ${this.settings.server} is unreachable: ${reason}`]);
    }
  }

  /** Maps a Trino query error: user errors are the statement's own (400/404), the rest Trino's (502). */
  private queryError(error: TrinoQueryError, sql: string): QueryRejected | UnknownTable | UnknownFunction | HttpError {
    const location = error.errorLocation;
    const unknownFunction = error.errorName === 'FUNCTION_NOT_FOUND' && /Function '([^']+)'/.exec(error.message);
    if (unknownFunction) return new UnknownFunction(unknownFunction[1], []);
    if (
      error.errorName === 'TABLE_NOT_FOUND' ||
      error.errorName === 'SCHEMA_NOT_FOUND' ||
      error.errorName === 'CATALOG_NOT_FOUND'
    )
      return new UnknownTable(error.message);
    if (error.errorType === 'USER_ERROR') {
      if (location) {
        const lines = sql.split('\n');
        const offset =
          lines.slice(0, location.lineNumber - 1).reduce((n, l) => n + l.length + 1, 0) + location.columnNumber - 1;
        const { line, column } = lineAndColumn(sql, offset);
        return new QueryRejected(error.message, { position: offset, line, column });
      }
      return new QueryRejected(error.message);
    }
    return httpError('QUERY_SOURCE_UNAVAILABLE', [`Trino failed the query: ${error.message}`]);
  }

  async run(sql: string, options: RunOptions): Promise<QueryOutcome> {
    const started = performance.now();
    return observeQuery(options.kind ?? 'sql', async () => {
      const statement = await this.translate(sql);
      const answer = await this.stream(statement, options);
      return { ...answer.result(Math.round(performance.now() - started)), scans: [] };
    });
  }

  /**
   * Sends `statement` and follows its pages through `nextUri` into one byte-bounded {@link ResultRows}: a page
   * is converted and dropped before the next is asked for. A query left unfinished (timeout, cancel, client
   * gone, row or byte limit) is cancelled at Trino with `DELETE nextUri`; the answer does not wait for it.
   */
  async stream(statement: string, options: RunOptions): Promise<ResultRows> {
    const deadline = Deadline.after(options.timeoutMs, options.signal);
    let nextUri: string | undefined;
    try {
      let page = await this.step(() => this.connection.start(statement, deadline.signal), deadline);
      options.onQueryId?.(page.id);
      let rows: ResultRows | undefined;
      let types: string[] = [];
      for (;;) {
        nextUri = page.nextUri;
        if (page.error) throw this.queryError(page.error, statement);
        if (!rows && page.columns) {
          types = page.columns.map((c) => c.type);
          rows = new ResultRows(
            page.columns.map((c) => ({ name: c.name, type: documentedType(c.type) })),
            options,
          );
        }
        for (const values of page.data ?? [])
          if (!rows!.wantsMore() || !rows!.add(values.map((value, i) => trinoJsonValue(value, types[i])))) return rows!;
        if (!nextUri) return rows ?? new ResultRows([], options);
        const uri = nextUri;
        page = await this.step(() => this.connection.next(uri, deadline.signal), deadline);
      }
    } catch (error) {
      throw deadline.expired ? deadline.signal.reason : error;
    } finally {
      deadline.dispose();
      // A Trino that hangs would hang the answer too: the cancel runs on its own.
      if (nextUri) void this.cancelAt(nextUri);
    }
  }

  /** Cancels a query at Trino by its id: an async job's, when the replica that ran it is gone. */
  cancelQuery(queryId: string): Promise<void> {
    return this.cancelAt(this.connection.queryUri(queryId));
  }

  private cancelAt(uri: string): Promise<void> {
    return this.connection.cancel(uri, AbortSignal.timeout(cancelTimeoutMs)).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.connection.close();
  }
}
