import { Redis } from 'ioredis';
import type { Deadline } from '../deadline.js';
import type { SettingsReader } from '../settings-reader.js';
import { StreamConnector, type RowPredicate } from './stream-connector.js';
import { fieldValue, readStreamTable, type StreamTableSettings } from './stream-fields.js';
import { sourceFailure, type ColumnInfo, type ScanRequest } from './types.js';

interface StreamTable extends StreamTableSettings {
  key: string;
}

export interface RedisSettings {
  url: string;
  tables: StreamTable[];
}

const metadata: ColumnInfo[] = [
  { name: 'id', type: 'VARCHAR' },
  { name: 'timestamp', type: 'TIMESTAMP WITH TIME ZONE' },
];

/** Reads the settings of a `redis` source: one Redis stream key per table. */
export function readRedisSettings(reader: SettingsReader): RedisSettings {
  const url = reader.string('url');
  if (!/^rediss?:\/\//.test(url)) reader.fail('url', '"url" must be a redis:// URL');
  const tables = reader
    .list('tables')
    .map((t) => ({ ...readStreamTable(t, ['id', 'timestamp'], ['key']), key: t.string('key') }));
  if (tables.length === 0)
    reader.fail('tables', 'a redis source needs "tables", each with a stream "key" and "fields"');
  return { url, tables };
}

const pageSize = 1000;

/**
 * Redis Streams through `ioredis`: the retained entries of a stream as rows, with the entry `id` and its
 * `timestamp` (the id's millisecond part) before the configured fields. Reads with XRANGE in pages.
 */
export class RedisStreamsConnector extends StreamConnector<StreamTable> {
  constructor(
    source: string,
    private readonly settings: RedisSettings,
  ) {
    super(source, settings.tables, metadata);
  }

  /**
   * A client connected (ready check included) within the deadline, with `wait`, which bounds one of
   * its commands by the deadline and disconnects the client when it passes.
   */
  private async connect(deadline: Deadline): Promise<{ client: Redis; wait: <T>(command: Promise<T>) => Promise<T> }> {
    const client = new Redis(this.settings.url, {
      lazyConnect: true,
      connectTimeout: deadline.connectTimeoutMs(),
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      enableOfflineQueue: false,
    });
    client.on('error', () => undefined);
    const wait = <T>(command: Promise<T>) => deadline.bound(command, () => client.disconnect());
    try {
      await wait(client.connect());
    } catch (error) {
      client.disconnect();
      throw sourceFailure(this.source, error, deadline);
    }
    return { client, wait };
  }

  protected async *batches(
    table: StreamTable,
    request: ScanRequest,
    predicate: RowPredicate,
  ): AsyncGenerator<unknown[][]> {
    const { columns, deadline } = request;
    const { client, wait } = await this.connect(deadline);
    try {
      let start = '-';
      let read = 0;
      while (read < table.maxEvents) {
        const entries = await wait(
          client.xrange(table.key, start, '+', 'COUNT', Math.min(pageSize, table.maxEvents - read)),
        );
        if (entries.length === 0) break;
        read += entries.length;
        const batch: unknown[][] = [];
        for (const [id, flat] of entries) {
          const fields: Record<string, string> = {};
          for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]] = flat[i + 1];
          const row = columns.map((c) => {
            if (c.name === 'id') return id;
            if (c.name === 'timestamp') return new Date(Number(id.split('-')[0])).toISOString();
            return fieldValue(fields[c.name], c.type);
          });
          if (predicate.test(row)) batch.push(row);
        }
        if (batch.length > 0) yield batch;
        start = `(${entries[entries.length - 1][0]}`;
      }
    } catch (error) {
      throw sourceFailure(this.source, error, deadline);
    } finally {
      client.disconnect();
    }
  }

  async check(deadline: Deadline): Promise<Record<string, unknown>> {
    const { client, wait } = await this.connect(deadline);
    try {
      const lengths = await wait(Promise.all(this.settings.tables.map((t) => client.xlen(t.key))));
      return { streams: this.settings.tables.length, events: lengths.reduce((a, b) => a + b, 0) };
    } catch (error) {
      throw sourceFailure(this.source, error, deadline);
    } finally {
      client.disconnect();
    }
  }
}
