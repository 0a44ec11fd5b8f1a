import { DuckDBEngine } from './engine/duckdb-engine.js';
import type { QueryEngine, QueryOutcome } from './engine/query-engine.js';
import { SqlParser } from './engine/sql-parser.js';
import { TrinoEngine } from './engine/trino-engine.js';
import { JobRunner, type JobLog } from './jobs/job-runner.js';
import { JobStore } from './jobs/job-store.js';
import { SourceCatalog } from './source-catalog.js';
import type { QuerySetup } from './sources.js';

/** The federated query service: sources, the configured engine and the async job pool. */
export class QueryService {
  private constructor(
    readonly setup: QuerySetup,
    readonly catalog: SourceCatalog,
    readonly engine: QueryEngine,
    readonly jobs: JobRunner,
    private readonly parser: SqlParser,
  ) {}

  /** Opens the sources of `setup`, the engine it names, and the job store in `dataDir`. */
  static async create(setup: QuerySetup, dataDir: string, log: JobLog): Promise<QueryService> {
    const catalog = new SourceCatalog(setup.sources);
    const parser = await SqlParser.create();
    const engine: QueryEngine =
      setup.engine === 'trino' ? new TrinoEngine(catalog, parser, setup.trino!, setup.limits) : new DuckDBEngine(catalog, parser, setup.limits);
    const jobs = new JobRunner(new JobStore(dataDir), engine, setup.async, log);
    jobs.start();
    return new QueryService(setup, catalog, engine, jobs, parser);
  }

  /** Runs one synchronous query (SQL, or SPARQL and natural language translated to it) under the `limits` of sources.yaml. */
  sql(query: string): Promise<QueryOutcome> {
    const { maxRows, timeoutMs, maxResultBytes } = this.setup.limits;
    return this.engine.run(query, { maxRows, timeoutMs, maxBytes: maxResultBytes });
  }

  async close(): Promise<void> {
    this.jobs.close();
    await this.engine.close();
    await this.catalog.close();
    this.parser.close();
  }
}
