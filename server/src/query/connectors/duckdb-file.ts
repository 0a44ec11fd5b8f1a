import { SourceUnavailableError } from '../../core/domain-errors.js';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { SettingsReader } from '../settings-reader.js';
import { duckdbLiteral, filtersToSql } from './filters.js';
import { withScratchDuckDB } from './scratch-duckdb.js';
import { findTable, type Connector, type ScanRequest, type ScanResult, type TableInfo } from './types.js';
import { sqlIdent, sqlLiteral } from '../../core/sql-text.js';

export interface DuckDBFileSettings {
  path: string;
  /** The schema whose tables the source offers. */
  schema: string;
}

/** Reads the settings of a `duckdb` source (a database file, path relative to sources.yaml, and a schema, `main` by
 * default). */
export function readDuckDBFileSettings(reader: SettingsReader, baseDir: string): DuckDBFileSettings {
  return { path: reader.path('path', baseDir), schema: reader.string('schema', 'main') };
}

/**
 * A DuckDB database file, opened read-only. A scan attaches it to the query's own instance under a
 * one-off name, copies the needed columns and rows, and detaches it before the user's SQL runs.
 */
export class DuckDBFileConnector implements Connector {
  /** The tables read last time, valid while the file keeps its size and modification time. */
  private cached?: { version: string; tables: TableInfo[] };

  constructor(
    private readonly source: string,
    private readonly settings: DuckDBFileSettings,
  ) {}

  private present(): void {
    if (!fs.existsSync(this.settings.path))
      throw new SourceUnavailableError(this.source, `database file ${this.settings.path} does not exist`);
  }

  async listTables(): Promise<TableInfo[]> {
    this.present();
    const stat = fs.statSync(this.settings.path);
    const version = `${stat.size}\t${stat.mtimeMs}`;
    if (this.cached?.version === version) return this.cached.tables;
    try {
      const tables = await withScratchDuckDB(async (connection) => {
        await connection.run(`ATTACH ${sqlLiteral(this.settings.path)} AS db (READ_ONLY)`);
        const reader = await connection.runAndReadAll(
          `SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE database_name = 'db' AND ` +
            `schema_name = ? ORDER BY table_name, column_index`,
          [this.settings.schema],
        );
        const tables = new Map<string, TableInfo>();
        for (const [table, column, type] of reader.getRows()) {
          const info = tables.get(String(table)) ?? { name: String(table), columns: [] };
          info.columns.push({ name: String(column), type: String(type) });
          tables.set(String(table), info);
        }
        return [...tables.values()];
      });
      this.cached = { version, tables };
      return tables;
    } catch (error) {
      throw new SourceUnavailableError(this.source, (error as Error).message);
    }
  }

  async describeTable(name: string): Promise<TableInfo | undefined> {
    return findTable(await this.listTables(), name);
  }

  async scan(request: ScanRequest): Promise<ScanResult> {
    this.present();
    const alias = sqlIdent(`load_${randomUUID().replace(/-/g, '')}`);
    const where = filtersToSql(request.filters, sqlIdent, duckdbLiteral);
    const select =
      `SELECT ${request.columns.map((c) => sqlIdent(c.name)).join(', ')} FROM ` +
      `${alias}.${sqlIdent(this.settings.schema)}.${sqlIdent(request.table.name)}${where ? ` WHERE ${where}` : ''}`;
    return {
      output: {
        kind: 'duckdb',
        setup: [`ATTACH ${sqlLiteral(this.settings.path)} AS ${alias} (READ_ONLY)`],
        select,
        teardown: [`DETACH ${alias}`],
      },
      pushed: [...request.filters],
    };
  }

  async check(): Promise<Record<string, unknown>> {
    return { tables: (await this.listTables()).length };
  }

  async close(): Promise<void> {}
}
