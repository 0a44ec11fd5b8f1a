import { SourceUnavailableError } from '../../core/domain-errors.js';
import fs from 'node:fs';
import path from 'node:path';
import type { SettingsReader } from '../settings-reader.js';
import { describeFiles, fileScan, groupFileTables, type FileTable } from './file-tables.js';
import { findTable, type Connector, type ScanRequest, type ScanResult, type TableInfo } from './types.js';

export interface FolderSettings {
  path: string;
}

/** Reads the settings of a `folder` source (object storage on the local disk). */
export function readFolderSettings(reader: SettingsReader, baseDir: string): FolderSettings {
  return { path: reader.path('path', baseDir) };
}

/** Data files under `root` (relative, `/`-separated), two levels deep, never leaving `root` through a link. */
function dataFiles(root: string): string[] {
  const realRoot = fs.realpathSync(root);
  const files: string[] = [];
  const walk = (dir: string, depth: number) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      let real: string;
      try {
        real = fs.realpathSync(full);
      } catch {
        continue;
      }
      if (real !== realRoot && !real.startsWith(realRoot + path.sep)) continue;
      const stat = fs.statSync(real);
      if (stat.isDirectory() && depth < 2) walk(full, depth + 1);
      else if (stat.isFile()) files.push(path.relative(root, full).split(path.sep).join('/'));
    }
  };
  walk(root, 0);
  return files;
}

/**
 * A local folder of Parquet, CSV and JSON files, read by DuckDB directly. Each top-level file is a
 * table named after its stem; each top-level folder is a table of all its files.
 */
export class FolderConnector implements Connector {
  constructor(
    private readonly source: string,
    private readonly settings: FolderSettings,
  ) {}

  private fileTables(): FileTable[] {
    if (!fs.existsSync(this.settings.path) || !fs.statSync(this.settings.path).isDirectory()) {
      throw new SourceUnavailableError(this.source, `folder ${this.settings.path} does not exist`);
    }
    return groupFileTables(dataFiles(this.settings.path));
  }

  private async describe(table: FileTable): Promise<TableInfo> {
    try {
      return {
        name: table.name,
        columns: await describeFiles(
          table.format,
          table.files.map((f) => path.join(this.settings.path, f)),
        ),
      };
    } catch (error) {
      throw new SourceUnavailableError(this.source, `cannot read table ${table.name}: ${(error as Error).message}`);
    }
  }

  async listTables(): Promise<TableInfo[]> {
    return Promise.all(this.fileTables().map((t) => this.describe(t)));
  }

  async describeTable(name: string): Promise<TableInfo | undefined> {
    const table = this.fileTables().find((t) => t.name === name.toLowerCase());
    return table ? findTable([await this.describe(table)], name) : undefined;
  }

  async scan(request: ScanRequest): Promise<ScanResult> {
    const table = this.fileTables().find((t) => t.name === request.table.name);
    if (!table) throw new SourceUnavailableError(this.source, `table ${request.table.name} disappeared`);
    return fileScan(
      table.format,
      table.files.map((f) => path.join(this.settings.path, f)),
      request.columns,
      request.filters,
    );
  }

  async check(): Promise<Record<string, unknown>> {
    return { tables: this.fileTables().length };
  }

  async close(): Promise<void> {}
}
