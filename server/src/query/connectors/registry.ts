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

const mysqlKind: ConnectorKind = {
  sourceType: 'relational',
  settingKeys: ['url', 'tables'],
  read: (r) => {
    const s = readMysqlSettings(r);
    return (source) => new MysqlConnector(source, s);
  },
};

/** Every connector, by the `connector` value of sources.yaml. */
export const connectorKinds: Record<string, ConnectorKind> = {
  postgres: {
    sourceType: 'relational',
    settingKeys: ['url', 'schema', 'tables', 'aggregation_pushdown'],
    read: (r) => {
      const s = readPostgresSettings(r);
      return (source) => new PostgresConnector(source, s);
    },
  },
  mysql: mysqlKind,
  mariadb: mysqlKind,
  duckdb: {
    sourceType: 'relational',
    settingKeys: ['path', 'schema'],
    read: (r, baseDir) => {
      const s = readDuckDBFileSettings(r, baseDir);
      return (source) => new DuckDBFileConnector(source, s);
    },
  },
  redis: {
    sourceType: 'streaming',
    settingKeys: ['url', 'tables'],
    read: (r) => {
      const s = readRedisSettings(r);
      return (source) => new RedisStreamsConnector(source, s);
    },
  },
  nats: {
    sourceType: 'streaming',
    settingKeys: ['servers', 'tables'],
    read: (r) => {
      const s = readNatsSettings(r);
      return (source) => new NatsJetStreamConnector(source, s);
    },
  },
  ndjson: {
    sourceType: 'streaming',
    settingKeys: ['tables'],
    read: (r, baseDir) => {
      const s = readNdjsonSettings(r, baseDir);
      return (source) => new NdjsonLogConnector(source, s);
    },
  },
  folder: {
    sourceType: 'object-storage',
    settingKeys: ['path'],
    read: (r, baseDir) => {
      const s = readFolderSettings(r, baseDir);
      return (source) => new FolderConnector(source, s);
    },
  },
  s3: {
    sourceType: 'object-storage',
    settingKeys: ['bucket', 'prefix', 'endpoint', 'region', 'access_key_id', 'secret_access_key', 'force_path_style'],
    read: (r) => {
      const s = readS3Settings(r);
      return (source) => new S3Connector(source, s, os.tmpdir());
    },
  },
};
