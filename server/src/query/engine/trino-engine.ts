import { performance } from 'node:perf_hooks';
import { BasicAuth, Trino, type QueryResult } from 'trino-client';
import type { Json } from '@duckdb/node-api';
import { httpError, type HttpError } from '../../core/errors.js';
import { QueryRejected, UnknownTable } from '../../core/domain-errors.js';
import { lineAndColumn } from '../../core/text-position.js';
import type { SourceCatalog } from '../source-catalog.js';
import type { QueryLimits, TrinoSettings } from '../sources.js';
import { Deadline } from '../deadline.js';
import type { QueryEngine, QueryOutcome, RunOptions } from './query-engine.js';
import { ResultRows } from './result-rows.js';
import { analyseQuery } from './sql-analysis.js';
import type { SqlParser } from './sql-parser.js';
import { toTrinoSpelling } from './trino-dialect.js';
import { rewriteForTrino } from './trino-rewrite.js';

/** Statuses of the client protocol that mean "busy, ask again" (Trino's documentation: retry with back-off). */
const retryStatuses = new Set([502, 503, 504]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long the cancel of a query we stopped reading may take; nobody waits for it. */
const cancelTimeoutMs = 10_000;

interface AxiosLikeError {
  response?: { status?: number };
  code?: string;
  message?: string;
}

/**
 * The id of the query behind a trino-client iterator. trino-client 0.2.9 keeps the statement's first
 * response (which carries the id) inside its iterator and follows data-less pages internally, so a
 * query that never returns a page would otherwise be impossible to cancel.
 */
function queryIdOf(iterator: unknown): string | undefined {
  const inner = (iterator as { iter?: { queryResult?: QueryResult } } | undefined)?.iter;
  return inner?.queryResult?.id;
}

/**
 * A trino-client client whose every request carries `signal`: axios aborts the request, and destroys its
 * socket, when it fires. trino-client 0.2.9 takes no signal, so it is set on the axios configuration the
 * client keeps and sends every request with (`Client.clientConfig`).
 */
function trinoClient(settings: TrinoSettings, signal: AbortSignal): Trino {
  const trino = Trino.create({
    server: settings.server,
    source: 'adaptive-workbench',
    auth: new BasicAuth(settings.user, settings.password),
  });
  const config = (trino as unknown as { client?: { clientConfig?: { signal?: AbortSignal } } }).client?.clientConfig;
  if (!config) throw new Error("trino-client has no clientConfig to carry the query's signal (library changed?)");
  config.signal = signal;
  return trino;
}

/** Trino's type names whose documented name (DuckDB's, docs/query.md "Result") is another. */
const documentedTypes: [RegExp, string][] = [
  [/^varchar(\(\d+\))?$|^char(\(\d+\))?$/, 'VARCHAR'],
  [/^timestamp(\(\d+\))? with time zone$/, 'TIMESTAMP WITH TIME ZONE'],
  [/^timestamp(\(\d+\))?$/, 'TIMESTAMP'],
  [/^time(\(\d+\))?$/, 'TIME'],
  [/^real$/, 'FLOAT'],
  [/^varbinary$/, 'BLOB'],
];

/** A Trino column type under the service's documented name: `bigint` BIGINT, `varchar(20)` VARCHAR, ... */
export function documentedType(trinoType: string): string {
  const type = trinoType.toLowerCase();
  const array = /^array\((.*)\)$/.exec(type);
  if (array) return `${documentedType(array[1])}[]`;
  if (type.startsWith('row(') || type.startsWith('map(')) return type.toUpperCase();
  for (const [pattern, name] of documentedTypes) if (pattern.test(type)) return name;
  return type.toUpperCase();
}

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
  ) {}

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

  /** Runs one protocol step within the deadline, retrying while Trino answers 502/503/504. */
  private async step<T>(fn: () => Promise<T>, deadline: Deadline): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await deadline.bound(fn());
      } catch (error) {
        deadline.throwIfExpired();
        const status = (error as AxiosLikeError).response?.status;
        if (status !== undefined && retryStatuses.has(status) && attempt < this.settings.retries) {
          await deadline.bound(sleep(Math.min(50 * 2 ** attempt, 1000)));
          continue;
        }
        const reason =
          status !== undefined
            ? `answered HTTP ${status}`
            : (error as AxiosLikeError).message || (error as AxiosLikeError).code || String(error);
        throw httpError('QUERY_SOURCE_UNAVAILABLE', [`Trino at ${this.settings.server} is unreachable: ${reason}`]);
      }
    }
  }

  /** Maps a Trino query error: user errors are the statement's own (400/404), the rest Trino's (502). */
  private queryError(error: NonNullable<QueryResult['error']>, sql: string): QueryRejected | UnknownTable | HttpError {
    const location = (error as { errorLocation?: { lineNumber: number; columnNumber: number } }).errorLocation;
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
    const statement = await this.translate(sql);
    const deadline = Deadline.after(options.timeoutMs, options.signal);
    let iterator: unknown;
    let finished = false;
    try {
      const trino = trinoClient(this.settings, deadline.signal);
      iterator = await this.step(() => trino.query(statement), deadline);
      const pages = iterator as Awaited<ReturnType<Trino['query']>>;
      let collected: ResultRows | undefined;
      let types: string[] = [];
      let full = false;
      for (;;) {
        const page = await this.step(() => pages.next(), deadline);
        const result = page.value as QueryResult;
        if (result.error) {
          finished = true;
          throw this.queryError(result.error, statement);
        }
        if (!collected && result.columns) {
          types = result.columns.map((c) => c.type);
          collected = new ResultRows(
            result.columns.map((c) => ({ name: c.name, type: documentedType(c.type) })),
            options,
          );
        }
        for (const values of result.data ?? []) {
          if (
            !collected!.wantsMore() ||
            !collected!.add(values.map((value: unknown, i: number) => trinoJsonValue(value, types[i])))
          ) {
            full = true;
            break;
          }
        }
        if (page.done || !result.nextUri) {
          finished = true;
          break;
        }
        if (full) break;
      }
      const answer = (collected ?? new ResultRows([], options)).result(Math.round(performance.now() - started));
      return { ...answer, scans: [] };
    } catch (error) {
      throw deadline.expired ? deadline.signal.reason : error;
    } finally {
      deadline.dispose();
      // A query we stopped reading (timeout, cancel, row limit) keeps running at Trino unless cancelled;
      // the answer does not wait for the cancel (a Trino that hangs would hang it too).
      const queryId = queryIdOf(iterator);
      if (queryId && !finished)
        void trinoClient(this.settings, AbortSignal.timeout(cancelTimeoutMs))
          .cancel(queryId)
          .catch(() => undefined);
    }
  }

  async close(): Promise<void> {}
}
