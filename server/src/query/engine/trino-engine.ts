import { performance } from 'node:perf_hooks';
import { BasicAuth, Trino, type QueryResult } from 'trino-client';
import type { Json } from '@duckdb/node-api';
import { HttpError } from '../../errors.js';
import { lineAndColumn, queryErrors } from '../query-errors.js';
import type { SourceCatalog } from '../source-catalog.js';
import type { QueryLimits, TrinoSettings } from '../sources.js';
import { QueryTimeout, querySignal, type QueryEngine, type QueryOutcome, type RunOptions } from './query-engine.js';
import { ResultRows } from './result-rows.js';
import { analyseQuery } from './sql-analysis.js';
import type { SqlParser } from './sql-parser.js';
import { rewriteForTrino } from './trino-rewrite.js';

/** Statuses of the client protocol that mean "busy, ask again" (Trino's documentation: retry with back-off). */
const retryStatuses = new Set([502, 503, 504]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

/** Converts one Trino value to the JSON of the SQL result shape (same rules as the DuckDB engine). */
export function trinoJsonValue(value: unknown, type: string): Json {
  if (value === null || value === undefined) return null;
  const base = type.toLowerCase();
  if (base === 'bigint' && typeof value === 'number') return Number.isSafeInteger(value) ? value : String(BigInt(Math.round(value)));
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
  private readonly trino: Trino;

  constructor(
    private readonly catalog: SourceCatalog,
    private readonly parser: SqlParser,
    private readonly settings: TrinoSettings,
    private readonly limits: QueryLimits,
  ) {
    this.trino = Trino.create({ server: settings.server, source: 'adaptive-workbench', auth: new BasicAuth(settings.user, settings.password) });
  }

  async validate(sql: string): Promise<void> {
    if (sql.length > this.limits.maxQueryLength) throw queryErrors.tooLarge(sql.length, this.limits.maxQueryLength);
    await this.parser.parse(sql);
  }

  /** The SQL Trino receives: every `<source>.<table>` replaced by `<catalog>.<schema>.<table>`; 404 for unknown sources. */
  async translate(sql: string): Promise<string> {
    if (sql.length > this.limits.maxQueryLength) throw queryErrors.tooLarge(sql.length, this.limits.maxQueryLength);
    const ast = await this.parser.parse(sql);
    for (const ref of analyseQuery(ast).references) {
      if (!this.catalog.get(ref.source)) throw queryErrors.notFound(`Unknown source "${ref.source}" in ${ref.source}.${ref.table}`);
    }
    return rewriteForTrino(sql, ast, (source) => this.catalog.get(source)?.definition.trino);
  }

  /** Runs one protocol step, retrying while Trino answers 502/503/504. */
  private async step<T>(fn: () => Promise<T>, signal: AbortSignal): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      if (signal.aborted) throw signal.reason;
      try {
        return await fn();
      } catch (error) {
        const status = (error as AxiosLikeError).response?.status;
        if (status !== undefined && retryStatuses.has(status) && attempt < this.settings.retries) {
          await sleep(Math.min(50 * 2 ** attempt, 1000));
          continue;
        }
        const reason = status !== undefined ? `answered HTTP ${status}` : (error as AxiosLikeError).message || (error as AxiosLikeError).code || String(error);
        throw queryErrors.sourceUnavailable(`Trino at ${this.settings.server} is unreachable: ${reason}`);
      }
    }
  }

  /** Maps a Trino query error to a client error: user errors are 400/404, the rest 502. */
  private queryError(error: NonNullable<QueryResult['error']>, sql: string): HttpError {
    const location = (error as { errorLocation?: { lineNumber: number; columnNumber: number } }).errorLocation;
    if (error.errorName === 'TABLE_NOT_FOUND' || error.errorName === 'SCHEMA_NOT_FOUND' || error.errorName === 'CATALOG_NOT_FOUND') return queryErrors.notFound(error.message);
    if (error.errorType === 'USER_ERROR') {
      if (location) {
        const lines = sql.split('\n');
        const offset = lines.slice(0, location.lineNumber - 1).reduce((n, l) => n + l.length + 1, 0) + location.columnNumber - 1;
        const { line, column } = lineAndColumn(sql, offset);
        return queryErrors.badQuery(error.message, { position: offset, line, column });
      }
      return queryErrors.badQuery(error.message);
    }
    return queryErrors.sourceUnavailable(`Trino failed the query: ${error.message}`);
  }

  async run(sql: string, options: RunOptions): Promise<QueryOutcome> {
    const started = performance.now();
    const statement = await this.translate(sql);
    const { signal, dispose } = querySignal(options);
    let iterator: unknown;
    let finished = false;
    try {
      iterator = await this.step(() => this.trino.query(statement), signal);
      const pages = iterator as Awaited<ReturnType<Trino['query']>>;
      let collected: ResultRows | undefined;
      let types: string[] = [];
      const aborted = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
      aborted.catch(() => undefined);
      let full = false;
      for (;;) {
        const page = await Promise.race([this.step(() => pages.next(), signal), aborted]);
        const result = page.value as QueryResult;
        if (result.error) {
          finished = true;
          throw this.queryError(result.error, statement);
        }
        if (!collected && result.columns) {
          types = result.columns.map((c) => c.type);
          collected = new ResultRows(result.columns.map((c) => ({ name: c.name, type: c.type })), options);
        }
        for (const values of result.data ?? []) {
          if (!collected!.wantsMore() || !collected!.add(values.map((value: unknown, i: number) => trinoJsonValue(value, types[i])))) {
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
      if (signal.aborted) {
        const reason: unknown = signal.reason;
        throw reason instanceof QueryTimeout ? queryErrors.timeout(reason.timeoutMs) : reason;
      }
      throw error;
    } finally {
      dispose();
      // A query we stopped reading (timeout, cancel, row limit) keeps running at Trino unless cancelled.
      const queryId = queryIdOf(iterator);
      if (queryId && !finished) await this.trino.cancel(queryId).catch(() => undefined);
    }
  }

  async close(): Promise<void> {}
}
