import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import type { ColumnInfo, ScanOutput } from '../connectors/types.js';
import { sqlIdent } from '../../core/sql-text.js';

const integerType = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT)$/;
const floatType = /^(FLOAT|DOUBLE)$/;

/**
 * Appends one value. Numbers go in natively where the column is numeric; everything else goes in as
 * text, which the appender casts to the column's type (decimals, dates, timestamps, UUIDs, JSON).
 */
function appendValue(appender: DuckDBAppender, value: unknown, type: string): void {
  if (value === null || value === undefined) appender.appendNull();
  else if (typeof value === 'boolean') appender.appendBoolean(value);
  else if (typeof value === 'bigint') appender.appendVarchar(value.toString());
  else if (typeof value === 'number') {
    if (floatType.test(type)) appender.appendDouble(value);
    else if (integerType.test(type) && Number.isSafeInteger(value)) appender.appendBigInt(BigInt(value));
    else appender.appendVarchar(String(value));
  } else if (value instanceof Uint8Array) appender.appendBlob(value);
  else if (value instanceof Date) appender.appendVarchar(value.toISOString());
  else if (typeof value === 'object') appender.appendVarchar(JSON.stringify(value));
  else appender.appendVarchar(String(value));
}

/** Creates `<catalog>.<schema>.<table>` with `columns` in the query's DuckDB instance (and the schema if needed). */
export async function createTable(
  connection: DuckDBConnection,
  catalog: string,
  table: string,
  columns: readonly ColumnInfo[],
  schema = 'main',
): Promise<void> {
  const definition = columns.map((c) => `${sqlIdent(c.name)} ${c.type}`).join(', ');
  if (schema !== 'main') await connection.run(`CREATE SCHEMA IF NOT EXISTS ${sqlIdent(catalog)}.${sqlIdent(schema)}`);
  await connection.run(`CREATE TABLE ${sqlIdent(catalog)}.${sqlIdent(schema)}.${sqlIdent(table)} (${definition})`);
}

/**
 * Loads a connector's scan output into an existing table and returns how many rows arrived: batches
 * through the appender, or DuckDB's own SELECT (setup first, teardown always).
 */
export async function loadTable(
  connection: DuckDBConnection,
  catalog: string,
  table: string,
  columns: readonly ColumnInfo[],
  output: ScanOutput,
  signal: AbortSignal,
  schema = 'main',
): Promise<number> {
  if (output.kind === 'duckdb') {
    try {
      for (const statement of output.setup ?? []) await connection.run(statement);
      const result = await connection.run(
        `INSERT INTO ${sqlIdent(catalog)}.${sqlIdent(schema)}.${sqlIdent(table)} ${output.select}`,
      );
      return result.rowsChanged;
    } finally {
      for (const statement of output.teardown ?? []) await connection.run(statement).catch(() => undefined);
    }
  }
  if (output.kind === 'duckdb-parts') {
    let rows = 0;
    for await (const select of output.parts) {
      if (signal.aborted) throw signal.reason;
      rows += (
        await connection.run(`INSERT INTO ${sqlIdent(catalog)}.${sqlIdent(schema)}.${sqlIdent(table)} ${select}`)
      ).rowsChanged;
    }
    return rows;
  }
  const appender = await connection.createAppender(table, schema, catalog);
  let rows = 0;
  try {
    for await (const batch of output.batches) {
      if (signal.aborted) throw signal.reason;
      for (const row of batch) {
        for (let i = 0; i < columns.length; i++) appendValue(appender, row[i], columns[i].type);
        appender.endRow();
      }
      rows += batch.length;
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  return rows;
}
