import { QueryRejected } from '../../core/domain-errors.js';

/**
 * Functions and catalog views that show the engine's own settings and files: its temp folder, the
 * server's home directory (DuckDB's secret and extension folders), its temporary files. None of them
 * says anything about the sources a query is for.
 */
const serverDetails = new Set([
  'current_setting',
  'duckdb_settings',
  'pg_settings',
  'duckdb_temporary_files',
  'duckdb_extensions',
  'duckdb_secrets',
  'which_secret',
  'duckdb_secret_types',
  'duckdb_logs',
  'duckdb_log_contexts',
]);

/**
 * Refuses (400) a parsed query that calls or reads one of {@link serverDetails}, wherever in the tree
 * (a sub-query, a CTE, a lateral join). The tree is walked without recursion: its depth is the user's.
 */
export function refuseServerIntrospection(tree: unknown): void {
  const stack: unknown[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    const { function_name: fn, table_name: table } = node as { function_name?: unknown; table_name?: unknown };
    for (const name of [fn, table]) {
      if (typeof name === 'string' && serverDetails.has(name.toLowerCase()))
        throw new QueryRejected(`${name} shows the server's own settings and files and is not available in queries`);
    }
    for (const child of Array.isArray(node) ? node : Object.values(node))
      if (child !== null && typeof child === 'object') stack.push(child);
  }
}
