import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/**
 * Runs `fn` on a short-lived in-memory DuckDB, for connectors that use DuckDB to inspect local files
 * (schemas of Parquet/CSV/JSON files and DuckDB databases). Nothing is shared with queries.
 */
export async function withScratchDuckDB<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', threads: '1' });
  const connection = await instance.connect();
  try {
    return await fn(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** A DuckDB string literal. */
