import fs from 'node:fs';
import path from 'node:path';
import { duckdbLiteral, filtersToSql } from './filters.js';
import { withScratchDuckDB } from './scratch-duckdb.js';
import type { ColumnInfo, Filter, ScanResult } from './types.js';
import { sqlIdent, sqlLiteral } from '../../core/sql-text.js';

export type FileFormat = 'parquet' | 'csv' | 'json';

/** A table made of data files: one file, or every file of one format in a folder. */
export interface FileTable {
  name: string;
  format: FileFormat;
  /** File paths relative to the source's root, sorted. */
  files: string[];
}

const extensions: Record<string, FileFormat> = {
  '.parquet': 'parquet',
  '.csv': 'csv',
  '.json': 'json',
  '.jsonl': 'json',
  '.ndjson': 'json',
};

/** The format of a data file by its extension, or undefined for other files. */
export function formatOf(file: string): FileFormat | undefined {
  return extensions[path.extname(file).toLowerCase()];
}

const tableName = (raw: string): string =>
  raw
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .replace(/^(\d)/, '_$1');

/**
 * Groups data files (paths relative to the root, `/`-separated) into tables: a file at the top level is
 * a table named after its stem; the files under a top-level folder form one table named after the
 * folder (all of one format, like a partitioned dataset). Other files are ignored.
 */
export function groupFileTables(files: readonly string[]): FileTable[] {
  const tables = new Map<string, FileTable>();
  for (const file of [...files].sort()) {
    const format = formatOf(file);
    if (!format) continue;
    const parts = file.split('/');
    const name = tableName(parts.length === 1 ? path.basename(file, path.extname(file)) : parts[0]);
    const table = tables.get(name);
    if (!table) tables.set(name, { name, format, files: [file] });
    else if (table.format === format) table.files.push(file);
  }
  return [...tables.values()];
}

/** The DuckDB table function call reading `paths` (absolute) in `format`. */
export function readFunction(format: FileFormat, paths: readonly string[]): string {
  const list = `[${paths.map(sqlLiteral).join(', ')}]`;
  switch (format) {
    case 'parquet':
      return `read_parquet(${list})`;
    case 'csv':
      return `read_csv(${list}, union_by_name = true)`;
    case 'json':
      return `read_json_auto(${list}, union_by_name = true)`;
  }
}

/** Schemas of data files already read, keyed by their paths, sizes and modification times. */
const schemaCache = new Map<string, ColumnInfo[]>();
const schemaCacheLimit = 512;

/** The columns of data files, as DuckDB reads them; read again only when a file changed. */
export async function describeFiles(format: FileFormat, paths: readonly string[]): Promise<ColumnInfo[]> {
  const key = `${format}\n${paths
    .map((p) => {
      const stat = fs.statSync(p);
      return `${p}\t${stat.size}\t${stat.mtimeMs}`;
    })
    .join('\n')}`;
  const cached = schemaCache.get(key);
  if (cached) return cached;
  const columns = await withScratchDuckDB(async (connection) => {
    const reader = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${readFunction(format, paths)}`);
    return reader.getRowObjectsJson().map((row) => ({ name: String(row.column_name), type: String(row.column_type) }));
  });
  if (schemaCache.size >= schemaCacheLimit) schemaCache.clear();
  schemaCache.set(key, columns);
  return columns;
}

/**
 * A scan of local data files that DuckDB reads itself: projection and every filter go into its SELECT,
 * since the filters then have DuckDB's own semantics.
 */
export function fileScan(
  format: FileFormat,
  paths: readonly string[],
  columns: readonly ColumnInfo[],
  filters: readonly Filter[],
): ScanResult {
  const where = filtersToSql(filters, sqlIdent, duckdbLiteral);
  const select =
    `SELECT ${columns.map((c) => sqlIdent(c.name)).join(', ')} FROM ` +
    `${readFunction(format, paths)}${where ? ` WHERE ${where}` : ''}`;
  return { output: { kind: 'duckdb', select }, pushed: [...filters] };
}
