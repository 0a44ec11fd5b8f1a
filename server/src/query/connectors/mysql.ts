import { SourceUnavailableError } from '../../core/domain-errors.js';
import mysql from 'mysql2';
import type { Deadline } from '../deadline.js';
import type { SettingsReader } from '../settings-reader.js';
import { ConnectionPool } from './connection-pool.js';
import { filtersToSql, portableFilters } from './filters.js';
import {
  findTable,
  sourceFailure,
  tablesOfColumns,
  type Connector,
  type FilterValue,
  type ScanRequest,
  type ScanResult,
  type TableInfo,
} from './types.js';
import { sqlIdent } from '../../core/sql-text.js';

export interface MysqlSettings {
  url: string;
  tables?: string[];
}

/** Reads the settings of a `mysql` (or `mariadb`) source. */
export function readMysqlSettings(reader: SettingsReader): MysqlSettings {
  const url = reader.string('url');
  if (!/^(mysql|mariadb):\/\/[^/]+\/[^/?]+/.test(url))
    reader.fail('url', '"url" must be a mysql://user:password@host:port/database URL');
  return { url: url.replace(/^mariadb:/, 'mysql:'), tables: reader.stringList('tables') };
}

/** DuckDB type of a MySQL/MariaDB column from `information_schema.columns`. */
export function duckdbTypeOfMysql(dataType: string, columnType: string): string {
  const unsigned = /unsigned/i.test(columnType);
  switch (dataType.toLowerCase()) {
    case 'tinyint':
      return unsigned ? 'SMALLINT' : 'TINYINT';
    case 'smallint':
      return unsigned ? 'INTEGER' : 'SMALLINT';
    case 'mediumint':
    case 'year':
      return 'INTEGER';
    case 'int':
      return unsigned ? 'BIGINT' : 'INTEGER';
    case 'bigint':
      return unsigned ? 'UBIGINT' : 'BIGINT';
    case 'decimal': {
      const match = /decimal\((\d+),(\d+)\)/i.exec(columnType);
      return match && Number(match[1]) <= 38 ? `DECIMAL(${match[1]},${match[2]})` : 'DOUBLE';
    }
    case 'float':
      return 'FLOAT';
    case 'double':
      return 'DOUBLE';
    case 'date':
      return 'DATE';
    case 'datetime':
    case 'timestamp':
      return 'TIMESTAMP';
    case 'json':
      return 'JSON';
    default:
      return 'VARCHAR';
  }
}

const batchSize = 2048;

/**
 * MySQL and MariaDB through `mysql2`. Scans stream `SELECT <columns> FROM <table> WHERE <filters>` with
 * bound parameters and hand rows over in batches; decimals, 64-bit integers and datetimes arrive as
 * strings, so no precision is lost on the way.
 */
export class MysqlConnector implements Connector {
  private readonly pool: ConnectionPool<mysql.Connection>;
  private readonly database: string;

  constructor(
    private readonly source: string,
    private readonly settings: MysqlSettings,
  ) {
    this.database = decodeURIComponent(new URL(settings.url).pathname.slice(1));
    this.pool = new ConnectionPool(
      { open: (deadline, lost) => this.open(deadline, lost), destroy: (connection) => connection.destroy() },
      { max: 4, idleMs: 10_000 },
    );
  }

  /** A new connection whose handshake finishes within the deadline. */
  private async open(deadline: Deadline, lost: () => void): Promise<mysql.Connection> {
    const connection = mysql.createConnection({
      uri: this.settings.url,
      connectTimeout: deadline.connectTimeoutMs(),
      supportBigNumbers: true,
      bigNumberStrings: true,
      decimalNumbers: false,
      dateStrings: true,
      timezone: 'Z',
    });
    connection.on('error', lost);
    connection.on('end', lost);
    const ready = new Promise<void>((resolve, reject) =>
      connection.connect((error) => (error ? reject(error) : resolve())),
    );
    try {
      await deadline.bound(ready, () => connection.destroy());
      return connection;
    } catch (error) {
      connection.destroy();
      throw sourceFailure(this.source, error, deadline);
    }
  }

  private async tables(deadline: Deadline, only?: string): Promise<TableInfo[]> {
    const rows = await this.pool.use(
      deadline,
      (connection) =>
        new Promise<Record<string, string>[]>((resolve, reject) => {
          connection.query(
            `SELECT TABLE_NAME AS table_name, COLUMN_NAME AS column_name, DATA_TYPE AS data_type, COLUMN_TYPE ` +
              `AS column_type
             FROM information_schema.columns WHERE table_schema = ? AND (? IS NULL OR lower(TABLE_NAME) = lower(?))
             ORDER BY TABLE_NAME, ORDINAL_POSITION`,
            [this.database, only ?? null, only ?? null],
            (error, result) =>
              error
                ? reject(new SourceUnavailableError(this.source, error.message))
                : resolve(result as Record<string, string>[]),
          );
        }),
    );
    const columns = rows.map((row) => ({
      table: row.table_name,
      column: { name: row.column_name, type: duckdbTypeOfMysql(String(row.data_type), String(row.column_type)) },
    }));
    return tablesOfColumns(columns, this.settings.tables);
  }

  listTables(deadline: Deadline): Promise<TableInfo[]> {
    return this.tables(deadline);
  }

  async describeTable(name: string, deadline: Deadline): Promise<TableInfo | undefined> {
    return findTable(await this.tables(deadline, name), name);
  }

  async scan(request: ScanRequest): Promise<ScanResult> {
    const pushed = portableFilters(request.filters, request.table.columns);
    const params: FilterValue[] = [];
    const where = filtersToSql(
      pushed,
      (name: string) => sqlIdent(name, 'mysql'),
      (value) => {
        params.push(typeof value === 'bigint' ? value.toString() : value);
        return '?';
      },
    );
    const sql =
      `SELECT ${request.columns.map((c) => sqlIdent(c.name, 'mysql')).join(', ')} FROM ` +
      `${sqlIdent(request.table.name, 'mysql')}${where ? ` WHERE ${where}` : ''}`;
    const source = this.source;
    const { deadline } = request;
    const acquire = () => this.pool.acquire(deadline);
    // The connection is taken when rows are first read, so a scan that is never read holds none.
    async function* batches(): AsyncGenerator<unknown[][]> {
      const lease = await acquire();
      const stream = lease.connection
        .query({ sql, values: params, rowsAsArray: true })
        .stream({ highWaterMark: batchSize });
      // Every read waits on the socket: the deadline destroys both, which ends the loop below at once.
      const abort = () => {
        stream.destroy(new Error('the query was stopped'));
        lease.release(true);
      };
      deadline.signal.addEventListener('abort', abort, { once: true });
      if (deadline.expired) abort();
      // A connection given back before its result was read to the end still carries the rest of it.
      let complete = false;
      try {
        let batch: unknown[][] = [];
        for await (const row of stream) {
          batch.push(row as unknown[]);
          if (batch.length >= batchSize) {
            yield batch;
            batch = [];
          }
        }
        if (batch.length > 0) yield batch;
        complete = true;
      } catch (error) {
        throw sourceFailure(source, error, deadline);
      } finally {
        deadline.signal.removeEventListener('abort', abort);
        lease.release(!complete);
      }
    }
    return { output: { kind: 'rows', batches: batches() }, pushed };
  }

  async check(deadline: Deadline): Promise<Record<string, unknown>> {
    return { tables: (await this.tables(deadline)).length };
  }

  async close(): Promise<void> {
    this.pool.close();
  }
}
