import path from 'node:path';
import { readConfigFile, type ConfigFile } from '../core/config-file.js';
import { ConfigError, parseSize } from '../core/config.js';
import { connectorKinds, type ConnectorKind } from './connectors/registry.js';
import { TrinoCatalogConnector } from './connectors/trino-catalog.js';
import type { Connector, SourceType } from './connectors/types.js';
import { SettingsReader } from './settings-reader.js';
import { readTrinoSettings, type TrinoSettings } from './trino-settings.js';

export type { TrinoSettings } from './trino-settings.js';

export const sourceTypes: readonly SourceType[] = ['relational', 'streaming', 'object-storage'];
export const engineNames = ['duckdb', 'trino'] as const;
export type EngineName = (typeof engineNames)[number];

/** Names DuckDB already uses for its own catalogs and schemas; a source may not take them. */
/**
 * Connectors whose data Trino cannot read through a catalog of the same kind: in Trino mode such a source
 * must name the catalog that holds its data (what to use instead).
 */
const withoutTrinoCounterpart: Record<string, string> = {
  folder: 'a Hive or Iceberg catalog over the files',
  duckdb: 'a Hive or Iceberg catalog over the data',
  ndjson: 'a Hive catalog over the log files, or a Kafka catalog over the stream',
  redis: 'a Kafka catalog (or the Redis connector of Trino) over the stream',
  nats: 'a Kafka catalog over the stream',
};

const reservedNames = new Set(['main', 'memory', 'system', 'temp', 'information_schema', 'pg_catalog']);

/** One source of sources.yaml. Its settings stay inside `connect()`: nothing here is ever served. */
export interface SourceDefinition {
  name: string;
  type: SourceType;
  description: string;
  connector: string;
  /** Where the Trino engine finds this source. */
  trino: { catalog: string; schema: string };
  /** Opens a connector with the source's settings. */
  connect(): Connector;
}

/** Bounds every query runs under (the `limits` section). */
export interface QueryLimits {
  maxRows: number;
  timeoutMs: number;
  memoryLimit: string;
  threads: number;
  maxQueryLength: number;
  /** Queries (synchronous and async together) running at once; more wait their turn. */
  maxConcurrent: number;
  /** Queries reading no table that run beside those, in a lane of their own (0: none); each has `memoryLimit` too. */
  shortLane: number;
  /** Largest size of a synchronous result's rows as JSON (SQL, SPARQL, natural language); beyond it the result is
   * truncated. */
  maxResultBytes: number;
  /** Most steps a SPARQL path of any length (`*`, `+`) follows; a path needing more is answered 400. */
  maxPathDepth: number;
}

/** The asynchronous job pool (the `async` section). */
export interface AsyncSettings {
  workers: number;
  maxQueued: number;
  retentionMs: number;
  maxRows: number;
  timeoutMs: number;
  /** Bytes one job's stored rows may take; beyond, the result is truncated. */
  maxResultBytes: number;
  /** Bytes every stored result may take together; beyond, the oldest finished jobs are removed first. */
  maxStoredBytes: number;
}

/** Everything sources.yaml configures. */
export interface QuerySetup {
  /** The file read, or undefined when it does not exist (no sources). */
  file?: string;
  engine: EngineName;
  limits: QueryLimits;
  async: AsyncSettings;
  trino?: TrinoSettings;
  sources: SourceDefinition[];
}

export const defaultLimits: QueryLimits = {
  maxRows: 10_000,
  timeoutMs: 30_000,
  memoryLimit: '512MB',
  threads: 2,
  maxQueryLength: 100_000,
  maxConcurrent: 4,
  shortLane: 1,
  maxResultBytes: 32 * 1024 * 1024,
  maxPathDepth: 64,
};
export const defaultAsync: AsyncSettings = {
  workers: 2,
  maxQueued: 100,
  retentionMs: 24 * 3_600_000,
  maxRows: 1_000_000,
  timeoutMs: 600_000,
  maxResultBytes: 64 * 1024 ** 2,
  maxStoredBytes: 1024 ** 3,
};

/** A size setting such as `64MB` (the units of `parseSize`), with its default. */
function readSize(reader: SettingsReader, key: string, fallback: number): number {
  if (!reader.has(key)) return fallback;
  const raw = reader.string(key);
  try {
    return parseSize(key, raw);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return reader.fail(key, `"${key}" must be a size such as 64MB, 512kb or a byte count`);
  }
}

function readLimits(reader: SettingsReader | undefined): QueryLimits {
  if (!reader) return { ...defaultLimits };
  reader.allowOnly([
    'max_rows',
    'timeout_ms',
    'memory_limit',
    'threads',
    'max_query_length',
    'max_concurrent',
    'short_lane',
    'max_result_bytes',
    'max_path_depth',
  ]);
  const memoryLimit = reader.string('memory_limit', defaultLimits.memoryLimit);
  if (!/^\d+(\.\d+)?\s*(KB|MB|GB|KiB|MiB|GiB)$/i.test(memoryLimit))
    reader.fail('memory_limit', '"memory_limit" must be a size such as 512MB or 2GB');
  return {
    maxRows: reader.integer('max_rows', 1, 10_000_000, defaultLimits.maxRows),
    timeoutMs: reader.integer('timeout_ms', 10, 3_600_000, defaultLimits.timeoutMs),
    memoryLimit,
    threads: reader.integer('threads', 1, 64, defaultLimits.threads),
    maxQueryLength: reader.integer('max_query_length', 10, 10_000_000, defaultLimits.maxQueryLength),
    maxConcurrent: reader.integer('max_concurrent', 1, 256, defaultLimits.maxConcurrent),
    shortLane: reader.integer('short_lane', 0, 16, defaultLimits.shortLane),
    // Below the longest string V8 holds (about 512 MB), which the response's JSON must fit in.
    maxResultBytes: reader.integer('max_result_bytes', 1024, 256 * 1024 * 1024, defaultLimits.maxResultBytes),
    maxPathDepth: reader.integer('max_path_depth', 1, 10_000, defaultLimits.maxPathDepth),
  };
}

function readAsync(reader: SettingsReader | undefined): AsyncSettings {
  if (!reader) return { ...defaultAsync };
  reader.allowOnly([
    'workers',
    'max_queued',
    'retention_hours',
    'max_rows',
    'timeout_ms',
    'max_result_size',
    'max_stored_size',
  ]);
  const maxResultBytes = readSize(reader, 'max_result_size', defaultAsync.maxResultBytes);
  const maxStoredBytes = readSize(reader, 'max_stored_size', defaultAsync.maxStoredBytes);
  if (maxResultBytes > maxStoredBytes)
    reader.fail('max_result_size', '"max_result_size" must not be larger than "max_stored_size"');
  return {
    workers: reader.integer('workers', 1, 64, defaultAsync.workers),
    maxQueued: reader.integer('max_queued', 0, 100_000, defaultAsync.maxQueued),
    retentionMs: reader.integer('retention_hours', 1, 24 * 365, defaultAsync.retentionMs / 3_600_000) * 3_600_000,
    maxRows: reader.integer('max_rows', 1, 100_000_000, defaultAsync.maxRows),
    timeoutMs: reader.integer('timeout_ms', 10, 24 * 3_600_000, defaultAsync.timeoutMs),
    maxResultBytes,
    maxStoredBytes,
  };
}

/**
 * How a source is opened: in Trino mode through Trino's catalog (listing and describe from its
 * information_schema, so the server needs only Trino); else through its own connector. A `connector: trino`
 * source (a Kafka, Iceberg or Hive catalog) has no connector of its own and exists in Trino mode only.
 */
function opener(
  reader: SettingsReader,
  baseDir: string,
  where: { name: string; connector: string; trino: { catalog: string; schema: string } },
  trinoSettings: TrinoSettings | undefined,
): () => Connector {
  if (trinoSettings) return () => new TrinoCatalogConnector(where.name, where.trino, trinoSettings);
  if (where.connector === 'trino')
    reader.fail('connector', `connector "trino" reads a Trino catalog: it needs engine "trino"`);
  const open = connectorKinds[where.connector].read(reader, baseDir);
  return () => open(where.name);
}

function readSource(
  reader: SettingsReader,
  baseDir: string,
  seen: Set<string>,
  trinoSettings: TrinoSettings | undefined,
): SourceDefinition {
  const name = reader.identifier('name');
  if (reservedNames.has(name.toLowerCase()))
    reader.fail('name', `"${name}" is a name DuckDB reserves; choose another source name`);
  if (seen.has(name.toLowerCase())) reader.fail('name', `a source named "${name}" is already defined`);
  seen.add(name.toLowerCase());
  const type = reader.oneOf('type', sourceTypes);
  const connector = reader.oneOf('connector', [...Object.keys(connectorKinds), 'trino']);
  const kind = connectorKinds[connector] as ConnectorKind | undefined;
  if (kind && kind.sourceType !== type)
    reader.fail('connector', `connector "${connector}" serves ${kind.sourceType} sources, not ${type}`);
  reader.allowOnly(['name', 'type', 'description', 'connector', 'trino', ...(kind?.settingKeys ?? [])]);
  let trino = { catalog: name, schema: 'default' };
  if (connector === 'trino' && !reader.has('trino'))
    reader.fail(
      'connector',
      `source "${name}" (connector trino) needs "trino: { catalog, schema }" naming its catalog`,
    );
  const insteadOf = withoutTrinoCounterpart[connector];
  if (trinoSettings && insteadOf && !reader.has('trino'))
    reader.fail(
      'connector',
      `source "${name}" (connector ${connector}) has no Trino counterpart: with engine "trino" give it ` +
        `"trino: { catalog, schema }" naming ${insteadOf}`,
    );
  if (reader.has('trino')) {
    const t = reader.child('trino');
    t.allowOnly(['catalog', 'schema']);
    trino = { catalog: t.identifier('catalog'), schema: t.identifier('schema', 'default') };
  }
  const connect = opener(reader, baseDir, { name, connector, trino }, trinoSettings);
  return { name, type, description: reader.string('description', ''), connector, trino, connect };
}

/** The root mapping of a parsed sources.yaml (an empty file is an empty mapping). */
export function sourcesReader(file: ConfigFile): SettingsReader {
  const root = file.value === null || file.value === undefined ? {} : file.value;
  return SettingsReader.of(file, [], root, 'sources.yaml');
}

/** The setup of a query folder without sources.yaml: no sources, default limits. */
export function emptyQuerySetup(): QuerySetup {
  return { engine: 'duckdb', limits: { ...defaultLimits }, async: { ...defaultAsync }, sources: [] };
}

/**
 * Reads an already parsed sources.yaml: everything but the `natural_language` section, which the NL
 * service reads (nlSettingsOf).
 */
export function querySetupOf(file: ConfigFile): QuerySetup {
  const reader = sourcesReader(file);
  reader.allowOnly(['engine', 'limits', 'async', 'trino', 'sources', 'natural_language']);
  const engine = reader.oneOf('engine', engineNames, 'duckdb');
  const baseDir = path.dirname(file.file);
  const seen = new Set<string>();
  const trino = reader.has('trino') ? readTrinoSettings(reader.child('trino'), baseDir) : undefined;
  if (engine === 'trino' && !trino) reader.fail('engine', 'engine "trino" needs a "trino" section with the server URL');
  const sources = reader
    .list('sources')
    .map((s) => readSource(s, baseDir, seen, engine === 'trino' ? trino : undefined));
  return {
    file: file.file,
    engine,
    limits: readLimits(reader.optionalChild('limits')),
    async: readAsync(reader.optionalChild('async')),
    trino,
    sources,
  };
}

/**
 * Loads `query/sources.yaml`: the engine, limits and sources. `${VAR}` and `${VAR:-default}` in values
 * come from `env`. A missing file means no sources; a bad one throws a ConfigFileError naming the line.
 * The server reads the file with the rest of the query folder (loadQueryWorkspace, at start and on each
 * reload); this is for tools and tests that need the setup alone.
 */
export function loadQuerySetup(file: string, env?: Record<string, string | undefined>): QuerySetup {
  const parsed = readConfigFile(file, env);
  return parsed ? querySetupOf(parsed) : emptyQuerySetup();
}
