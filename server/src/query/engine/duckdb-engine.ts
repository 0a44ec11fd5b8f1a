import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { DuckDBConnection } from '@duckdb/node-api';
import { HttpError, httpError } from '../../core/errors.js';
import {
  QueryRejected,
  SourceUnavailableError,
  type UnknownFunction,
  type UnknownTable,
} from '../../core/domain-errors.js';
import { catalogError } from './catalog-errors.js';
import { duckdbErrorPosition } from './error-position.js';
import type { ColumnInfo, ScanResult, TableInfo } from '../connectors/types.js';
import type { SourceCatalog } from '../source-catalog.js';
import type { QueryLimits } from '../sources.js';
import { Deadline } from '../deadline.js';
import type { QueryEngine, QueryOutcome, RunOptions, ScanReport } from './query-engine.js';
import { readDuckDBResult, type ResultBounds } from './result-rows.js';
import { FreshInstances, type InstanceLane, type QueryInstance } from './fresh-instances.js';
import { ShortLaneInstances } from './short-lane-instances.js';
import { LowPriorityThreads } from './low-priority-threads.js';
import { resultFromWorkers } from './worker-execution.js';
import { Semaphore, threadShare } from '../semaphore.js';
import { planAggregatePushdown, type AggregatePushdown } from './aggregate-pushdown.js';
import { createTable, loadTable } from './table-loader.js';
import {
  analyseQuery,
  neededColumns,
  pushableFilters,
  readsNoTable,
  referenceKey,
  type TableReference,
} from './sql-analysis.js';
import { explainSql, type SqlParser } from './sql-parser.js';
import { makePrivateFolder } from '../../runtime/private-folders.js';
import { sqlIdent } from '../../core/sql-text.js';
import { countedSlot, observeQuery, queryMetrics } from '../../observability/metrics.js';
import { inSpan } from '../../observability/tracing.js';

interface PlannedTable extends TableReference {
  key: string;
  info: TableInfo;
}

/** A table whose source has answered: its scan's files are fetched, or its stream has a first batch or part. */
interface FetchedTable {
  t: PlannedTable;
  columns: ColumnInfo[];
  scan: ScanResult;
}

/**
 * Waits for a stream's first item (a row batch, or a part's SELECT: so the query takes its slot only once
 * the source answers) and returns the same stream, that item first; ending it ends the source's stream.
 */
async function primed<T>(items: AsyncIterable<T>): Promise<AsyncIterable<T>> {
  const source = items[Symbol.asyncIterator]();
  let first: IteratorResult<T> | undefined = await source.next();
  const iterator: AsyncIterator<T> = {
    next: () => {
      const result = first ?? source.next();
      first = undefined;
      return Promise.resolve(result);
    },
    return: async (value?: unknown) => (await source.return?.(value)) ?? { done: true, value: undefined },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}

/** The scan with its stream (if it has one) primed: see {@link primed}. */
async function primedScan(scan: ScanResult): Promise<ScanResult> {
  const { output } = scan;
  if (output.kind === 'rows') return { ...scan, output: { kind: 'rows', batches: await primed(output.batches) } };
  if (output.kind === 'duckdb-parts')
    return { ...scan, output: { kind: 'duckdb-parts', parts: await primed(output.parts) } };
  return scan;
}

/** Ends the streams of fetched tables that were not read to the end, so their connections go back. */
async function endStreams(fetched: readonly FetchedTable[]): Promise<void> {
  for (const { scan } of fetched) {
    const { output } = scan;
    const stream = output.kind === 'rows' ? output.batches : output.kind === 'duckdb-parts' ? output.parts : undefined;
    await stream?.[Symbol.asyncIterator]().return?.();
  }
}

/**
 * The settings a query's connection gets once its tables are loaded: `threads` for it, and then the sandbox.
 * The optimizer folds a constant expression (`range(0, 60000000)`, `repeat('x', 10^9)`) into one value built
 * outside DuckDB's memory limit and deaf to interrupt() (60 million items: 4.5 GB and over a minute); unfolded,
 * the same value is built by the query, within memory_limit and between interrupt checks. From the external
 * access on, the user's SQL can reach nothing but the loaded tables.
 */
function sandboxSettings(threads: number): string {
  return (
    `SET threads = ${threads}; SET disabled_optimizers = 'expression_rewriter'; ` +
    'SET enable_external_access = false; SET lock_configuration = true'
  );
}

/**
 * The threads of large queries' instances, lowered in priority for the whole process (whether renicing is allowed
 * is the process's property, so the refusal is reported once, as a process warning).
 */
const largeQueryThreads = new LowPriorityThreads((error) =>
  process.emitWarning(
    `Large queries' threads keep their normal priority (renicing refused: ${error.message}); ` +
      'short queries may wait behind them for a core',
    { code: 'ADAPTIVE_QUERY_THREAD_PRIORITY' },
  ),
);

/**
 * Maps a DuckDB error of the user's SQL to a domain error the client sees as its own: never a 500 for user input;
 * with the place DuckDB names in `sql`, the text it ran, when that is the user's own.
 */
async function userSqlError(
  error: unknown,
  memoryLimit: string,
  catalog: SourceCatalog,
  deadline: Deadline,
  sql: string | undefined,
): Promise<QueryRejected | UnknownTable | UnknownFunction> {
  const message = (error as Error).message ?? String(error);
  if (/^Catalog Error/.test(message)) return catalogError(message, catalog, deadline);
  // DuckDB's advice after the first line (SET threads, SET memory_limit) is not open to a query here.
  if (/^Out of Memory Error/.test(message))
    return new QueryRejected(`The query needs more memory than its limit of ${memoryLimit}: ${message.split('\n')[0]}`);
  return new QueryRejected(message, sql === undefined ? undefined : duckdbErrorPosition(message, sql));
}

/**
 * The embedded engine (DESIGN.md §6). Each query gets a fresh in-memory DuckDB instance, so queries
 * share no state: every referenced source is attached as an empty catalog, each referenced table is
 * filled by its connector with only the needed columns and (where filters push down) rows, then file
 * and network access are switched off, the configuration is locked, and the user's SQL runs unchanged.
 */
export class DuckDBEngine implements QueryEngine {
  private readonly slots: Semaphore;
  /** The short lane: queries that read no table do not queue behind large ones (`limits.short_lane`). */
  private readonly shortSlots: Semaphore;
  private readonly instances: FreshInstances;
  /** The short lane's instances, apart: kept between its queries (see {@link ShortLaneInstances}). */
  private readonly shortInstances: ShortLaneInstances;

  /** `lowered` lowers the priority of large queries' worker threads (a parameter for tests). */
  constructor(
    private readonly catalog: SourceCatalog,
    private readonly parser: SqlParser,
    private readonly limits: QueryLimits,
    private readonly lowered: LowPriorityThreads = largeQueryThreads,
  ) {
    this.slots = new Semaphore(limits.maxConcurrent);
    this.shortSlots = new Semaphore(limits.shortLane);
    const settings = {
      memory_limit: limits.memoryLimit,
      threads: String(limits.threads),
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      allow_community_extensions: 'false',
    };
    this.instances = new FreshInstances(settings);
    // A short query loads nothing, so its instance can be sandboxed before it comes (one thread: with no
    // table there is nothing to share out), which saves it six calls into DuckDB on its way. Created with one
    // thread it has no worker threads: the short query computes on the calling thread, at normal priority.
    this.shortInstances = new ShortLaneInstances(
      { ...settings, threads: '1' },
      `SET GLOBAL TimeZone = 'UTC'; ${sandboxSettings(1)}`,
    );
  }

  async validate(sql: string): Promise<void> {
    if (sql.length > this.limits.maxQueryLength)
      throw httpError('QUERY_TOO_LARGE', [sql.length, this.limits.maxQueryLength]);
    await this.parser.parseQuery(sql);
  }

  async run(sql: string, options: RunOptions): Promise<QueryOutcome> {
    const started = performance.now();
    if (sql.length > this.limits.maxQueryLength)
      throw httpError('QUERY_TOO_LARGE', [sql.length, this.limits.maxQueryLength]);
    const { ast, explain } = await this.parser.parseQuery(sql);
    const shape = analyseQuery(ast);

    const deadline = Deadline.after(options.timeoutMs, options.signal);
    try {
      // The query answers when its deadline passes even if a source never does (the connectors destroy
      // what they wait on; whatever is still unwinding then finishes on its own).
      const bounds = { maxRows: options.maxRows, maxBytes: options.maxBytes };
      return await observeQuery(options.kind ?? 'sql', () =>
        // An EXPLAIN shows the plan of the query as written: no aggregation is pushed to a source.
        deadline.bound(
          explain
            ? this.runWithin(explainSql(explain), undefined, shape, bounds, deadline, started)
            : this.runWithin(sql, ast, shape, bounds, deadline, started),
        ),
      );
    } catch (error) {
      // An abort answers with its reason: a QueryTimeout, or the caller's cancellation.
      throw deadline.signal.aborted ? deadline.signal.reason : error;
    } finally {
      deadline.dispose();
    }
  }

  /**
   * Plans and fetches without a slot, then loads and runs with one: `max_concurrent` bounds the queries
   * working in DuckDB, and waiting for a source is not such work, so a source that hangs cannot starve
   * the queries on other sources (or `SELECT 1`). Sources bound their own connections (per-source pools).
   */
  private async runWithin(
    sql: string,
    /** The tree of `sql`, to plan an aggregation pushdown; none, none is pushed. */
    ast: unknown,
    shape: ReturnType<typeof analyseQuery>,
    bounds: ResultBounds,
    deadline: Deadline,
    started: number,
  ): Promise<QueryOutcome> {
    const tables = await inSpan('query plan', () => this.plan(shape.references, deadline));
    const pushdown = ast === undefined ? undefined : this.aggregatePushdown(ast, shape, tables);
    // The fetched files have a folder of their own: the DuckDB instance (and its spill folder) is taken
    // only with the slot, so queries waiting on a hung source cost no instance.
    const fetchDir = makePrivateFolder('fetch');
    let fetched: FetchedTable[] = [];
    try {
      const begun = performance.now();
      fetched = await this.fetch(shape, tables, pushdown, deadline, fetchDir);
      // An EXPLAIN comes without its tree (`ast` undefined): it plans the tables it names, so never the short lane.
      const short = this.limits.shortLane > 0 && ast !== undefined && readsNoTable(ast);
      const [lane, instances]: [Semaphore, InstanceLane] = short
        ? [this.shortSlots, this.shortInstances]
        : [this.slots, this.instances];
      const release = await countedSlot(() => lane.acquire(deadline.signal));
      // The slot is free again when the query answers, not when what it waited on has unwound.
      deadline.signal.addEventListener('abort', release, { once: true });
      const fresh = await instances.take();
      let endedNormally = false;
      try {
        const execute = () => this.execute(sql, fresh, fetched, pushdown, bounds, deadline, started, begun);
        const outcome = await inSpan('query engine', execute);
        endedNormally = !deadline.signal.aborted;
        return outcome;
      } finally {
        void instances.release(fresh, endedNormally);
        deadline.signal.removeEventListener('abort', release);
        release();
      }
    } finally {
      // A query that stopped before loading every table leaves streams that hold a connection.
      await endStreams(fetched);
      fs.rmSync(fetchDir, { recursive: true, force: true });
    }
  }

  /** Resolves every `<source>.<table>` reference: {@link UnknownTable} for an unknown source or table. */
  private async plan(references: readonly TableReference[], deadline: Deadline): Promise<PlannedTable[]> {
    if (references.length === 0) return [];
    return Promise.all(
      references.map(async (ref) => {
        const { source, info } = await this.catalog.describe(ref, deadline);
        return { source: source.definition.name, table: info.name, key: referenceKey(ref.source, ref.table), info };
      }),
    );
  }

  /** An aggregation one source can compute for the query, when its connector offers that and it is safe. */
  private aggregatePushdown(
    ast: unknown,
    shape: ReturnType<typeof analyseQuery>,
    tables: PlannedTable[],
  ): AggregatePushdown | undefined {
    const infos = new Map(tables.map((t) => [t.key, t.info]));
    const pushable = (key: string) => {
      const source = tables.find((t) => t.key === key)?.source;
      return Boolean(source && this.catalog.get(source)?.connector.pushesAggregation);
    };
    return planAggregatePushdown(ast, shape, infos, pushable, this.parser.functions);
  }

  /**
   * The SQL that runs: the user's own, or with an aggregation pushed down, its rewrite over the partial
   * table. The user's SQL is prepared first (against the empty table of the same shape) so its errors
   * and result column names are its own.
   */
  private async finalSql(
    connection: DuckDBConnection,
    sql: string,
    pushdown: AggregatePushdown | undefined,
    deadline: Deadline,
  ): Promise<string> {
    if (!pushdown) return sql;
    let names: string[];
    try {
      const prepared = await connection.prepare(sql);
      names = Array.from({ length: prepared.columnCount }, (_, i) => prepared.columnName(i));
      prepared.destroySync();
    } catch (error) {
      throw await userSqlError(error, this.limits.memoryLimit, this.catalog, deadline, sql);
    }
    const serialized = JSON.stringify(
      { error: false, statements: [{ node: pushdown.rewrite(names), named_param_map: [] }] },
      (key, value: unknown) => (key === 'query_location' ? undefined : value),
    );
    const reader = await connection.runAndReadAll('SELECT json_deserialize_sql(?::JSON)', [serialized]);
    return String(reader.getRows()[0][0]);
  }

  private async execute(
    sql: string,
    fresh: QueryInstance,
    fetched: FetchedTable[],
    pushdown: AggregatePushdown | undefined,
    bounds: ResultBounds,
    deadline: Deadline,
    started: number,
    begun: number,
  ): Promise<QueryOutcome> {
    const { signal } = deadline;
    let connection: DuckDBConnection | undefined;
    // DuckDB forgets an interrupt that arrives while a statement is prepared (a query starts with its flag
    // cleared), so once the query is stopped the interrupt is repeated until the query ends.
    let repeating: NodeJS.Timeout | undefined;
    const interrupt = () => {
      connection?.interrupt();
      repeating = setInterval(() => connection?.interrupt(), 20);
    };
    signal.addEventListener('abort', interrupt, { once: true });
    try {
      deadline.throwIfExpired();
      // A prepared connection (the short lane's) is sandboxed already, and there is nothing to load.
      connection = fresh.connection;
      let scans: ScanReport[] = [];
      if (!connection) {
        const largeConnection = await fresh.instance.connect();
        connection = largeConnection;
        await connection.run("SET TimeZone = 'UTC'");
        scans = await this.load(connection, fetched, pushdown, signal, begun);
        // Two threads on a query make a second chunk nobody may read, and on two cores several queries' threads
        // only take turns: a query starting beside others gets its share of `limits.threads` (at least one).
        // All of them are DuckDB's workers (no external thread), started here at lowered priority, so the query
        // computes on none of libuv's pool threads, where short queries' steps run. The workers that helped load
        // (normal priority: lowered, a load on a busy machine took 1.6x as long) are stopped first (one thread).
        const threads = threadShare(this.limits.threads, this.slots.taken);
        // Lowered only when the query read no source: a source's rows still flow through the final statement's
        // workers, and lowered they lost to the source's own processes (the join bench: 2,537 ms against 664 ms).
        const ownWorkers = () =>
          largeConnection.run(`SET threads = 1; SET external_threads = 0; ${sandboxSettings(threads)}`);
        await (fetched.length === 0 ? this.lowered.around(ownWorkers) : ownWorkers());
      }
      if (signal.aborted) throw signal.reason;
      // The source may have answered the offered aggregation with plain rows.
      const runSql = await this.finalSql(
        connection,
        sql,
        scans.some((s) => s.aggregation) ? pushdown : undefined,
        deadline,
      );
      try {
        const result = fresh.connection
          ? await connection.stream(runSql)
          : await resultFromWorkers(connection, runSql, signal);
        const elapsed = () => Math.round(performance.now() - started);
        const answer = await readDuckDBResult(result, bounds, elapsed, signal);
        return { ...answer, scans };
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (error instanceof HttpError) throw error;
        // A rewritten query's places are not the user's.
        const own = runSql === sql ? sql : undefined;
        throw await userSqlError(error, this.limits.memoryLimit, this.catalog, deadline, own);
      }
    } finally {
      signal.removeEventListener('abort', interrupt);
      clearInterval(repeating);
      connection?.closeSync();
    }
  }

  /**
   * Starts every table's scan at once and waits until each source has answered: files fetched, or the
   * first batch of a row stream. If one fails, the row streams of the others are ended (connectors
   * hold a connection from their first read).
   */
  private async fetch(
    shape: ReturnType<typeof analyseQuery>,
    tables: PlannedTable[],
    pushdown: AggregatePushdown | undefined,
    deadline: Deadline,
    workDir: string,
  ): Promise<FetchedTable[]> {
    const filters = pushableFilters(shape, new Map(tables.map((t) => [t.key, t.info])));
    const scans = await Promise.allSettled(
      tables.map((t) =>
        inSpan(
          'query source read',
          async () => {
            const columns = neededColumns(shape, t.info);
            const aggregation = pushdown?.key === t.key ? pushdown.aggregation : undefined;
            const scan = await this.catalog.get(t.source)!.connector.scan({
              table: t.info,
              columns,
              aggregation,
              filters: filters.get(t.key) ?? [],
              deadline,
              workDir,
            });
            return { t, columns, scan: await primedScan(scan) };
          },
          { 'query.source': t.source },
        ),
      ),
    );
    // Counted by source: the one a failing read names is what an operator looks at.
    scans.forEach((s, i) => s.status === 'rejected' && queryMetrics.sourceErrors.inc({ source: tables[i].source }));
    const fetched = scans.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failure = scans.find((s) => s.status === 'rejected');
    if (!failure) return fetched;
    await endStreams(fetched);
    throw (failure as PromiseRejectedResult).reason;
  }

  /**
   * Attaches each source and fills its referenced tables from their fetched scans, one by one. A table
   * whose source took the offered aggregation stays empty and its partial rows fill the partial table.
   */
  private async load(
    connection: DuckDBConnection,
    fetched: FetchedTable[],
    pushdown: AggregatePushdown | undefined,
    signal: AbortSignal,
    begun: number,
  ): Promise<ScanReport[]> {
    for (const source of new Set(fetched.map((f) => f.t.source)))
      await connection.run(`ATTACH ':memory:' AS ${sqlIdent(source)}`);
    const reports: ScanReport[] = [];
    for (const { t, columns, scan } of fetched) {
      await createTable(connection, t.source, t.info.name, columns);
      const partial = pushdown?.key === t.key && scan.aggregated ? pushdown : undefined;
      if (partial) await createTable(connection, t.source, t.info.name, partial.aggregation.columns, partial.schema);
      let rows: number;
      try {
        rows = partial
          ? await loadTable(
              connection,
              t.source,
              t.info.name,
              partial.aggregation.columns,
              scan.output,
              signal,
              partial.schema,
            )
          : await loadTable(connection, t.source, t.info.name, columns, scan.output, signal);
      } catch (error) {
        if (signal.aborted || error instanceof SourceUnavailableError) throw error;
        throw new SourceUnavailableError(
          t.source,
          `its table ${t.info.name} could not be loaded: ${(error as Error).message}`,
          'failed',
        );
      }
      const aggregation = partial ? { aggregation: partial.aggregation } : {};
      reports.push({
        source: t.source,
        table: t.info.name,
        columns: columns.map((c) => c.name),
        pushed: scan.pushed,
        ...aggregation,
        rows,
        ms: Math.round(performance.now() - begun),
      });
    }
    return reports;
  }

  async close(): Promise<void> {
    await Promise.all([this.instances.close(), this.shortInstances.close()]);
  }
}
