import os from 'node:os';
import type { SettingsReader } from '../settings-reader.js';
import { DuckDBFileConnector, readDuckDBFileSettings } from './duckdb-file.js';
import { FolderConnector, readFolderSettings } from './local-folder.js';
import { MysqlConnector, readMysqlSettings } from './mysql.js';
import { NatsJetStreamConnector, readNatsSettings } from './nats-jetstream.js';
import { NdjsonLogConnector, readNdjsonSettings } from './ndjson-log.js';
import { PostgresConnector, readPostgresSettings } from './postgres.js';
import { readRedisSettings, RedisStreamsConnector } from './redis-streams.js';
import { readS3Settings, S3Connector } from './s3.js';
import type { Connector, SourceType } from './types.js';

/** One kind of connector: which sources it serves, its settings, and how to open it. */
export interface ConnectorKind {
  sourceType: SourceType;
  /** Settings keys of sources.yaml this connector reads (besides name, type, description, connector, trino). */
  settingKeys: readonly string[];
  /** Validates the settings and returns a factory for the connector. */
  read(reader: SettingsReader, baseDir: string): (source: string) => Connector;
}

/**
 * A connector kind whose settings `readSettings` checks once, when sources.yaml is read, and `open`
 * turns into a connector of one source.
 */
function connectorKind<Settings>(
  sourceType: SourceType,
  settingKeys: readonly string[],
  readSettings: (reader: SettingsReader, baseDir: string) => Settings,
  open: (source: string, settings: Settings) => Connector,
): ConnectorKind {
  return {
    sourceType,
    settingKeys,
    read: (reader, baseDir) => {
      const settings = readSettings(reader, baseDir);
      return (source) => open(source, settings);
    },
  };
}

const mysqlKind = connectorKind(
  'relational',
  ['url', 'tables'],
  readMysqlSettings,
  (source, s) => new MysqlConnector(source, s),
);

/** Every connector, by the `connector` value of sources.yaml. */
export const connectorKinds: Record<string, ConnectorKind> = {
  postgres: connectorKind(
    'relational',
    ['url', 'schema', 'tables', 'aggregation_pushdown'],
    readPostgresSettings,
    (source, s) => new PostgresConnector(source, s),
  ),
  mysql: mysqlKind,
  mariadb: mysqlKind,
  duckdb: connectorKind(
    'relational',
    ['path', 'schema'],
    readDuckDBFileSettings,
    (source, s) => new DuckDBFileConnector(source, s),
  ),
  redis: connectorKind(
    'streaming',
    ['url', 'tables'],
    readRedisSettings,
    (source, s) => new RedisStreamsConnector(source, s),
  ),
  nats: connectorKind(
    'streaming',
    ['servers', 'tables'],
    readNatsSettings,
    (source, s) => new NatsJetStreamConnector(source, s),
  ),
  ndjson: connectorKind('streaming', ['tables'], readNdjsonSettings, (source, s) => new NdjsonLogConnector(source, s)),
  folder: connectorKind('object-storage', ['path'], readFolderSettings, (source, s) => new FolderConnector(source, s)),
  s3: connectorKind(
    'object-storage',
    ['bucket', 'prefix', 'endpoint', 'region', 'access_key_id', 'secret_access_key', 'force_path_style'],
    readS3Settings,
    (source, s) => new S3Connector(source, s, os.tmpdir()),
  ),
};
