import type { Deadline } from '../deadline.js';
import { documentedType, TrinoConnection } from '../engine/trino-protocol.js';
import type { TrinoSettings } from '../trino-settings.js';
import { findTable, sourceFailure, tablesOfColumns, type Connector, type ScanResult, type TableInfo } from './types.js';

/** Where a source lives at Trino. */
export interface TrinoLocation {
  catalog: string;
  schema: string;
}

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * A source as Trino sees it, whatever its connector (`engine: trino`): tables and columns come from the
 * catalog's `information_schema`, so the server needs no access of its own to the database, bucket or
 * stream behind it, and a Trino-only catalog (kafka, iceberg, hive) is a source like any other. Queries
 * never scan through it: the Trino engine sends the whole statement to Trino.
 */
export class TrinoCatalogConnector implements Connector {
  private readonly connection: TrinoConnection;

  constructor(
    private readonly source: string,
    private readonly location: TrinoLocation,
    settings: TrinoSettings,
  ) {
    this.connection = new TrinoConnection(settings);
  }

  private async tables(deadline: Deadline, only?: string): Promise<TableInfo[]> {
    const { catalog, schema } = this.location;
    const sql =
      `SELECT table_name, column_name, data_type FROM "${catalog}".information_schema.columns ` +
      `WHERE table_schema = ${literal(schema)}${only ? ` AND table_name = ${literal(only.toLowerCase())}` : ''} ` +
      'ORDER BY table_name, ordinal_position';
    try {
      const rows = await deadline.bound(this.connection.rows(sql, deadline.signal));
      return tablesOfColumns(
        rows.map(([table, column, type]) => ({
          table: String(table),
          column: { name: String(column), type: documentedType(String(type)) },
        })),
      );
    } catch (error) {
      throw sourceFailure(this.source, error, deadline);
    }
  }

  listTables(deadline: Deadline): Promise<TableInfo[]> {
    return this.tables(deadline);
  }

  async describeTable(name: string, deadline: Deadline): Promise<TableInfo | undefined> {
    return findTable(await this.tables(deadline, name), name);
  }

  scan(): Promise<ScanResult> {
    return Promise.reject(
      new Error(`source "${this.source}" is read by Trino: the Trino engine sends it whole queries`),
    );
  }

  async check(deadline: Deadline): Promise<Record<string, unknown>> {
    return { ...this.location, tables: (await this.tables(deadline)).length };
  }

  async close(): Promise<void> {
    this.connection.close();
  }
}
