import { AsyncLocalStorage } from 'node:async_hooks';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import type { WorkbenchDiagnostic } from '../contract/index.js';
import { ConfigFileError } from '../core/config-file.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { watchPaths } from '../core/watch-paths.js';
import type { QueryEngine } from './engine/query-engine.js';
import { SqlParser } from './engine/sql-parser.js';
import { JobRunner } from './jobs/job-runner.js';
import { openJobStore } from './jobs/open-job-store.js';
import {
  graphFaultProblems,
  mergeGraph,
  restartProblem,
  startOnlyAsyncKeys,
  type GraphFault,
} from './live-query-problems.js';
import { QueryService } from './query-service.js';
import { loadQueryWorkspace, type QueryWorkspace } from './query-workspace.js';
import type { AsyncSettings } from './sources.js';
import { querySourceHealth, type SourceHealth } from './source-health.js';

/** One configuration of the query folder: the service over its sources, and the files it was built from. */
export interface QueryGeneration {
  readonly queries: QueryService;
  readonly workspace: QueryWorkspace;
}

/** A generation with the count of the requests and jobs using it; a retired one closes when the count is 0. */
interface HeldGeneration extends QueryGeneration {
  leases: number;
  retired: boolean;
}

/** Options of {@link LiveQueryService.start}. */
export interface LiveQueryOptions {
  config: Pick<Config, 'querySources' | 'queryDir' | 'dataDir' | 'queryJobs'>;
  log: Logger;
  /** Watch the query folder's files and apply every change (the server's hot reload); otherwise read once. */
  watch: boolean;
  debounceMs?: number;
  /** Where `${VAR}` in sources.yaml come from (default: the process environment). */
  env?: Record<string, string | undefined>;
}

/**
 * The query service over the query folder as it is now: sources.yaml, ontology.ttl and mapping.ttl reload
 * like specs. A change builds a new configuration (sources, engine, knowledge graph, natural-language
 * settings) beside the running one; a good one is swapped in for new requests and jobs, while those already
 * running finish on the old one, which is closed (connection pools, DuckDB instances) once the last of them
 * ends. A sources.yaml that does not load keeps the last good configuration serving, a Turtle file that does
 * not load keeps its last good version; either way the fault, with its line, goes to the log and to
 * {@link problems}. The async job pool is built once, so a change of its `async` settings needs a restart,
 * which {@link problems} says naming the keys. Emits `change` after each reload, good or bad.
 */
export class LiveQueryService extends EventEmitter<{ change: [] }> {
  /** The job pool, shared by every configuration; it runs each job on the newest one (see {@link use}). */
  readonly jobs: JobRunner;
  private latest: HeldGeneration;
  private readonly held = new Set<HeldGeneration>();
  private readonly closing = new Set<Promise<void>>();
  private readonly scope = new AsyncLocalStorage<HeldGeneration>();
  private sourcesFault: ConfigFileError | undefined;
  private graphFaults: GraphFault[];
  /** The `async` settings the job pool was built with. */
  private readonly asyncAtStart: AsyncSettings;
  private restartKeys: string[] = [];
  private reloading: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;
  private closeWatcher: () => Promise<void> = async () => undefined;
  private closed = false;

  private constructor(
    private readonly options: LiveQueryOptions,
    private readonly parser: SqlParser,
    workspace: QueryWorkspace,
    jobs: (engine: QueryEngine) => JobRunner,
  ) {
    super();
    this.asyncAtStart = workspace.setup.async;
    this.graphFaults = mergeGraph(workspace, workspace).faults;
    // Jobs run on whichever configuration is newest when they start, and keep it open until they end.
    this.jobs = jobs({
      validate: (sql) => this.use((g) => g.queries.engine.validate(sql), this.latest),
      run: (sql, runOptions) => this.use((g) => g.queries.engine.run(sql, runOptions), this.latest),
      close: async () => undefined,
    });
    this.latest = this.hold(workspace);
  }

  /**
   * Reads the query folder (a bad sources.yaml throws its located ConfigFileError: the server does not
   * start), opens its sources and the job pool, and with `watch` starts following the files.
   */
  static async start(options: LiveQueryOptions): Promise<LiveQueryService> {
    const { config, log } = options;
    const workspace = loadQueryWorkspace(config, options.env);
    const parser = await SqlParser.create();
    const store = await openJobStore(config.queryJobs, config.dataDir, log);
    const live = new LiveQueryService(
      options,
      parser,
      workspace,
      (engine) => new JobRunner(store, engine, workspace.setup.async, config.queryJobs.leaseMs, log),
    );
    await live.jobs.start();
    if (options.watch) {
      const files = [config.querySources, ...live.graphFiles()];
      const watcher = watchPaths(
        files.map((file) => ({ path: file, type: 'file' as const })),
        () => void live.reload(),
        log,
        options.debounceMs,
      );
      live.closeWatcher = watcher.close;
    }
    return live;
  }

  /** The configuration of the request or job this runs in (see {@link use}); outside one, the newest. */
  current(): QueryGeneration {
    return this.scope.getStore() ?? this.latest;
  }

  /**
   * Runs `work` on one configuration, kept open until `work` ends: `generation` (by default the one this
   * already runs in, else the newest). Within `work`, {@link current} is that configuration.
   */
  async use<T>(work: (generation: QueryGeneration) => Promise<T>, generation?: QueryGeneration): Promise<T> {
    const held = (generation as HeldGeneration | undefined) ?? this.scope.getStore() ?? this.latest;
    held.leases += 1;
    try {
      return await this.scope.run(held, () => work(held));
    } finally {
      held.leases -= 1;
      if (held.retired && held.leases === 0) this.release(held);
    }
  }

  /** The health checks of the newest configuration's sources. */
  sourceHealth(): SourceHealth[] {
    return querySourceHealth(this.latest.queries.setup);
  }

  /** Why the files on disk are not all serving (each error at its line), and which changes need a restart. */
  problems(): WorkbenchDiagnostic[] {
    const diagnostics: WorkbenchDiagnostic[] = [];
    if (this.sourcesFault) {
      const { detail, line, column } = this.sourcesFault;
      const message = `${detail} (the last good ${path.basename(this.options.config.querySources)} is still in use)`;
      diagnostics.push({ path: this.workspacePath(this.sourcesFault.file), severity: 'error', message, line, column });
    }
    const graph = graphFaultProblems(this.graphFaults, (file) => this.workspacePath(file));
    const restart = restartProblem(this.workspacePath(this.options.config.querySources), this.restartKeys);
    return [...diagnostics, ...graph, ...restart];
  }

  /**
   * Reads the query folder again and swaps in the configuration it describes, or keeps the last good one
   * and records why. Reloads run one at a time; calls while one waits share it. Never rejects.
   */
  reload(): Promise<void> {
    if (!this.queued) {
      this.queued = this.reloading.then(() => {
        this.queued = undefined;
        return this.applyReload();
      });
      this.reloading = this.queued;
    }
    return this.queued;
  }

  private async applyReload(): Promise<void> {
    if (this.closed) return;
    const { config, log, env } = this.options;
    const sourcesName = path.basename(config.querySources);
    let next: QueryWorkspace;
    let graphFaults: GraphFault[];
    try {
      const read = loadQueryWorkspace(config, env);
      const merged = mergeGraph(read, this.latest.workspace);
      next = { ...read, ...merged.graph };
      graphFaults = merged.faults;
      this.swap(this.hold(next));
    } catch (error) {
      this.sourcesFault =
        error instanceof ConfigFileError ? error : new ConfigFileError(config.querySources, (error as Error).message);
      const { line, column } = this.sourcesFault;
      log.error(
        { file: sourcesName, line, column },
        `${this.sourcesFault.message}: the query folder was not reloaded, the last good configuration stays in use`,
      );
      this.emit('change');
      return;
    }
    this.sourcesFault = undefined;
    this.graphFaults = graphFaults;
    this.restartKeys = startOnlyAsyncKeys(this.asyncAtStart, next.setup.async);
    for (const { fault } of graphFaults) log.error({ line: fault.line, column: fault.column }, fault.message);
    if (this.restartKeys.length > 0)
      log.warn({ keys: this.restartKeys }, `${sourcesName}: the async job pool reads these only at start`);
    log.info({ sources: next.setup.sources.map((s) => s.name) }, 'query folder reloaded: new queries use it');
    this.emit('change');
  }

  /** Opens the service of `workspace` (its sources and engine) and keeps track of it. */
  private hold(workspace: QueryWorkspace): HeldGeneration {
    const queries = QueryService.sharing(workspace.setup, this.jobs, this.parser);
    const held: HeldGeneration = { queries, workspace, leases: 0, retired: false };
    this.held.add(held);
    return held;
  }

  /** Makes `next` the configuration of new work; the previous one closes once nothing uses it. */
  private swap(next: HeldGeneration): void {
    const previous = this.latest;
    this.latest = next;
    previous.retired = true;
    if (previous.leases === 0) this.release(previous);
  }

  /** Closes a configuration's sources and engine (in the background: nothing waits for them but {@link close}). */
  private release(held: HeldGeneration): void {
    if (!this.held.delete(held)) return;
    const closing = held.queries
      .close()
      .catch((error: unknown) => this.options.log.error({ err: error }, 'closing a replaced query configuration'))
      .finally(() => this.closing.delete(closing));
    this.closing.add(closing);
  }

  /** Configurations open now: the serving one and any replaced one that requests or jobs still use (a leak shows). */
  openGenerations(): number {
    return this.held.size;
  }

  private graphFiles(): string[] {
    return ['ontology.ttl', 'mapping.ttl'].map((name) => path.join(this.options.config.queryDir, name));
  }

  /** A file's name as the workbench shows it (`query/sources.yaml`). */
  private workspacePath(file: string): string {
    const relative = path.relative(this.options.config.queryDir, file);
    const inside = relative && !relative.startsWith('..') && !path.isAbsolute(relative);
    return `query/${(inside ? relative : path.basename(file)).split(path.sep).join('/')}`;
  }

  /**
   * Stops watching, stops the job pool (jobs running here are failed, as at any stop) and closes every
   * configuration, replaced ones that requests still use included: the server is going away.
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.closeWatcher();
    await this.reloading;
    await this.jobs.close();
    for (const held of [...this.held]) this.release(held);
    await Promise.all([...this.closing]);
    this.parser.close();
  }
}
