import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../core/logger.js';
import type { RefreshResult, LoadProblem, SkippedFile } from '../contract/index.js';
import { isSchemaFinding, LoadError, SchemaRegressionError, SkippedFileError } from './load-error.js';
import { mergedOpenApiJson } from './openapi-document.js';
import { RouteTable, type WorkspaceUnit } from './route-table.js';
import { RuntimeFaults } from './runtime-faults.js';
import { ServedDocument } from './served-document.js';
import { gatewayPrefix } from './model/mount.js';
import { productVersion } from '../core/version.js';
import { unloadedFiles, type FolderRule } from './unloaded-files.js';
import { recordReload } from '../observability/metrics.js';

/** Loads one kind of workspace file (specs or handlers) from one directory. */
export interface UnitLoader extends FolderRule {
  /** Loads one file; throws {@link LoadError} (or any error) when it cannot. */
  load(filePath: string): Promise<WorkspaceUnit>;
  /** The server is stopping: work still running after `withinMs` is cut off, so shutdown ends in time. */
  drain?(withinMs: number): void;
  /** Releases what the loader holds (worker processes) when the server stops. */
  close?(): Promise<void>;
}

export interface GatewayEvents {
  reload: [RefreshResult];
}

/** Files of one loader loaded at once: at most this many spec worker threads run side by side. */
export const loadConcurrency = 4;

async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  });
  await Promise.all(workers);
  return results;
}

function listFiles(dir: string, accepts: (name: string) => boolean): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => !entry.isDirectory() && accepts(entry.name))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * The adaptive gateway's state: the last good version of every workspace file and the route table
 * built from them. {@link reload} loads the files again, keeps the last good version of any file
 * that fails, and swaps in a new table; it never interrupts requests being served.
 */
export class Gateway extends EventEmitter<GatewayEvents> {
  private current = new RouteTable([]);
  private readonly units = new Map<string, WorkspaceUnit>();
  private readonly problems = new Map<string, LoadProblem>();
  private readonly skipped = new Map<string, SkippedFile & { kind: WorkspaceUnit['kind'] }>();
  private tail: Promise<unknown> = Promise.resolve();
  private queued: Promise<RefreshResult> | undefined;
  private firstLoad: Promise<RefreshResult> | undefined;
  private readonly documents = new WeakMap<RouteTable, Promise<ServedDocument>>();
  private readonly mountDocuments = new WeakMap<RouteTable, Map<string, Promise<ServedDocument>>>();
  private readonly loadTimes = new WeakMap<WorkspaceUnit, number>();
  /** Schema findings of saved spec versions refused for them, by unit key. */
  private readonly refused = new Map<string, string[]>();
  ready = false;

  /**
   * @param routePrefix where the route table is served: `/api/adaptive`, or `''` when specs are
   *   mocked at their own paths (`serve petstore.yaml`)
   */
  constructor(
    private readonly loaders: UnitLoader[],
    private readonly log: Logger,
    readonly routePrefix: string = gatewayPrefix,
    /** Faults of loaded code while it served (handlers stopped for time or memory). */
    readonly faults = new RuntimeFaults(),
  ) {
    super();
  }

  /** The route table requests are dispatched through. */
  get table(): RouteTable {
    return this.current;
  }

  /** The loaded files, specs then handlers, in name order. */
  get loadedUnits(): WorkspaceUnit[] {
    return [...this.units.values()];
  }

  /** File names loaded of one kind. */
  files(kind: WorkspaceUnit['kind']): string[] {
    return this.loadedUnits
      .filter((u) => u.kind === kind)
      .map((u) => u.file)
      .sort();
  }

  /**
   * The merged OpenAPI document of the current table, built once per table (a slice at a time, so requests
   * are served meanwhile; callers that come during the build share it) and compressed once per coding.
   */
  openApiDocument(): Promise<ServedDocument> {
    const table = this.current;
    return cachedDocument(this.documents, table, () =>
      mergedOpenApiJson(table, this.loadedUnits, productVersion, this.routePrefix),
    );
  }

  /**
   * The OpenAPI document of one mount of the current table, built once per table as the merged one is;
   * undefined when nothing is mounted there. A mount here is the first segment of the path (as the merged
   * document's default tags are): its specs, and the handler routes under it.
   */
  mountDocument(mount: string): Promise<ServedDocument> | undefined {
    const table = this.current;
    let documents = this.mountDocuments.get(table);
    if (documents === undefined) this.mountDocuments.set(table, (documents = new Map()));
    // Once built, the mount's document answers without looking through the units again.
    const built = documents.get(mount);
    if (built) return built;
    const units = this.loadedUnits.filter((u) => u.mount.split('/')[0] === mount);
    if (units.length === 0) return undefined;
    return cachedDocument(documents, mount, () => {
      const entries = table.entries.filter((e) => e.path === `/${mount}` || e.path.startsWith(`/${mount}/`));
      return mergedOpenApiJson({ entries, overridden: table.overridden }, units, productVersion, this.routePrefix);
    });
  }

  /** When `unit` was loaded (ms since the epoch): for a file that fails now, when its last good version came. */
  loadedAt(unit: WorkspaceUnit): number | undefined {
    return this.loadTimes.get(unit);
  }

  /** The mounts (first path segments) of the loaded files, in name order. */
  get mounts(): string[] {
    return [...new Set(this.loadedUnits.map((u) => u.mount.split('/')[0]))].sort();
  }

  /**
   * How many paths the merged OpenAPI document of the current table has, once it is built (built now if it is
   * not yet: a document that cannot be built throws). Counted from the table, so the health check that asks
   * does not parse megabytes of JSON on every call.
   */
  async openApiPathCount(): Promise<number> {
    const table = this.current;
    await this.openApiDocument();
    return new Set(table.entries.filter((e) => !e.undocumented).map((e) => e.path)).size;
  }

  /** Load problems by file, as of the last reload. */
  get loadProblems(): LoadProblem[] {
    return [...this.problems.values()];
  }

  /** Files left out as not of their folder's kind, or not named as one, as of the last reload. */
  get skippedFiles(): SkippedFile[] {
    return [...this.skipped.values()].map(({ file, reason }) => ({ file, reason }));
  }

  /** {@link skippedFiles} with the kind of folder each is in. */
  get skippedByKind(): Array<SkippedFile & { kind: WorkspaceUnit['kind'] }> {
    return [...this.skipped.values()];
  }

  /** Starts the first load once; later calls return the same promise. */
  start(): Promise<RefreshResult> {
    this.firstLoad ??= this.reload();
    return this.firstLoad;
  }

  /**
   * Reloads every spec and handler. Reloads run one at a time; calls made while one runs share the
   * single reload queued after it, so the last change is always picked up and never loaded twice.
   */
  reload(): Promise<RefreshResult> {
    if (this.queued) return this.queued;
    const next = this.tail.then(() => {
      this.queued = undefined;
      return this.reloadOnce();
    });
    this.queued = next;
    this.tail = next.catch(() => undefined);
    return next;
  }

  private async reloadOnce(): Promise<RefreshResult> {
    const started = Date.now();
    const seen = new Set<string>();
    // The route table is rebuilt only when a unit came, went or was replaced.
    let changed = false;
    for (const loader of this.loaders) {
      const files = listFiles(loader.dir, loader.accepts);
      const outcomes = await mapLimited(files, loadConcurrency, async (file) => {
        try {
          return { file, unit: await loader.load(path.join(loader.dir, file)) };
        } catch (error) {
          return { file, error: error as Error };
        }
      });
      for (const outcome of outcomes) {
        // The folder too: mock mode may read two folders that hold files of one name.
        const key = `${loader.kind}:${loader.dir}:${outcome.file}`;
        seen.add(key);
        if (outcome.error instanceof SkippedFileError) {
          if (this.units.has(key)) changed = true;
          this.skip(key, { kind: loader.kind, file: outcome.file, reason: outcome.error.reason });
        } else {
          const refusal = outcome.unit && this.schemaRegression(key, outcome.unit);
          if (outcome.unit && !refusal) changed = this.accept(key, outcome.unit) || changed;
          else this.refuse(key, outcome.file, refusal ?? outcome.error!);
          for (const problem of outcome.unit?.companionProblems ?? []) {
            const companionKey = `${loader.kind}:${loader.dir}:${problem.file}`;
            seen.add(companionKey);
            this.refuse(companionKey, problem.file, problem);
          }
        }
      }
    }
    for (const { kind, dir, file, reason } of unloadedFiles(this.loaders, this.units.values())) {
      const key = `${kind}:${dir}:${file}`;
      seen.add(key);
      this.skip(key, { kind, file, reason });
    }
    for (const key of [...this.units.keys(), ...this.problems.keys(), ...this.skipped.keys()]) {
      if (!seen.has(key)) {
        if (this.units.has(key)) changed = true;
        this.drop(key);
        this.problems.delete(key);
        this.skipped.delete(key);
        this.refused.delete(key);
      }
    }
    const table = changed || !this.ready ? new RouteTable(this.loadedUnits, this.current) : this.current;
    const conflicts = table.conflicts.map(({ entry, reason }) => ({ file: entry.file, message: reason }));
    for (const conflict of conflicts) this.log.warn({ file: conflict.file }, conflict.message);
    this.current = table;
    this.ready = true;
    const result = this.result([...this.loadProblems, ...conflicts], Date.now() - started);
    this.log.info(
      {
        specs: result.specs.length,
        handlers: result.handlers.length,
        errors: result.errors.length,
        ms: Date.now() - started,
      },
      result.message,
    );
    const failedKinds = [...this.problems.keys()].map((key) => key.slice(0, key.indexOf(':')));
    recordReload(Date.now() - started, { specs: result.specs.length, handlers: result.handlers.length }, failedKinds);
    this.emit('reload', result);
    return result;
  }

  /** Puts a loaded unit in place; true when it replaced another (or came new). */
  private accept(key: string, unit: WorkspaceUnit): boolean {
    this.skipped.delete(key);
    this.refused.delete(key);
    const previous = this.units.get(key);
    if (previous && previous !== unit) {
      previous.dispose?.();
      this.faults.clear(unit.file);
    }
    if (previous !== unit) this.loadTimes.set(unit, Date.now());
    this.units.set(key, unit);
    this.problems.delete(key);
    for (const warning of unit.warnings) this.log.warn({ file: unit.file }, warning);
    return previous !== unit;
  }

  /** Stops serving the unit of `key`, if any; its faults go with it (they describe code that no longer runs). */
  private drop(key: string): void {
    const unit = this.units.get(key);
    if (!unit) return;
    unit.dispose?.();
    this.units.delete(key);
    this.faults.clear(unit.file);
  }

  /** Records why a file cannot be loaded; its last good version, if any, keeps serving. */
  private refuse(key: string, file: string, error: Error): void {
    this.skipped.delete(key);
    if (!(error instanceof SchemaRegressionError)) this.refused.delete(key);
    const problem: LoadProblem = { file, message: error.message };
    if (error instanceof LoadError) {
      if (error.line !== undefined) problem.line = error.line;
      if (error.column !== undefined) problem.column = error.column;
    }
    this.problems.set(key, problem);
    const position = problem.line !== undefined ? `:${problem.line}:${problem.column ?? 1}` : '';
    const kept = this.units.has(key) ? '; the last good version keeps serving' : '';
    this.log.error(
      { file, line: problem.line, column: problem.column },
      `cannot load ${file}${position}: ${error.message}${kept}`,
    );
  }

  /**
   * A saved spec that breaks the OpenAPI schema where its loaded version did not is refused, so the last good
   * version keeps serving (a spec that broke a rule from the start still loads: many published ones do).
   */
  private schemaRegression(key: string, unit: WorkspaceUnit): SchemaRegressionError | undefined {
    const previous = this.units.get(key);
    if (unit.kind !== 'spec' || previous === undefined || previous === unit) return undefined;
    const findings = unit.warnings.filter(isSchemaFinding);
    if (findings.length === 0 || previous.warnings.some(isSchemaFinding)) return undefined;
    unit.dispose?.();
    this.refused.set(key, findings);
    return new SchemaRegressionError(unit.file, findings.length);
  }

  /**
   * The OpenAPI schema findings of a saved version that was refused for them (see {@link schemaRegression}),
   * each with its place, by file; the file's load problem sums them up.
   */
  refusedFindings(file: string): string[] | undefined {
    for (const [key, findings] of this.refused) if (key.endsWith(`:${file}`)) return findings;
    return undefined;
  }

  /** The server is stopping: handler calls still running after `withinMs` are answered 503 and stopped. */
  drain(withinMs: number): void {
    for (const loader of this.loaders) loader.drain?.(withinMs);
  }

  /** Records a skipped file: it no longer serves (a spec turned into something else) and is logged once per new
   * reason. */
  private skip(key: string, file: SkippedFile & { kind: WorkspaceUnit['kind'] }): void {
    this.drop(key);
    this.problems.delete(key);
    if (this.skipped.get(key)?.reason !== file.reason)
      this.log.warn({ file: file.file }, `${file.file} is not loaded: ${file.reason}`);
    this.skipped.set(key, file);
  }

  /** Waits for a running reload, then releases every loader's resources. */
  async close(): Promise<void> {
    await this.tail;
    await Promise.all(this.loaders.map((loader) => loader.close?.()));
  }

  private result(errors: LoadProblem[], elapsedMs: number): RefreshResult {
    const specs = this.files('spec');
    const handlers = this.files('handler');
    const loaded =
      `${specs.length} spec${specs.length === 1 ? '' : 's'} and ${handlers.length} ` +
      `handler${handlers.length === 1 ? '' : 's'}`;
    const failedFiles = new Set(errors.map((e) => e.file)).size;
    const status: RefreshResult['status'] =
      errors.length === 0 ? 'success' : specs.length + handlers.length > 0 ? 'partial' : 'failed';
    const skipped = this.skippedFiles;
    const skippedNote =
      skipped.length === 0
        ? ''
        : `; ${skipped.length} file${skipped.length === 1 ? '' : 's'} not loaded (listed in skipped)`;
    const message =
      errors.length === 0
        ? `Loaded ${loaded} in ${elapsedMs} ms${skippedNote}`
        : `Loaded ${loaded}; ${failedFiles} file${failedFiles === 1 ? '' : 's'} with errors${skippedNote}`;
    return { status, message, handlers, specs, errors, skipped };
  }
}

/** Where built documents are kept: by route table (a WeakMap), or by mount within one table (a Map). */
interface DocumentCache<K> {
  get(key: K): Promise<ServedDocument> | undefined;
  set(key: K, value: Promise<ServedDocument>): unknown;
  delete(key: K): unknown;
}

/**
 * The document `build` makes, kept in `cache` under `key` once built, and shared by the callers that come while
 * it is built; a build that fails is forgotten, so the next caller tries again.
 */
function cachedDocument<K>(cache: DocumentCache<K>, key: K, build: () => Promise<string>): Promise<ServedDocument> {
  let document = cache.get(key);
  if (document === undefined) {
    const building = build().then((json) => new ServedDocument(json));
    building.catch(() => {
      if (cache.get(key) === building) cache.delete(key);
    });
    cache.set(key, (document = building));
  }
  return document;
}
