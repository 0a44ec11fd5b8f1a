import { withDeadline, type Deadline } from './deadline.js';
import { DuckDBEngine } from './engine/duckdb-engine.js';
import type { QueryEngine, QueryKind, QueryOutcome } from './engine/query-engine.js';
import { SqlParser } from './engine/sql-parser.js';
import { TrinoEngine } from './engine/trino-engine.js';
import { localJobStore, type JobStoreSettings } from '../core/config.js';
import { analyseQuery } from './engine/sql-analysis.js';
import { JobRunner, type JobLog } from './jobs/job-runner.js';
import { openJobStore } from './jobs/open-job-store.js';
import { QueryTimeout, SourceUnavailableError, UnknownTable } from '../core/domain-errors.js';
import type { TableInfo } from './connectors/types.js';
import { SourceCatalog, type LiveSource } from './source-catalog.js';
import type { QuerySetup } from './sources.js';

/** The engine `setup` names, over its sources (opened here), parsing with `parser`. */
function openEngine(setup: QuerySetup, parser: SqlParser): { catalog: SourceCatalog; engine: QueryEngine } {
  const catalog = new SourceCatalog(setup.sources);
  const engine: QueryEngine =
    setup.engine === 'trino'
      ? new TrinoEngine(catalog, parser, setup.trino!, setup.limits)
      : new DuckDBEngine(catalog, parser, setup.limits);
  return { catalog, engine };
}

/** The federated query service: sources, the configured engine and the async job pool. */
export class QueryService {
  private constructor(
    readonly setup: QuerySetup,
    readonly catalog: SourceCatalog,
    readonly engine: QueryEngine,
    readonly jobs: JobRunner,
    private readonly parser: SqlParser,
    /** Whether the job pool and parser are this service's own (closed with it) or shared with other services. */
    private readonly ownsShared: boolean,
  ) {}

  /** Opens the sources of `setup`, the engine it names, and the job store `jobSettings` name (by default the folder in
   * `dataDir`). */
  static async create(
    setup: QuerySetup,
    dataDir: string,
    log: JobLog,
    jobSettings: JobStoreSettings = localJobStore,
  ): Promise<QueryService> {
    const parser = await SqlParser.create();
    const { catalog, engine } = openEngine(setup, parser);
    const jobs = new JobRunner(
      await openJobStore(jobSettings, dataDir, log),
      engine,
      setup.async,
      jobSettings.leaseMs,
      log,
    );
    await jobs.start();
    return new QueryService(setup, catalog, engine, jobs, parser, true);
  }

  /**
   * Opens the sources of `setup` and the engine it names beside other services that share `jobs` and `parser` (the
   * configurations a reload of the query folder builds): {@link close} closes the sources and engine only.
   */
  static sharing(setup: QuerySetup, jobs: JobRunner, parser: SqlParser): QueryService {
    const { catalog, engine } = openEngine(setup, parser);
    return new QueryService(setup, catalog, engine, jobs, parser, false);
  }

  /** Runs one synchronous query (SQL, or SPARQL and natural language translated to it) under the `limits` of
   * sources.yaml; `signal` (the client leaving) interrupts it in the engine; `kind` labels its metrics. */
  sql(query: string, signal?: AbortSignal, kind: QueryKind = 'sql'): Promise<QueryOutcome> {
    const { maxRows, timeoutMs, maxResultBytes } = this.setup.limits;
    return this.engine.run(query, { maxRows, timeoutMs, maxBytes: maxResultBytes, signal, kind });
  }

  /** The syntax tree (DuckDB's JSON form) of one SELECT; throws QueryRejected as the engine would. */
  parse(sql: string): Promise<unknown> {
    return this.parser.parse(sql);
  }

  /**
   * Refuses a query that names an unknown source, or (embedded engine) a table its source does not
   * have, with the 404 the query itself would give; before an async job is queued for it. A source
   * that cannot answer within `timeoutMs` is not held against the query: the job will say.
   */
  async checkReferences(sql: string, timeoutMs: number): Promise<void> {
    const references = analyseQuery(await this.parser.parse(sql)).references;
    await withDeadline(timeoutMs, (deadline) => this.checkEach(references, deadline));
  }

  private async checkEach(
    references: ReturnType<typeof analyseQuery>['references'],
    deadline: Deadline,
  ): Promise<void> {
    for (const ref of references) {
      if (this.setup.engine !== 'duckdb') {
        this.catalog.require(ref);
        continue;
      }
      // Only a missing source or table refuses the query here; a source that fails to answer is the job's to report.
      await this.catalog.describe(ref, deadline).catch((error: unknown) => {
        if (error instanceof UnknownTable) throw error;
      });
    }
  }

  /**
   * The tables of `source`, bounded like a query: a source that hangs is a {@link QueryTimeout} naming it after
   * `limits.timeout_ms`, never later; any other failure a {@link SourceUnavailableError}.
   */
  async listTables(source: LiveSource): Promise<TableInfo[]> {
    const { timeoutMs } = this.setup.limits;
    const name = source.definition.name;
    try {
      return await withDeadline(timeoutMs, (deadline) => source.connector.listTables(deadline));
    } catch (error) {
      if (error instanceof QueryTimeout) throw new QueryTimeout(timeoutMs, name);
      throw new SourceUnavailableError(name, (error as Error).message, 'did not list its tables');
    }
  }

  /** Closes the engine and the sources' connections (and the job pool and parser when they are its own). */
  async close(): Promise<void> {
    if (this.ownsShared) await this.jobs.close();
    await this.engine.close();
    await this.catalog.close();
    if (this.ownsShared) this.parser.close();
  }
}
